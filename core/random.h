#pragma once

#include <cstdint>
#include <string_view>

namespace attn::core {

// Deterministic pseudo-random numbers, identical on every platform and compiler
// (std::normal_distribution is implementation-defined, so it cannot reproduce a scene).
class Random
{
public:
    explicit Random(std::uint64_t seed);

    std::uint64_t nextU64(); // splitmix64
    double uniform();        // [0, 1)
    double uniform(double lo, double hi);
    double normal(); // N(0, 1), Box-Muller

private:
    std::uint64_t m_state;
    bool m_hasSpare = false;
    double m_spare = 0.0;
};

// FNV-1a of UTF-8 bytes mixed with a seed: the key that makes a token's hashed embedding
// the same in every sentence.
std::uint64_t hashString(std::string_view utf8, std::uint64_t seed);

} // namespace attn::core
