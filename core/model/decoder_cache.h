#pragma once

// The parts of the encoder-decoder forward (encoder_decoder.cpp) that decoding with a key/value
// cache shares, and that cache.

#include "core/model/encoder_decoder.h"
#include "core/model/kv_cache.h"

#include <memory>
#include <vector>

namespace attn::core::encdec {

// Token embeddings (scaled where the family scales them) plus the side's learned positions
// (none for T5) from position `first` on, then the side's embedding norm.
Matrix embedSide(const Model& model, const std::vector<Token>& tokens, const Matrix& positions,
                 const NormWeights& norm, const char* side, BlockOps& ops, int first = 0);

// The encoder's bidirectional self-attention (no keys given) or a decoder layer's
// cross-attention (the source's tokens and the encoder's output as keys and values), with
// `edit`'s settings where one is given.
std::shared_ptr<const Problem>
attentionProblem(const ModelConfig& config, std::shared_ptr<const ModelWeights> weights,
                 const LayerEdit* edit, const std::vector<Token>& queries, const Matrix& x,
                 std::shared_ptr<const Matrix> bias, const std::vector<Token>* keys = nullptr,
                 const Matrix* keyInput = nullptr);

// A layer's weights of one kind with that kind's heads off and head edits; errors name the kind.
std::shared_ptr<const ModelWeights> weightsOf(const char* kind,
                                              const std::shared_ptr<const ModelWeights>& weights,
                                              std::size_t layer,
                                              const Interventions& interventions);

// The decoder's self-attention of layer l as layerProblem makes it, with the stack's relative
// position bias where the family has one.
std::shared_ptr<const Problem> decoderProblem(const Model& model, int l,
                                              const std::vector<Token>& target, const Matrix& x,
                                              const Interventions& interventions,
                                              const std::shared_ptr<const Matrix>& bias);

// The relative position bias of one stack's self-attention, null without relative positions.
std::shared_ptr<const Matrix> stackBias(const ModelConfig& config, const Matrix& table, int t,
                                        bool bidirectional);

// The encoder over `source`: its layers' results, their warnings and its output into `result`.
void encode(const Model& model, const std::vector<Token>& source,
            const Interventions& interventions, Backend& backend, const ForwardOptions& options,
            ModelResult& result);

// The language-model head on final hidden rows.
Matrix decoderLogits(const TransformerWeights& w, BlockOps& ops, Matrix rows);

// Throws Cancelled once `options.cancel` is set.
void checkCancel(const ForwardOptions& options);

// A residual branch with its norm before (pre-norm) or after the sum (post-norm, BART).
template <typename Branch>
Matrix residual(BlockOps& ops, bool pre, const Matrix& x, const NormWeights& norm, Branch branch)
{
    Matrix h = x + branch(pre ? ops.norm(x, norm) : x);
    return pre ? h : ops.norm(h, norm);
}

// A decoder layer: its causal self-attention `self`, its cross-attention `cross` over the
// source, then its feed-forward network, each a residual branch.
template <typename Self, typename Cross>
Matrix decoderLayer(BlockOps& ops, bool pre, const TransformerLayer& layer, const Matrix& y,
                    Self self, Cross cross)
{
    Matrix z = residual(ops, pre, y, layer.attentionNorm, self);
    z = residual(ops, pre, z, layer.crossAttentionNorm, cross);
    return residual(ops, pre, z, layer.feedForwardNorm,
                    [&](const Matrix& in) { return ops.feedForward(in, layer.feedForward); });
}

// The decoder of one source decoded step by step with a key/value cache (Pope et al. 2022,
// "Efficiently Scaling Transformer Inference", section 2; transformers' past_key_values): the
// encoder runs once and each cross-attention head projects its output once; each hypothesis
// holds its own self-attention keys and values, so that a step computes its new row alone. A
// beam copies its parent's (transformers' _reorder_cache). Heads off and head edits are in the
// layers' weights; a LayerEdit on the decoder or the cross-attention leaves the decoding to
// whole forwards (applies()).
class DecoderCache
{
public:
    struct Hypothesis
    {
        std::vector<int> target; // the decoder start token and the tokens after it
        std::vector<CachedKeys> self;
    };

    // What a step's new row computed, for the step's whole result.
    struct Rows
    {
        struct Layer
        {
            Matrix selfInput;
            std::vector<HeadResult> self;
            Matrix selfOutput;
            Matrix crossInput;
            std::vector<HeadResult> cross;
            Matrix crossOutput;
            Matrix output;
        };
        Matrix embedding;
        std::vector<Layer> layers;
        Matrix finalHidden;
        RowVector logits;
    };

    // Whether cached steps give the whole forwards' numbers under these interventions.
    static bool applies(const EncoderDecoderInterventions& interventions,
                        const ForwardOptions& options)
    {
        return interventions.decoder.layers.empty() && interventions.cross.layers.empty() &&
               !options.logitsAtEveryPosition;
    }

    DecoderCache(std::shared_ptr<const Model> model, const std::vector<Token>& source,
                 const EncoderDecoderInterventions& interventions, Backend& backend,
                 const ForwardOptions& options, const char* prefix);

    // A hypothesis with no token yet.
    const Hypothesis& empty() const { return m_empty; }

    // Appends ids[i] to *hypotheses[i], every hypothesis' row in one pass: their logits (a row
    // each), checked to be finite. With `rows` (one hypothesis only), what its row computed.
    Matrix append(const std::vector<Hypothesis*>& hypotheses, const std::vector<int>& ids,
                  Rows* rows = nullptr) const;

    // Appends `id` to `h` and returns the forward over its target: `previous` (the forward over
    // the target before, null at the start) with the new row below, as runEncoderDecoderWith
    // gives it without intermediates.
    std::shared_ptr<const ModelResult> extend(Hypothesis& h, int id,
                                              const ModelResult* previous) const;

private:
    std::shared_ptr<const Model> m_model;
    EncoderDecoderInterventions m_interventions;
    Backend& m_backend;
    ForwardOptions m_options;
    const char* m_prefix;
    ModelResult m_encoded; // the encoder's layers and output, the source
    std::vector<CachedKeys> m_cross;
    Hypothesis m_empty;
};

} // namespace attn::core::encdec
