#pragma once

#include "core/backend.h"
#include "core/model/forward.h"
#include "core/model/model_result.h"

#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace attn::core {

// What activation patching measures at the predicted position: the logit difference of two
// tokens, logit(A) - logit(B), or with no B the probability of A (Wang et al. 2022,
// "Interpretability in the wild", sec. 3; Meng et al. 2022, "Locating and editing factual
// associations", sec. 2.1).
struct PatchingMetric
{
    int tokenA = -1;
    int tokenB = -1; // -1: the metric is softmax(logits)[A]

    double of(const RowVector& logits) const;
};

// "A,B" (logit difference) or "A" (probability): each one token of the model's vocabulary, as
// the tokenizer encodes it without special tokens (GPT-2's " Mary" with its space), or a
// vocabulary entry as stored ("ĠMary"). Throws Error naming the token that is not one token.
PatchingMetric parsePatchingMetric(const Model& model, const QString& text);

// One patched run: from the clean run into the corrupted one at layer `layer`, these heads'
// outputs (before W_O), or the whole attention output (after W_O and b_O), and these positions
// of the residual stream after the layer. Everything below the layer is the corrupted run's.
struct Patch
{
    int layer = 0;
    std::vector<int> heads;
    bool attentionOutput = false;
    std::vector<int> positions;
};

struct PatchingOptions
{
    bool heads = true;     // sweep every head of every layer
    bool positions = true; // sweep every position of the residual stream after every layer
    std::function<void(int done, int total)> progress; // after each layer of each batch
    const std::atomic<bool>* cancel = nullptr;         // true: stop, throw Cancelled
};

// The clean and the corrupted forward (the same interventions on both), and the metric on each.
struct PatchingRuns
{
    std::shared_ptr<const ModelResult> clean;
    std::shared_ptr<const ModelResult> corrupt;
    PatchingMetric metric;
    int position = -1; // where the metric is read: the corrupted run's first predicted position
    double cleanMetric = 0.0;
    double corruptMetric = 0.0;
};

struct ActivationPatching
{
    PatchingRuns runs;
    // The fraction of the metric restored, (patched - corrupt) / (clean - corrupt): 1 where a
    // patch gives the clean run's metric, 0 where it changes nothing. layers x heads, and
    // layers x positions (the residual stream after each layer, bottom first). Empty when not
    // swept; all zeros when the two runs' metrics are equal (then `warnings` says so).
    Matrix heads;
    Matrix positions;
    Matrix headMetric; // the patched metric itself, same shapes
    Matrix positionMetric;
    std::vector<std::string> warnings;
};

// Runs both prompts. Throws Error when their token counts differ (naming both), when the model
// predicts nothing (no language-model head, no [MASK]), or when a metric token is outside the
// vocabulary.
PatchingRuns patchingRuns(std::shared_ptr<const Model> model, const std::vector<Token>& clean,
                          const std::vector<Token>& corrupt, const Interventions& interventions,
                          const PatchingMetric& metric, Backend& backend);

// The metric of each patched run. Each run recomputes from its layer up; runs that start at the
// same layer or above share the layers below them, and their rows go through the norms,
// feed-forward networks and the head together, so a sweep reads each weight matrix once per
// layer and batch instead of once per run.
std::vector<double> patchedMetrics(const PatchingRuns& runs, const std::vector<Patch>& patches,
                                   Backend& backend, const PatchingOptions& options = {});

// Every head and every position patched in turn (options.heads, options.positions).
ActivationPatching activationPatching(const PatchingRuns& runs, Backend& backend,
                                      const PatchingOptions& options = {});

} // namespace attn::core
