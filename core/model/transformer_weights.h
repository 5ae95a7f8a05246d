#pragma once

#include "core/block_ops.h"
#include "core/matrix.h"
#include "core/model/model_config.h"
#include "core/model_weights.h"

#include <memory>
#include <vector>

namespace attn::core {

// Every family's tensors mapped into one description (the family files only rename and
// reshape; the forward has no family-specific arithmetic). Row convention throughout, as in
// the explorer: y = x W + b with x a row of d_in values and W stored d_in x d_out. GPT-2's
// Conv1D weights are stored that way already; nn.Linear weights (BERT, Llama) are transposed
// once when the checkpoint is read.

struct TransformerLayer
{
    // Pre: normalises the block's input before attention. Post: the sum x + attention(x).
    NormWeights attentionNorm;
    // One explorer head per attention head: W_q, W_k, W_v sliced per head (d_model x d_head),
    // their biases, and W_O (heads * d_head x d_model) with b_O. With grouped-query attention
    // the heads of a group hold copies of the group's W_k and W_v. Shared and immutable, so
    // that every forward hands them to a Problem without a copy.
    std::shared_ptr<const ModelWeights> attention;
    // Encoder-decoder models' decoder layers: attention from the decoder's positions to the
    // encoder's output (queries from this layer, keys and values from the source), with its
    // norm, between self-attention and the feed-forward. Absent otherwise.
    NormWeights crossAttentionNorm;
    std::shared_ptr<const ModelWeights> crossAttention;
    NormWeights feedForwardNorm;
    FeedForwardWeights feedForward;
};

// The masked-LM head's transform before the decoder: norm(act(x W + b)) (BERT's
// cls.predictions.transform, DistilBERT's vocab_transform + vocab_layer_norm).
struct HeadTransform
{
    LinearWeights dense; // empty: no transform
    Activation activation = Activation::GeluErf;
    NormWeights norm;
};

struct TransformerWeights
{
    ModelConfig config;
    Matrix tokenEmbedding;     // vocab x d
    Matrix positionEmbedding;  // maxPositions x d (Learned); empty for Rotary
    Matrix tokenTypeEmbedding; // tokenTypes x d (BERT; row 0 is added); empty otherwise
    NormWeights embeddingNorm; // BERT, DistilBERT: LayerNorm of the summed embeddings
    std::vector<TransformerLayer> layers;
    // Encoder-decoder models: `layers` and the embeddings above are the decoder's (the token
    // embedding shared by both sides); the encoder's positions, embedding norm and layers here.
    Matrix encoderPositionEmbedding;
    NormWeights encoderEmbeddingNorm;
    std::vector<TransformerLayer> encoderLayers;
    NormWeights encoderFinalNorm; // pre-norm encoders (T5, mBART); absent for BART
    // RelativeBias positions (T5): buckets x heads, the first layer's table of each stack,
    // used by every layer of that stack's self-attention.
    Matrix encoderRelativeBias;
    Matrix relativeBias;
    NormWeights finalNorm; // GPT-2's ln_f, Llama's norm; absent for post-norm encoders
    HeadTransform headTransform;
    // The decoder, vocab x d as nn.Linear stores it (logits = h E^T + b); empty when tied to
    // the token embedding.
    Matrix lmHead;
    RowVector lmBias; // empty or 1 x vocab

    const Matrix& outputEmbedding() const { return lmHead.size() ? lmHead : tokenEmbedding; }
    bool hasLanguageModelHead() const { return config.objective != Objective::None; }
};

} // namespace attn::core
