#pragma once

#include "core/block_ops.h"

#include <QJsonObject>
#include <QString>
#include <optional>
#include <string_view>
#include <vector>

namespace attn::core {

namespace families {
struct FamilyEntry;
}

// The family whose checkpoints open, chosen by config.json's model_type: its row in the one
// table of families (core/model/families/registry.cpp).
using ModelFamily = const families::FamilyEntry*;

// Where a block normalises: Pre (GPT-2, Llama): x + f(norm(x)); Post (BERT): norm(x + f(x)).
enum class NormPlacement { Pre, Post };

enum class PositionKind {
    Learned, // a learned row per position, added to the token embedding
    Rotary,  // q and k rotated per position (Su et al. 2021), nothing added to the embedding
    // T5: a learned bias per head and bucket of the distance j - i, added to the self-attention
    // scores (Raffel et al. 2020, sec. 2.1); nothing added to the embedding
    RelativeBias,
};

// What the language-model head predicts, if the checkpoint has one.
enum class Objective {
    CausalLm, // the next token after the last position
    MaskedLm, // the token at each [MASK]
    None,     // a bare encoder/decoder (GPT2Model, BertModel without cls.*): no prediction
};

std::string_view toString(ModelFamily family); // its model_type; "?" for none
std::string_view toString(NormKind kind);
std::string_view toString(Activation activation);

// The checkpoint's own generation settings as transformers' generate applies them
// (generation/logits_process.py): keys of config.json, each replaced by generation_config.json's
// where that file gives it.
struct CheckpointGeneration
{
    // bad_words_ids' single-token entries (NoBadWordsLogitsProcessor): never chosen. Entries of
    // several tokens ban a token only after the others, which these decoders do not apply; they
    // are counted in unappliedBadWords.
    std::vector<int> bannedTokens;
    int unappliedBadWords = 0;
    // forced_eos_token_id (ForcedEOSTokenLogitsProcessor): the last step allowed chooses one of
    // these; empty: none.
    std::vector<int> forcedEos;
    int maxLength = 0; // max_length: the decoder start token and every new token; 0: none
    // eos_token_id (one id or a list; entries that are not numbers are passed over): the tokens
    // that end a text. Not one of the settings empty() asks about: it bans or forces nothing.
    std::vector<int> endTokens;

    bool empty() const { return bannedTokens.empty() && forcedEos.empty() && maxLength == 0; }
};

// Everything the forward needs to know about a checkpoint's architecture, read from
// config.json (the keys transformers writes for each model_type).
struct ModelConfig
{
    ModelFamily family = nullptr;
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
    // Learned positions: the rows of the stored table before position 0's (OPT's 2,
    // RoBERTa's padding_idx + 1), dropped when it is read.
    int positionOffset = 0;

    NormKind norm = NormKind::LayerNorm;
    NormPlacement placement = NormPlacement::Pre;
    float normEps = 1e-5f;
    Activation activation = Activation::GeluTanh;
    FeedForwardKind feedForward = FeedForwardKind::Plain;
    PositionKind positions = PositionKind::Learned;
    // Rotary: one inverse frequency per pair of head dimensions (d_head / 2 values),
    // theta^(-2i/d_head), adjusted by rope_scaling where the config has one.
    // Partial rotary (GPT-NeoX, Phi): 0 for the dimensions past rotaryDims, which splitHeads
    // moves to the end of each half of a head.
    std::vector<float> ropeInverseFrequencies;
    double ropeTheta = 10000.0;
    int rotaryDims = 0;               // of each head's d_head dimensions, how many turn
    std::optional<int> slidingWindow; // Mistral: a query sees at most this many keys

    // Which projections carry a bias: GPT-2, BERT, DistilBERT all of them; Llama per
    // attention_bias / mlp_bias; Qwen2 q, k and v only; Mistral none.
    bool qkvBias = false;
    bool outputBias = false;
    bool feedForwardBias = false;
    bool headBias = false; // a causal LM head with its own bias (Phi's lm_head)

    // GPT-NeoX, Phi: x + attention(norm(x)) + feed-forward(norm'(x)), both from the block's
    // input; with sharedBlockNorm (Phi) norm' is the attention's norm.
    bool parallelResidual = false;
    bool sharedBlockNorm = false;
    float embeddingScale = 1.0f; // Gemma: the token embeddings times sqrt(d_model)
    // Scores divided by sqrt(d_head) (Vaswani et al. 2017, eq. 1); T5 does not (its
    // initialisation folds the factor into W_q).
    bool scaledScores = true;
    // RelativeBias (T5): the buckets of the distance (relative_attention_num_buckets; half of
    // them per direction in the encoder) and the distance where the last bucket starts.
    int relativeBuckets = 0;
    int relativeMaxDistance = 0;
    // The final hidden state times this before the unembedding: T5 v1.0 with tied embeddings
    // scales by d_model^-0.5 (transformers' T5ForConditionalGeneration).
    float headInputScale = 1.0f;

    bool causal = true;
    bool tiedEmbeddings = true; // the LM head reuses the token embedding

    // Encoder-decoder models (BART): `layers`, `heads` and `dFeedForward` are the decoder's;
    // the encoder's own sizes here (0 layers: no encoder, a decoder-only or encoder-only model).
    // Every decoder layer also attends to the encoder's output (cross-attention).
    int encoderLayers = 0;
    int encoderHeads = 0;
    int encoderFeedForward = 0;
    int decoderStartToken = 0; // the first decoder token (config.json's decoder_start_token_id)
    int eosToken = -1;         // where greedy decoding stops; -1: none
    CheckpointGeneration generation;
    bool encoderDecoder() const { return encoderLayers > 0; }
    Objective objective = Objective::CausalLm;
    QString dtype; // of the checkpoint's weights: "F32", "F16" or "BF16"

    // Throws Error naming the config key when a size is missing, non-positive or inconsistent
    // ("num_attention_heads: 12 does not divide hidden_size 770").
    void validate() const;
    // Weights in the checkpoint (embeddings, every layer, the head), for --model-info.
    long long parameterCount() const;
};

// Reads the generation keys of `object` (the file `nameForMessages`) over `generation`: those
// it gives replace the ones there. Throws Error naming the file and the key for a malformed
// value or a token id outside [0, vocab).
void readGenerationKeys(const QJsonObject& object, const QString& nameForMessages, int vocab,
                        CheckpointGeneration& generation);

// Reads `folder`/config.json, and generation_config.json's generation keys where it has one.
// Throws Error naming the file and the key
// ("config.json: model_type: 't5' is not supported (gpt2, bert, ...)", every model_type of
// the registry).
ModelConfig readModelConfig(const QString& folder);
ModelConfig parseModelConfig(const QByteArray& json, const QString& nameForMessages);

} // namespace attn::core
