#pragma once

#include "core/analysis/histogram.h"
#include "core/attention_settings.h"
#include "core/matrix.h"

#include <vector>

namespace attn::core {

struct AttentionResult;

// The gradient view (seeds 000 and 002): how much one query's weights still move
// when its scores move. Large scores saturate softmax to a one-hot row, where
// dw_j/ds_k = w_j (delta_jk - w_k) is nearly 0 everywhere: "softmax can be sensitive to large
// input values, killing the gradient" (seed 000).
struct SoftmaxSensitivity
{
    int head = 0;
    int query = 0;
    Normalization normalization = Normalization::Softmax;
    double scale = 1.0;          // what multiplied the raw scores: 1/sqrt(d_k) (scaled), 1/T
    std::vector<double> scores;  // the query's scaled scores (Tk), before masking
    std::vector<bool> masked;    // Tk
    std::vector<double> weights; // Tk
    Matrix jacobian;             // Tk x Tk: J(j, k) = dw_j / ds_k, s the scaled scores
    Matrix outputJacobian;       // d_v x Tk: d output_c / ds_k = (V^T J)(c, k)
    double jacobianNorm = 0.0;   // Frobenius norm of J
    double outputJacobianNorm = 0.0;
    double maxWeight = 0.0;
    double entropy = 0.0; // of the weights, in nats (0 for one-hot)
    Histogram histogram;  // every unmasked scaled score of the head (all queries)
};

// The sensitivity of `query` in `head` of a computed result (any backend, a scene's or a real
// model's layer). Needs the intermediates (ComputeOptions::keepIntermediates) and an unpooled
// result; throws Error naming what is missing or out of range.
SoftmaxSensitivity softmaxSensitivity(const AttentionResult& result, int head, int query,
                                      int bins = 30);

// The same query with and without 1/sqrt(d_k): both rebuilt from the raw scores q.k (the
// temperature kept), normalized as the result's normalization. At d_k = 256 the unscaled
// scores spread 16 times wider (seed 002: "preserving the variance"), the rows saturate and
// the Jacobian nearly vanishes; the scaled ones keep it.
struct ScalingComparison
{
    SoftmaxSensitivity unscaled; // raw / T
    SoftmaxSensitivity scaled;   // raw / (sqrt(d_k) T)
};
ScalingComparison compareScaling(const AttentionResult& result, int head, int query, int bins = 30);

} // namespace attn::core
