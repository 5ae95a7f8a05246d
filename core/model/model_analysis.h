#pragma once

#include "core/backend.h"
#include "core/matrix.h"
#include "core/model/forward.h"
#include "core/model/model_result.h"

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace attn::core {

// Attention rollout (Abnar & Zuidema 2020, eq. 1 and sec. 3): per layer the residual
// connection is added as an identity, A' = 0.5 A + 0.5 I, rows renormalised to sum to 1, and
// the layers are multiplied from the bottom: R_1 = A'_1, R_l = A'_l R_{l-1}. Entry (i, j) of
// R_l is how much of token j's input reaches token i after layer l. One matrix per layer.
std::vector<Matrix> attentionRollout(const std::vector<Matrix>& layerAttention);
std::vector<Matrix> attentionRollout(const ModelResult& result);

struct HeadImportance
{
    // layers x heads: log p(target) of the run as given minus log p(target) with that head
    // also switched off. Positive: the head helps the prediction. 0 for heads already off.
    Matrix drop;
    int position = -1; // the predicted position the target is read at
    int target = -1;   // the token id: the run's most likely prediction there
    double baseLogProbability = 0.0;
};

struct ImportanceOptions
{
    std::function<void(int done, int total)> progress; // after each head
    const std::atomic<bool>* cancel = nullptr;         // true: stop, throw Cancelled
};

// Switches each head off in turn on top of `base`'s interventions and measures how the
// log-probability of base's top prediction (at its first predicted position) falls. Each run
// reuses the layers below the head from `base`. Throws Error when the run predicts nothing (no
// language-model head, or no [MASK] in a masked model's text).
HeadImportance headImportance(const std::shared_ptr<const ModelResult>& base, Backend& backend,
                              const ImportanceOptions& options = {});

} // namespace attn::core
