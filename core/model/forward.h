#pragma once

#include "core/backend.h"
#include "core/model/intervention.h"
#include "core/model/model_result.h"
#include "core/model/transformer_weights.h"

#include <QString>
#include <atomic>
#include <memory>
#include <vector>

namespace attn::core {

struct Model;

struct ForwardOptions
{
    // Per layer, what the backend keeps (ComputeOptions): every intermediate, or only Q, K,
    // V, weights and outputs. Weights are never pooled in a model run.
    bool keepIntermediates = true;
    int topK = 10;
    // Also the logits of every position, into ModelResult::allLogits: what a peer that returns
    // the whole logits tensor computes (the benchmark's same-work comparison). The predictions
    // stay at the predicted positions.
    bool logitsAtEveryPosition = false;
    // Checked before each layer and by the backend inside a layer's attention: when it becomes
    // true, runModel throws Cancelled (error.h). The window sets it when a newer edit makes this
    // run useless.
    const std::atomic<bool>* cancel = nullptr;
};

// Tokens of `text` as the model's tokenizer makes them (special tokens included). Throws Error
// for an empty text, one longer than the model's context, or a token the embedding table has
// no row for (checkTokenIds).
std::vector<Token> modelTokens(const Model& model, const QString& text);

// Throws Error naming the first token whose id is outside the token embedding table: a
// tokenizer whose vocabulary is larger than the checkpoint's table, where indexing the table
// would read memory past its end.
void checkTokenIds(const Model& model, const std::vector<Token>& tokens);

// The whole model on `backend`: embeddings -> for each layer (norm -> the layer's Problem ->
// backend -> residual -> norm -> feed-forward -> residual) -> final norm -> logits at the
// predicted positions. With `previous` (same model and tokens), the layers below the first one
// where the interventions differ are reused from it and only the rest is computed.
std::shared_ptr<const ModelResult> runModel(std::shared_ptr<const Model> model,
                                            const std::vector<Token>& tokens,
                                            const Interventions& interventions, Backend& backend,
                                            const ForwardOptions& options = {},
                                            std::shared_ptr<const ModelResult> previous = {});

// The Problem layer `layer` computes for input x (the layer's normalised input, T x d), with
// the interventions applied: what the forward hands the backend, and what the explorer shows
// and edits for a model head.
std::shared_ptr<const Problem> layerProblem(const Model& model, int layer,
                                            const std::vector<Token>& tokens, const Matrix& x,
                                            const Interventions& interventions);

// The k most likely tokens of one row of logits (ties: the lower id first), with softmax
// probabilities over the whole vocabulary (computed in double; the row maximum subtracted
// first). Non-finite logits are left out.
std::vector<Prediction> topPredictions(const Model& model, const RowVector& logits, int k);

// What the first layer reads for tokens at positions firstPosition, firstPosition + 1, ...: the
// sum of the token (scaled where the family scales it), position and token-type embeddings,
// then the embedding norm where the family has one (BERT, DistilBERT).
Matrix embed(const Model& model, const std::vector<Token>& tokens, BlockOps& ops,
             int firstPosition = 0);

// The pieces of a layer as runModel computes them, for the analyses that recompute part of a
// forward (the logit lens, activation patching). What layer `layer`'s attention reads: the
// norm before it (pre-norm families) applied to the layer's input x, or x itself.
Matrix attentionInput(const TransformerWeights& weights, int layer, BlockOps& ops, const Matrix& x);
// The layer's output from its input x and its attention's output: the residual, the
// feed-forward network and the norms where the family places them.
Matrix finishLayer(const TransformerWeights& weights, int layer, BlockOps& ops, const Matrix& x,
                   const Matrix& attentionOutput);
// The final norm (GPT-2's ln_f, Llama's norm) applied to rows of the last layer's output, or the
// rows themselves where the family has none.
Matrix finalNorm(const TransformerWeights& weights, BlockOps& ops, const Matrix& hidden);
// The language-model head on rows after the final norm: the masked-LM transform where the
// family has one, then the logits x E^T + b.
Matrix headLogits(const TransformerWeights& weights, BlockOps& ops, Matrix rows);

} // namespace attn::core
