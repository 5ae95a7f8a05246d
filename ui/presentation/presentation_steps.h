#pragma once

#include <QString>

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
};
constexpr int kPresentationSteps = 12;

// "Scores"; empty outside 1 to kPresentationSteps.
QString presentationStepName(int step);

// The step's equation as `problem` computes it (its score, scaling, mask and
// normalization), one line of rich text for a QLabel: <i>, <b>, <sub>, <sup> and the real
// symbols (α, √, ∑, −, ×).
QString presentationCaption(int step, const core::Problem& problem);

// The step's equation for one cell, with the numbers of `head`, query i and key j put in:
// "e<sub>2,11</sub> = q<sub>2</sub> · k<sub>11</sub> = 3 × 3 + 0 × 0 + … = 9". Rich text as
// presentationCaption's. Indices are shown from 1, as people count tokens.
QString presentationNumbers(int step, const core::AttentionResult& result, int head, int query,
                            int key);

} // namespace attn::ui
