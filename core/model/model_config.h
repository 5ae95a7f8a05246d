#pragma once

#include "core/block_ops.h"

#include <QString>
#include <optional>
#include <string_view>
#include <vector>

namespace attn::core {

// The families whose checkpoints open, chosen from config.json's model_type/architectures.
enum class ModelFamily { Gpt2, Bert, DistilBert, Llama, Mistral, Qwen2 };

// Where a block normalises: Pre (GPT-2, Llama): x + f(norm(x)); Post (BERT): norm(x + f(x)).
enum class NormPlacement { Pre, Post };

enum class PositionKind {
    Learned, // a learned row per position, added to the token embedding
    Rotary,  // q and k rotated per position (Su et al. 2021), nothing added to the embedding
};

// What the language-model head predicts, if the checkpoint has one.
enum class Objective {
    CausalLm, // the next token after the last position
    MaskedLm, // the token at each [MASK]
    None,     // a bare encoder/decoder (GPT2Model, BertModel without cls.*): no prediction
};

std::string_view toString(ModelFamily family);
std::string_view toString(NormKind kind);
std::string_view toString(Activation activation);
std::optional<ModelFamily> parseModelFamily(std::string_view name); // "gpt2", "bert", ...

// Everything the forward needs to know about a checkpoint's architecture, read from
// config.json (the keys transformers writes for each model_type).
struct ModelConfig
{
    ModelFamily family = ModelFamily::Gpt2;
    QString modelType;    // config.json's model_type, as written
    QString architecture; // architectures[0], or "" when absent

    int layers = 0;
    int heads = 0;
    int kvHeads = 0; // grouped-query attention: heads / kvHeads query heads share a K and V
    int dModel = 0;
    int dHead = 0;
    int dFeedForward = 0;
    int vocab = 0;        // rows of the token embedding
    int maxPositions = 0; // learned positions: rows of the position table; rotary: the
                          // context length the model was trained for
    int tokenTypes = 0;   // BERT's token-type (segment) vocabulary; 0 for none

    NormKind norm = NormKind::LayerNorm;
    NormPlacement placement = NormPlacement::Pre;
    float normEps = 1e-5f;
    Activation activation = Activation::GeluTanh;
    FeedForwardKind feedForward = FeedForwardKind::Plain;
    PositionKind positions = PositionKind::Learned;
    // Rotary: one inverse frequency per pair of head dimensions (d_head / 2 values),
    // theta^(-2i/d_head), adjusted by rope_scaling where the config has one.
    std::vector<float> ropeInverseFrequencies;
    double ropeTheta = 10000.0;
    std::optional<int> slidingWindow; // Mistral: a query sees at most this many keys

    // Which projections carry a bias: GPT-2, BERT, DistilBERT all of them; Llama per
    // attention_bias / mlp_bias; Qwen2 q, k and v only; Mistral none.
    bool qkvBias = false;
    bool outputBias = false;
    bool feedForwardBias = false;

    bool causal = true;
    bool tiedEmbeddings = true; // the LM head reuses the token embedding
    Objective objective = Objective::CausalLm;
    QString dtype; // of the checkpoint's weights: "F32", "F16" or "BF16"

    // Throws Error naming the config key when a size is missing, non-positive or inconsistent
    // ("num_attention_heads: 12 does not divide hidden_size 770").
    void validate() const;
    // Weights in the checkpoint (embeddings, every layer, the head), for --model-info.
    long long parameterCount() const;
};

// Reads `folder`/config.json. Throws Error naming the file and the key
// ("config.json: model_type 't5' is not supported (gpt2, bert, distilbert, llama, mistral,
// qwen2)").
ModelConfig readModelConfig(const QString& folder);
ModelConfig parseModelConfig(const QByteArray& json, const QString& nameForMessages);

} // namespace attn::core
