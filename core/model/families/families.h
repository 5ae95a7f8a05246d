#pragma once

// Private to the loader: what the family files share. Each family file maps the hub's tensor
// names and layouts into TransformerWeights, renaming, transposing and slicing only; all
// arithmetic belongs to the forward.

#include "core/model/checkpoint.h"
#include "core/model/families/config_reader.h"
#include "core/model/model_loader.h"
#include "core/model/transformer_weights.h"

#include <string>

namespace attn::core::families {

// The checkpoint as the family files read it: cancellation checked before every tensor,
// nn.Linear weights transposed into the row convention, progress reported per layer.
class TensorReader
{
public:
    TensorReader(const Checkpoint& checkpoint, const LoadOptions& options)
        : m_checkpoint(checkpoint), m_options(options)
    {
    }

    bool contains(const std::string& name) const { return m_checkpoint.contains(name); }

    // As stored (row convention already: GPT-2's Conv1D, embeddings).
    Matrix matrix(const std::string& name, std::int64_t rows, std::int64_t cols) const;
    RowVector vector(const std::string& name, std::int64_t size) const;
    // nn.Linear(d_in, d_out).weight, stored d_out x d_in, returned d_in x d_out (y = x W).
    Matrix linear(const std::string& name, std::int64_t dOut, std::int64_t dIn) const;
    LinearWeights linear(const std::string& weight, const std::string& bias, std::int64_t dOut,
                         std::int64_t dIn) const; // bias "" = none

    NormWeights layerNorm(const std::string& weight, const std::string& bias, std::int64_t size,
                          float eps) const;
    // "<base>.weight"/"<base>.bias", or the old "<base>.gamma"/"<base>.beta" (BERT checkpoints
    // converted from TensorFlow), whichever the checkpoint has.
    NormWeights layerNorm(const std::string& base, std::int64_t size, float eps) const;
    NormWeights rmsNorm(const std::string& weight, std::int64_t size, float eps) const;

    void layerDone(int done, int total) const;
    void checkCancelled() const;

private:
    const Checkpoint& m_checkpoint;
    const LoadOptions& m_options;
};

// The projections of one attention block in the row convention, for all heads at once:
// W_q d x (heads d_head), W_k and W_v d x (kvHeads d_head), W_o (heads d_head) x d; biases
// empty or of the matching width.
struct AttentionProjections
{
    Matrix wq, wk, wv, wo;
    RowVector bq, bk, bv, bo;
};

// One explorer head per query head (W_q, W_k, W_v sliced per head; with grouped-query
// attention head h reads kv head h / (heads / kvHeads)), W_o whole, and the explorer's own
// parameters a head needs: bilinear = I (the bilinear score starts as the plain dot product)
// and w_additive drawn from the seeded Xavier stream "layers[L].heads[H].w_additive".
std::shared_ptr<const ModelWeights> splitHeads(const ModelConfig& config, int layer,
                                               AttentionProjections projections);

// The names of one attention block's four nn.Linear projections after the block's prefix.
struct ProjectionNames
{
    const char* q;
    const char* k;
    const char* v;
    const char* o;
};

// "<prefix><name>.weight" for q, k, v and o in that order, each with its "<prefix><name>.bias"
// where `biases` says so (W_q d x heads d_head, W_k and W_v d x kvHeads d_head, W_o
// heads d_head x d), split into heads.
std::shared_ptr<const ModelWeights> readAttention(const TensorReader& reader,
                                                  const ModelConfig& config, int layer,
                                                  const std::string& prefix,
                                                  const ProjectionNames& names, bool biases);

// The LM head `name` (vocab x d) where the model predicts: read where it is not tied to the
// token embedding, and a tied one only where the checkpoint stores it anyway.
void readLmHead(const TensorReader& reader, TransformerWeights& w, const std::string& name);

// BERT's config keys, and its embeddings and encoder layers under `prefix` (RoBERTa's too).
void readBertConfig(const ConfigReader& c, ModelConfig& config);
TransformerWeights readBertEncoder(const TensorReader& reader, const ModelConfig& config,
                                   const std::string& prefix);

// Llama's config keys and tensors, shared by the families built on it (Mistral, Qwen2, Gemma).
void readLlamaFamilyConfig(const ConfigReader& c, ModelConfig& config);
TransformerWeights readLlama(const TensorReader& reader, const ModelConfig& config);

} // namespace attn::core::families
