#pragma once

#include "problem.h"

#include <cstdint>
#include <memory>

namespace attn::core {

// A seeded random self- or cross-attention problem of any size, as the app builds one for a
// sentence without a scene: hashed embeddings of tokens "q0".."q36" ("k0".."k40" for the
// source), sinusoidal positions, Xavier weights with d_k = d_v = d_model / heads. The benchmark
// measures it and the tests use it.
std::shared_ptr<Problem> randomProblem(int queries, int keys, int dModel, int heads,
                                       std::uint64_t seed, bool cross);

} // namespace attn::core
