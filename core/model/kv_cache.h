#pragma once

#include "core/block_ops.h"
#include "core/matrix.h"
#include "core/model/model_result.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace attn::core {

struct Model;
struct Problem;

// Every layer's keys and values of a causal model's tokens, so that tokens appended at the end
// cost only their own rows: each new query meets the cached keys (already rotated, with
// rotary positions) and the new ones, and every block operation runs on the new rows alone.
// This is what Hugging Face's past_key_values holds (Pope et al. 2022, "Efficiently Scaling
// Transformer Inference", section 2). The cache holds one K and V per head, also for
// grouped-query heads (their copies may have been edited apart by an intervention).
class KvCache
{
public:
    // The cache of a whole forward's keys and values, with its interventions (the layers'
    // problems hold the heads switched off and edited). Null where appending cannot reproduce
    // that forward: a model that is not causal, or a layer whose score, normalisation or mask
    // an intervention changed (those stay whole forwards).
    static std::unique_ptr<KvCache> fromResult(const ModelResult& result);

    int length() const { return m_length; }
    // Bytes of keys and values held, for every layer and head.
    std::int64_t bytes() const;

    // Runs `tokens` after the cached ones through every layer, `ops` doing the norms,
    // feed-forward networks and logits, and keeps their keys and values. Returns the logits of
    // the last new token (1 x vocab). Throws Error past the model's context, Cancelled when
    // `cancel` becomes true (checked before each layer; the cache is then unusable).
    RowVector append(const std::vector<Token>& tokens, BlockOps& ops,
                     const std::atomic<bool>* cancel = nullptr);

private:
    struct Layer
    {
        std::shared_ptr<const Problem> problem; // its weights, rotary step, mask and scale
        std::vector<Matrix> keys;               // per head: length x d_k, rotated
        std::vector<Matrix> values;             // per head: length x d_v
    };

    Matrix attend(Layer& layer, const Matrix& x) const;

    std::shared_ptr<const Model> m_model;
    std::vector<Layer> m_layers;
    int m_length = 0;
    bool m_broken = false; // an append stopped half-way
};

} // namespace attn::core
