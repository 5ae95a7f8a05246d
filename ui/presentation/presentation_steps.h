#pragma once

#include <QString>

namespace attn::core {
struct Problem;
}

namespace attn::ui {

// The steps of a presentation, in the order a lecture builds attention up (issue 5). Each
// shows the matrices of the steps before it and frames those it creates.
enum class PresentationStep {
    Tokens = 1,  // the sentence cut into tokens
    Embeddings,  // E, P and X = E + P
    Projections, // Q, K, V
    Scores,      // e_ij, the score function alone
    Scaled,      // by 1/sqrt(d_k) and the temperature
    Masked,      // + M_ij
    Normalized,  // softmax, hard, ReLU or sparsemax
    WeightedSum, // o_i = sum_j alpha_ij v_j
    Heads,       // every head's weights
    Concat,      // the heads' outputs side by side
    Output,      // times W^O
};
constexpr int kPresentationSteps = 11;

// "Scores"; empty outside 1 to kPresentationSteps.
QString presentationStepName(int step);

// The step's equation as `problem` computes it (its score, scaling, mask and
// normalization), one line of rich text for a QLabel: <i>, <b>, <sub>, <sup> and the real
// symbols (α, √, ∑, −, ×).
QString presentationCaption(int step, const core::Problem& problem);

} // namespace attn::ui
