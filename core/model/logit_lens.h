#pragma once

#include "core/backend.h"
#include "core/model/model_result.h"

#include <Eigen/Core>
#include <atomic>
#include <vector>

namespace attn::core {

struct LensOptions
{
    int topK = 5; // tokens kept per layer and position, most likely first
    // The token whose rank and probability are followed across the layers at every position;
    // -1: the model's own prediction there (the top token of the last layer).
    int token = -1;
    const std::atomic<bool>* cancel = nullptr; // true: stop between layers, throw Cancelled
};

// The logit lens (nostalgebraist 2020, "interpreting GPT: the logit lens"): the final norm and
// the language-model head applied to the residual stream after each layer, as if the model
// stopped there. Row l is the stream after layer l (bottom first), so the last row is what the
// model itself predicts at every position.
struct LogitLens
{
    // [layer][position]: the most likely tokens, with softmax probabilities over the vocabulary.
    std::vector<std::vector<std::vector<Prediction>>> top;
    std::vector<int> followed; // per position: the token id whose rank is followed
    Eigen::MatrixXi rank;      // layers x positions: 1 = the most likely token
    Matrix probability;        // layers x positions: the followed token's probability
    int layerCount() const { return int(top.size()); }
};

// Every layer and position of `run` through the lens, computed on `backend`'s block operations
// one layer at a time (a layer's T x vocab logits are dropped once read). Throws Error for a
// model without a language-model head, a run that met non-finite values, or a token outside the
// vocabulary.
LogitLens logitLens(const ModelResult& run, Backend& backend, const LensOptions& options = {});

// 1 + the number of tokens ranked before `token` in `logits`: higher logits first, equal ones by
// the lower id, the order of topPredictions.
int rankOf(const RowVector& logits, int token);

} // namespace attn::core
