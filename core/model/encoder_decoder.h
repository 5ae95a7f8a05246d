#pragma once

// The forward of encoder-decoder models (BART; Lewis et al. 2019, transformers'
// modeling_bart.py; T5, Raffel et al. 2020, modeling_t5.py): the encoder reads the source with
// bidirectional self-attention; each decoder layer attends causally to the target so far, then to
// the encoder's output (cross-attention: decoder queries, encoder keys and values), then its
// feed-forward. Every head of the three kinds is an ordinary AttentionResult, so the explorer's
// views show them.

#include "core/model/beam_search.h"
#include "core/model/forward.h"

#include <functional>

namespace attn::core {

// T5's bucket of the relative position j - i (key minus query; Raffel et al. 2020, sec. 2.1,
// transformers' T5Attention._relative_position_bucket): bidirectional (the encoder) gives
// half of the buckets to keys after the query; unidirectional (the decoder) counts only keys
// before it. Of a direction's n buckets, distances below n / 2 have one each; the rest share
// the others logarithmically up to maxDistance, past which all fall into the last. The
// logarithm is taken in float32, as transformers does, so the buckets agree at their edges.
int relativePositionBucket(int relative, bool bidirectional, int buckets, int maxDistance);

// The score bias of every head for tq queries (at positions firstQuery, firstQuery + 1, ...)
// and tk keys from a buckets x heads table: head h's block is rows [h tq, (h + 1) tq), (i, j)
// its bias table(bucket(j - i - firstQuery), h).
Matrix relativePositionBias(const Matrix& table, int tq, int tk, bool bidirectional,
                            int maxDistance, int firstQuery = 0);

// The decoder tokens for vocabulary ids, each with its piece and text from the tokenizer.
std::vector<Token> decoderTokens(const Model& model, const std::vector<int>& ids);

// A layer's attention weights with the heads off and head edits `interventions` name for
// `layer` (the same object when none applies); errors name the layer and head. Defined in
// forward.cpp, whose layerProblem applies it to the decoder-only models.
std::shared_ptr<const ModelWeights>
intervenedWeights(const std::shared_ptr<const ModelWeights>& weights, int layer,
                  const Interventions& interventions);

// Interventions on each of the three kinds of heads, by layer and head of their own stack.
// Heads off, head edits (HeadEdit) and a LayerEdit's score, normalisation, temperature and fill
// apply to all three; its mask to the two self-attentions (the decoder keeps its causal mask
// unless the edit's mask says otherwise).
struct EncoderDecoderInterventions
{
    Interventions encoder; // the encoder's self-attention (ModelResult::encoderLayers)
    Interventions decoder; // the decoder's self-attention (ModelResult::layers)
    Interventions cross;   // the decoder's cross-attention (ModelResult::crossLayers)

    bool empty() const { return encoder.empty() && decoder.empty() && cross.empty(); }
    bool operator==(const EncoderDecoderInterventions&) const = default;
};

// Encoder over `source`, decoder over `target` (its first token the decoder start token, as
// the model was trained), logits at the target's last position. `interventions` apply to the
// decoder's self-attention layers (the ModelResult's `layers`).
std::shared_ptr<const ModelResult>
runEncoderDecoder(std::shared_ptr<const Model> model, const std::vector<Token>& source,
                  const std::vector<Token>& target, const Interventions& interventions,
                  Backend& backend, const ForwardOptions& options = {});

// runEncoderDecoder with interventions on every kind of head; the result's `interventions` are the
// decoder's.
std::shared_ptr<const ModelResult>
runEncoderDecoderWith(std::shared_ptr<const Model> model, const std::vector<Token>& source,
                      const std::vector<Token>& target,
                      const EncoderDecoderInterventions& interventions, Backend& backend,
                      const ForwardOptions& options = {});

// One step of greedy decoding: the forward over `target` (the decoder start token and the
// tokens chosen so far) and the most likely next token (the lowest id among equal logits) that
// the checkpoint's generation settings (ModelConfig::generation) do not ban.
struct GreedyStep
{
    int id = -1;
    float probability = 0.0f; // the model's softmax over the whole vocabulary
    // The forward that chose it: its last target row is what the step read, in the
    // decoder's self-attention and in the cross-attention over the source.
    std::shared_ptr<const ModelResult> result;
};

// Throws Error when the logits are not all finite.
GreedyStep greedyStep(const std::shared_ptr<const Model>& model, const std::vector<Token>& source,
                      const std::vector<int>& target,
                      const EncoderDecoderInterventions& interventions, Backend& backend,
                      const ForwardOptions& options = {});

struct GreedyDecoding
{
    std::vector<int> generated; // the new ids in order, the end-of-sequence id last if reached
    // The forward over the decoder start token and every generated token.
    std::shared_ptr<const ModelResult> result;
    std::vector<GreedyStep> steps; // one per generated token, in order
};

// Greedy decoding from the config's decoder start token: each step appends the most likely
// next token (the lowest id among equal logits) until the end-of-sequence token or
// `maxNewTokens` new tokens. The checkpoint's generation settings apply as in transformers'
// generate: banned tokens are never chosen, and a forced end token is the last step's. Throws Error
// when a step has no finite logits.
GreedyDecoding decodeGreedily(const std::shared_ptr<const Model>& model,
                              const std::vector<Token>& source, int maxNewTokens,
                              const Interventions& interventions, Backend& backend,
                              const ForwardOptions& options = {});

// decodeGreedily with interventions on every kind of head; `onStep` (when given) sees each step as
// it is chosen, on the calling thread.
GreedyDecoding decodeGreedilyWith(const std::shared_ptr<const Model>& model,
                                  const std::vector<Token>& source, int maxNewTokens,
                                  const EncoderDecoderInterventions& interventions,
                                  Backend& backend, const ForwardOptions& options = {},
                                  const std::function<void(const GreedyStep&)>& onStep = {});

struct BeamDecoding
{
    // The chosen hypothesis as greedy decoding gives its own: each step is that token, its
    // probability given the tokens before it, and the forward that scored it.
    GreedyDecoding chosen;
    BeamSearchResult search; // its log-probability and score, and those it was chosen among
};

// Beam search of `beams` hypotheses (beamSearch: transformers' num_beams with length_penalty 1.0
// and early_stopping) from the config's decoder start token, each step's log-probabilities from
// the forward over the decoder start token and the hypothesis so far, changed by the
// checkpoint's generation settings as transformers' logits processors change them. `onStep` (when
// given) sees the chosen hypothesis' steps once the search has ended, on the calling thread. Throws
// Error when a forward has no finite logits.
BeamDecoding decodeWithBeams(const std::shared_ptr<const Model>& model,
                             const std::vector<Token>& source, int maxNewTokens, int beams,
                             const EncoderDecoderInterventions& interventions, Backend& backend,
                             const ForwardOptions& options = {},
                             const std::function<void(const GreedyStep&)>& onStep = {});

} // namespace attn::core
