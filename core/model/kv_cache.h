#pragma once

#include "core/backend.h"
#include "core/block_ops.h"
#include "core/matrix.h"
#include "core/model/forward.h"
#include "core/model/model_result.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace attn::core {

struct Model;
struct Problem;

// One attention's keys and values per head: a causal self-attention's, which grow by the rows
// appended, or a cross-attention's (problem->cross), its key input projected once.
struct CachedKeys
{
    std::shared_ptr<const Problem> problem; // its weights, rotary step, mask and scale
    std::vector<Matrix> keys;               // per head: length x d_k, rotated
    std::vector<Matrix> values;             // per head: length x d_v
};

// A cross-attention's keys and values: each head's projection of the problem's key input.
CachedKeys crossKeys(std::shared_ptr<const Problem> problem);

// The attention output (n x d_model) of the rows `x` at positions first, first + 1, ...: for
// each head, the rows' queries against the cached keys, softmax over the keys the mask leaves
// (Vaswani et al. 2017, eq. 1), the heads concatenated (those switched off as zeros) and
// projected by W_O. A self-attention first appends the rows' keys and values to `cached`, and
// each row meets the keys up to its own position (within a causal window); a cross-attention
// meets every key (attendCross). `bias` (heads * n rows x keys, head h's block rows
// [h n, (h + 1) n)) is added to the raw scores as Problem::scoreBias is. With `kept`, each head's
// new rows as a whole forward keeps them (also a switched-off head's; a cross-attention's K and
// V left empty).
Matrix attendCached(CachedKeys& cached, const Matrix& x, int first, const Matrix* bias,
                    std::vector<HeadResult>* kept);
// Row i of `x` appended to and attending over caches[i] (the next position of each), with the
// bias biases[i] (heads x keys; none when `biases` is empty): one step of several hypotheses,
// each projection done once for all of them.
Matrix attendEachCached(const std::vector<CachedKeys*>& caches, const Matrix& x,
                        const std::vector<Matrix>& biases);
Matrix attendCross(const CachedKeys& cached, const Matrix& x, std::vector<HeadResult>* kept);

// An attention's result for every query row: the first `kept` rows of `earlier` (none when
// null) with the new rows `added` (their heads) and `addedOutput` below. A self-attention's
// weights grow to T x T (zero past each row's own position); a cross-attention's keys and values
// are `cross`'s.
std::shared_ptr<const AttentionResult>
stackedAttention(std::shared_ptr<const Problem> problem, const AttentionResult* earlier, int kept,
                 const std::vector<HeadResult>* added, const Matrix& addedOutput,
                 const CachedKeys* cross, const std::string& backend, const std::string& device);

// The first `rows` rows of `top` with `bottom` below them.
Matrix stacked(const Matrix& top, Eigen::Index rows, const Matrix& bottom);

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
    // Keeps the keys and values of the first `length` positions only: a text edited at that
    // position is appended again from there.
    void truncate(int length);
    // Bytes of keys and values held, for every layer and head.
    std::int64_t bytes() const;

    // Runs `tokens` after the cached ones through every layer, `ops` doing the norms,
    // feed-forward networks and logits, and keeps their keys and values. Returns the logits of
    // the last new token (1 x vocab). Throws Error past the model's context, Cancelled when
    // `cancel` becomes true (checked before each layer; the cache is then unusable).
    // With `rows`, also what the new rows computed, for a caller that builds the whole
    // forward's result from them (extendResult).
    struct LayerRows
    {
        Matrix input;                  // n x d_model: the attention's (normalised) input
        std::vector<HeadResult> heads; // Q, K, V, rotated Q and K, weights (n x length), output
        Matrix attention;              // n x d_model: the heads concatenated, times W_O
        Matrix output;                 // n x d_model: the layer's output
    };
    struct AppendedRows
    {
        Matrix embeddings; // n x d_model: what the first layer reads
        std::vector<LayerRows> layers;
    };
    RowVector append(const std::vector<Token>& tokens, BlockOps& ops,
                     const std::atomic<bool>* cancel = nullptr, AppendedRows* rows = nullptr);

private:
    std::shared_ptr<const Model> m_model;
    std::vector<CachedKeys> m_layers;
    int m_length = 0;
    bool m_broken = false; // an append stopped half-way
};

// runModel's result for `tokens` (without intermediates) from an earlier run of the same causal
// model with the same interventions: the positions both begin with are taken from `previous` (a
// causal model's row never depends on a later token), the others computed against the cached
// keys and values. Typing at the end computes the new positions alone; an edit at position i
// computes from i on. Null where that cannot give runModel's result: what fromResult refuses,
// options that ask for every intermediate or every position's logits, pooled weights, a run
// with warnings, no position in common, or non-finite numbers in the new rows.
std::shared_ptr<const ModelResult> extendResult(const std::shared_ptr<const ModelResult>& previous,
                                                const std::vector<Token>& tokens, Backend& backend,
                                                const ForwardOptions& options);

} // namespace attn::core
