#include "random.h"

#include <cmath>
#include <numbers>

namespace attn::core {

namespace {

// splitmix64 (Steele, Lea and Flood 2014; Vigna's reference constants): one 64-bit add
// and a fixed mixing function, so every platform produces the same sequence.
std::uint64_t splitmix64(std::uint64_t& state)
{
    state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

} // namespace

Random::Random(std::uint64_t seed) : m_state(seed) {}

std::uint64_t Random::nextU64()
{
    return splitmix64(m_state);
}

double Random::uniform()
{
    // The top 53 bits fill a double's mantissa exactly: k / 2^53 for k in [0, 2^53).
    return double(nextU64() >> 11) * 0x1.0p-53;
}

double Random::uniform(double lo, double hi)
{
    return lo + (hi - lo) * uniform();
}

double Random::normal()
{
    if (m_hasSpare) {
        m_hasSpare = false;
        return m_spare;
    }
    // Box-Muller: r = sqrt(-2 ln u1), theta = 2 pi u2 gives two independent N(0, 1) values,
    // r cos(theta) now and r sin(theta) on the next call. u1 lies in (0, 1], so ln is finite.
    const double u1 = 1.0 - uniform();
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    const double theta = 2.0 * std::numbers::pi * u2;
    m_spare = r * std::sin(theta);
    m_hasSpare = true;
    return r * std::cos(theta);
}

std::uint64_t hashString(std::string_view utf8, std::uint64_t seed)
{
    // FNV-1a, 64-bit offset basis and prime.
    std::uint64_t hash = 0xCBF29CE484222325ull;
    for (const char c : utf8) {
        hash ^= std::uint64_t(static_cast<unsigned char>(c));
        hash *= 0x100000001B3ull;
    }
    // Mixing the seed through splitmix64 makes nearby seeds (1, 2, 3) give unrelated keys.
    std::uint64_t state = seed;
    return hash ^ splitmix64(state);
}

} // namespace attn::core
