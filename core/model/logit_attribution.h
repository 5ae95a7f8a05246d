#pragma once

#include "core/matrix.h"
#include "core/model/model_result.h"

#include <vector>

namespace attn::core {

// Direct logit attribution (Elhage et al. 2021, "A mathematical framework for transformer
// circuits", sec. "direct path"): the residual stream at the predicted position is a sum of what
// each part wrote into it, and with the final norm's scale frozen at its value in this run the
// norm and the unembedding are linear, so the logit of a token splits into one term per part.
// LayerNorm: ((c - mean(c)) / sigma) * g . u for a part c, sigma = sqrt(var(x) + eps) of the
// whole stream x; RMSNorm: (c / rms(x)) * g . u; u the token's row of the output embedding.
struct LogitAttribution
{
    int position = -1;                 // the predicted position the logit is read at
    int token = -1;                    // the token id attributed
    Matrix heads;                      // layers x heads: each head's output through its rows of W_O
    std::vector<double> attentionBias; // per layer: b_O
    std::vector<double> feedForward;   // per layer: the feed-forward network's output
    double embedding = 0.0;            // the token and position embeddings
    double bias = 0.0;                 // the final norm's bias . u plus the head's bias
    double scale = 1.0;                // sigma (LayerNorm) or rms (RMSNorm), frozen
    float logit = 0.0f; // the run's logit; the sum of every term above, to float rounding
};

// The terms of the logit of `token` (-1: the run's most likely prediction) at the run's first
// predicted position. Throws Error for a run that predicts nothing, for a post-norm model (BERT,
// DistilBERT: the stream is renormalised after every layer, so no part's share reaches the head
// unchanged) or one whose head transforms the stream non-linearly, and for a token outside the
// vocabulary.
LogitAttribution logitAttribution(const ModelResult& run, int token = -1);

} // namespace attn::core
