#pragma once

#include "core/attention_settings.h"
#include "core/training/layer_parameters.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace attn::core {

struct Problem;

// One layer's inputs resolved to numbers, in double: what forwardLayer needs besides the
// parameters. Built from a Problem so that the numbers are those the CPU backend computes.
struct LayerInputs
{
    MatrixD queryInput; // Tq x d_model: X_q = E + P
    MatrixD keyInput;   // Tk x d_model: X_kv (the same rows in self-attention)
    std::vector<std::uint8_t>
        masked; // Tq x Tk, row-major; 1 = masked (causal, window, padding, custom)
    ScoreKind score = ScoreKind::ScaledDot;
    Normalization normalization = Normalization::Softmax;
    MaskFill fill = MaskFill::NegativeInfinity;
    double temperature = 1.0;

    // The embeddings plus positions, the combined mask and the settings of `problem`.
    static LayerInputs fromProblem(const Problem& problem);

    int queries() const { return int(queryInput.rows()); }
    int keys() const { return int(keyInput.rows()); }
    bool isMasked(int query, int key) const
    {
        return masked[std::size_t(query) * std::size_t(keys()) + std::size_t(key)] != 0;
    }
    // The factor of the raw scores: 1/sqrt(d_k) for the scaled dot product (Vaswani et al.
    // 2017, eq. 1), times 1/temperature for every score, as Problem::scoreScale.
    double scoreScale(int dK) const;
};

// Hard attention's gradient is 0 almost everywhere (seed 000: argmax "is not
// differentiable"). Two ways around it, both through softmax(s / tau) of the same scaled
// scores s:
enum class HardGradient {
    Zero,            // the true gradient: nothing reaches W_q, W_k (or w, M)
    StraightThrough, // forward one-hot, backward as if it were softmax(s / tau) (Bengio et al.
                     // 2013)
    SoftmaxRelaxed,  // forward and backward softmax(s / tau): train soft, show the argmax
};

std::string_view toString(HardGradient mode); // "zero", "straight-through", "relaxed"
std::optional<HardGradient> parseHardGradient(std::string_view name);

struct HardSurrogate
{
    HardGradient mode = HardGradient::Zero;
    double temperature = 1.0; // tau; smaller is closer to the argmax
};

struct HeadForward
{
    MatrixD Q, K, V;      // Tq x d_k, Tk x d_k, Tk x d_v
    MatrixD raw;          // Tq x Tk: the score function alone
    MatrixD scaled;       // raw * scoreScale (masked cells not yet filled)
    MatrixD weights;      // Tq x Tk: what multiplies V (softmax(s / tau) under SoftmaxRelaxed)
    MatrixD surrogate;    // softmax(s / tau) under StraightThrough or SoftmaxRelaxed; else empty
    MatrixD output;       // Tq x d_v = weights V
    MatrixD additiveTanh; // additive score: tanh(q_i + k_j) in row i * Tk + j; else empty
};

struct LayerForward
{
    std::vector<HeadForward> heads;
    MatrixD concat; // Tq x (h d_v), zeros in disabled heads' columns
    MatrixD output; // concat W_O + b_O
};

// The layer as the CPU backend computes it (core/cpu_backend.cpp), in double.
LayerForward forwardLayer(const LayerParameters& parameters, const LayerInputs& inputs,
                          const HardSurrogate& hard = {});

// What a loss hands back to the layer: any of these may be empty.
struct LayerUpstream
{
    MatrixD dOutput;               // dL/d output, Tq x d_model
    std::vector<MatrixD> dWeights; // per head dL/d weights, Tq x Tk (beside the path through V)
    // Per head, a gradient already taken through the normalization, with respect to the
    // scaled scores: cross-entropy against softmax weights is w - t there (the log-softmax
    // form), which stays finite where 1/w would not.
    std::vector<MatrixD> dScores;
};

// Reverse mode through every stage, by hand: W_O, the concatenation, weights x V, the
// normalization (normalization_gradients.h), the mask (masked cells hold a constant: no
// gradient), the scale, the score function (score_gradients.h) and the projections
// (dW_q = X_q^T dQ, db_q = sum of the rows of dQ; the same for K and V with X_kv).
// Disabled heads get zero gradients. Returns gradients shaped like `parameters`.
// With `dInputs`, also dL/dX_q (first) and dL/dX_kv (second), for a layer whose input is
// another layer's output (stacked blocks): dX_q = dQ W_q^T, dX_kv = dK W_k^T + dV W_v^T.
struct InputGradients
{
    MatrixD query; // Tq x d_model
    MatrixD key;   // Tk x d_model
};
LayerParameters backwardLayer(const LayerParameters& parameters, const LayerInputs& inputs,
                              const LayerForward& forward, const LayerUpstream& upstream,
                              const HardSurrogate& hard = {}, InputGradients* dInputs = nullptr);

} // namespace attn::core
