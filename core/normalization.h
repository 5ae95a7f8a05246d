#pragma once

#include "attention_settings.h"

#include <cstdint>

namespace attn::core {

struct RowStatus
{
    bool fullyMasked = false; // every key of the row is masked
    bool zeroSum = false;     // ReLU: no positive score, so the weights are all 0
    bool nonFinite = false;   // a NaN or infinite score among the cells that count
};

// Turns one row of scaled scores into weights, in place. masked[j] != 0 marks masked keys.
//
// With MaskFill::NegativeInfinity a masked cell is excluded: it weighs exactly 0, and a row
// with every key masked is all zeros (reported, never NaN). With MaskFill::MinusNineE15 a
// masked cell holds -9e15 and counts as an ordinary number, as PyTorch's masked_fill does:
// it still weighs 0 beside any real score, but a fully masked row becomes uniform.
//
// Normalization::None leaves the scores as they are and sets masked cells to 0 under either
// fill; a fully masked row is all zeros.
//
// Non-finite scores: a row with a NaN becomes NaN; +inf cells share the row equally (the
// limit of softmax, ReLU and sparsemax as those scores grow); all cells -inf is uniform.
RowStatus normalizeRow(float* scores, const std::uint8_t* masked, int count,
                       Normalization normalization, MaskFill fill);

// Sparsemax (Martins & Astudillo 2016, Algorithm 1) of the cells that are not -inf, which weigh
// 0: sort z descending, find the support size k = max{k : 1 + k z_(k) > sum_{j<=k} z_(j)},
// tau = (sum_{j<=k} z_(j) - 1) / k, w_j = max(z_j - tau, 0). `max` is the largest cell; it is
// subtracted first (sparsemax is shift-invariant), which keeps 1 + k z_(k) meaningful in double
// precision when scores are as large as the -9e15 fill. Every cell -inf gives all zeros.
// `weights` may be `scores`.
void sparsemaxRow(const float* scores, int count, float max, float* weights);
void sparsemaxRow(const double* scores, int count, double max, double* weights);

} // namespace attn::core
