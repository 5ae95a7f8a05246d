#pragma once

#include "core/attention_settings.h"
#include "core/matrix.h"
#include "core/training/layer_parameters.h"

#include <QString>
#include <vector>

namespace attn::core {

struct Scene;

// What positions add to a scene's input (seeds 001 and 003; Vaswani et al. 2017, 3.5):
// P, how alike the positions are, and the sum the projections see.
struct PositionalView
{
    std::vector<QString> tokens; // the query sentence's
    Matrix embeddings;           // E, T x d_model
    Matrix positions;            // P, T x d_model (zeros for positional kind none)
    Matrix sum;                  // X = E + P
    Matrix similarity;           // P P^T, T x T: the dot product of positions i and j
};
// Throws Error as resolveProblem does.
PositionalView positionalView(const Scene& scene);

// P P^T, or with `cosine` each entry divided by |p_i| |p_j| (0 for a zero row). For
// sinusoidal P the dot product depends on i - j only:
//   p_i . p_j = sum_k cos((i - j) / 10000^(2k/d))  over the d/2 frequencies (d even).
Matrix positionSimilarity(const Matrix& positions, bool cosine = false);

// Order blindness: without positions and without a causal mask, self-attention is
// permutation-equivariant: permuting the tokens permutes the rows of the output and the rows
// and columns of the weights, and nothing else changes. Positions or a causal mask break it.
struct PermutationCheck
{
    std::vector<int> permutation; // token i of the permuted sentence is token permutation[i]
    double outputDeviation =
        0.0; // max |Y'_i - Y_perm(i)| (the permuted output against the original)
    double weightDeviation = 0.0; // max |A'_ij - A_perm(i) perm(j)| over every head
    // Both deviations within rounding (1e-9 of the output's size): the layer cannot tell the
    // orders apart.
    bool equivariant = false;
};
// The scene's sentence in the given order (positions stay by index; padding moves with its
// token), computed in double by the same layer the trainer uses. Self-attention only;
// throws Error for cross-attention or a permutation that is not one of 0..T-1.
PermutationCheck checkPermutation(const Scene& scene, const std::vector<int>& permutation);

// The Hugging Face default rotary frequencies theta^(-2i/d_k), i < d_k/2 (RoFormer, eq. 15).
RotarySpec defaultRotary(int dK, double theta = 10000.0);

// Rotary positions (Su et al. 2021) in RotarySpec's rotate-half arrangement, for a real
// model's heads (model config's ropeInverseFrequencies) or defaultRotary.
struct RotaryView
{
    Matrix angles;              // positions x d_k/2: p * inverseFrequency_i, in radians
    Matrix rotated;             // positions x d_k: the vector q turned to each position
    std::vector<int> distances; // m - n from -maxDistance to maxDistance
    std::vector<double> scores; // R(m) q . R(n) k at each distance: depends on m - n only
};
// `q` and `k` have d_k entries (d_k even, d_k / 2 frequencies); positions from
// spec.firstPosition. Throws Error for mismatched sizes.
RotaryView rotaryView(const RowVectorD& q, const RowVectorD& k, const RotarySpec& spec,
                      int positions, int maxDistance);

// One vector turned to `position` (angles position * inverseFrequency_i, pairs i, i + d/2),
// in double.
RowVectorD rotateToPosition(const RowVectorD& v, const RotarySpec& spec, int position);

} // namespace attn::core
