#pragma once

#include "core/training/attention_layer.h"
#include "core/training/training_task.h"

#include <optional>
#include <string_view>

namespace attn::core {

// How an attention row is compared with its target row t (a distribution):
enum class AttentionLoss {
    // -sum_j t_j log w_j, from the log-softmax of the scores. Needs softmax weights (softmax,
    // or hard attention relaxed to softmax): sparsemax, ReLU and hard weights can be 0 where t
    // is not, and log 0 is -inf.
    CrossEntropy,
    // sum_j (w_j - t_j)^2: any normalization, hard attention with a straight-through gradient
    // and "none" included.
    SquaredError,
};

std::string_view toString(AttentionLoss loss); // "cross-entropy", "squared-error"

// The loss of one example, with lambda_a and lambda_o the weights of its two parts:
//   L = lambda_a * mean over (enabled heads, counted rows) of the attention row loss
//     + lambda_o * mean over (counted rows, d_model columns) of (Y - Y*)^2
// where Y is the layer's output and Y* the example's target output.
struct LossSettings
{
    double attentionWeight = 1.0; // lambda_a
    double outputWeight = 0.0;    // lambda_o
    AttentionLoss attention = AttentionLoss::CrossEntropy;
};

// CrossEntropy where the forward weights are a softmax, SquaredError otherwise.
AttentionLoss defaultAttentionLoss(Normalization normalization, const HardSurrogate& hard);

struct LossValue
{
    double total = 0.0;
    double attention = 0.0; // lambda_a times the attention part
    double output = 0.0;    // lambda_o times the output part
};

// The loss of `forward` on `example`; when `upstream` is given, also dL/d(output, weights,
// scores) for backwardLayer. Cross-entropy hands back w - t with respect to the scaled
// scores (divided by tau for the relaxed softmax(s / tau)), never -t / w.
LossValue exampleLoss(const LayerParameters& parameters, const LayerForward& forward,
                      const TrainingExample& example, const LossSettings& settings,
                      const HardSurrogate& hard, LayerUpstream* upstream);

// The fraction of (enabled head, counted row) pairs whose largest weight falls on a key the
// target row gives weight to: 1 when every row attends where the task asks.
double attentionAccuracy(const LayerParameters& parameters, const LayerForward& forward,
                         const TrainingExample& example);

} // namespace attn::core
