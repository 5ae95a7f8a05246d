#pragma once

#include <QString>
#include <vector>

namespace attn::core {
struct AttentionResult;
struct Problem;
} // namespace attn::core

namespace attn::ui {

// The steps of a presentation, in the order a lecture builds attention up. Each
// shows the matrices of the steps before it and frames those it creates.
enum class PresentationStep {
    Tokens = 1,  // the sentence cut into tokens
    Embeddings,  // E, P and X = E + P
    Projections, // Q, K, V
    Scores,      // e_ij, the score function alone
    Scaled,      // by 1/sqrt(d_k) and the temperature
    Masked,      // + M_ij
    Normalized,  // softmax, hard, ReLU or sparsemax
    QueryFocus,  // one query: its scores, their softmax as bars, the weighted sum of the values
    WeightedSum, // o_i = sum_j alpha_ij v_j, every query: O = alpha V
    Heads,       // every head's weights
    Concat,      // the heads' outputs side by side
    Output,      // times W^O
    // A stacked scene's block around its attention (Vaswani et al. 2017, Fig. 1):
    AddNorm,       // H = LN(X + MultiHead(X))
    FeedForward,   // FFN(H) = max(0, H W_1 + b_1) W_2 + b_2, each row alone
    AddNormOutput, // Y = LN(H + FFN(H))
    NextBlock,     // Y is the next block's X
    // Fixed against data-dependent mixing weights, with one word changed (seeds 001, 004):
    MixingFullyConnected, // a fully connected layer over the positions
    MixingConvolution,    // a convolution's window
    MixingAttention,      // attention's weights
    MixingChanges,        // what moved
    // Seed 004: a kernel machine adjusts its kernel, attention learns the embedding:
    KernelFixed,    // one Gaussian width everywhere
    KernelLearned,  // learned query and key maps: a width for each place
    KernelFits,     // the data and both fits
    KernelContrast, // the two side by side, in the seed's words
};
constexpr int kPresentationSteps = 12; // the steps of attention, which every presentation has
constexpr int kLastPresentationStep = int(PresentationStep::KernelContrast);

struct PresentationExtras; // presentation_extras.h

// The steps of a presentation in order: the twelve of attention, then those of `extras`
// (null: none): a stacked scene's block, then the mixing weights, then the kernel's.
std::vector<PresentationStep> presentationSteps(const PresentationExtras* extras);

// "Scores"; empty outside 1 to kLastPresentationStep.
QString presentationStepName(int step);

// The step's equation as `problem` computes it (its score, scaling, mask and
// normalization), one line of rich text for a QLabel: <i>, <b>, <sub>, <sup> and the real
// symbols (α, √, ∑, −, ×). A step of `extras` (from 13) is empty without them.
QString presentationCaption(int step, const core::Problem& problem,
                            const PresentationExtras* extras = nullptr);

// The step's equation for one cell, with the numbers of `head`, query i and key j put in:
// "e<sub>2,11</sub> = q<sub>2</sub> · k<sub>11</sub> = 3 × 3 + 0 × 0 + … = 9". Rich text as
// presentationCaption's. Indices are shown from 1, as people count tokens.
QString presentationNumbers(int step, const core::AttentionResult& result, int head, int query,
                            int key, const PresentationExtras* extras = nullptr);

} // namespace attn::ui
