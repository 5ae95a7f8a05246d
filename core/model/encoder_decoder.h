#pragma once

// The forward of encoder-decoder models (BART; Lewis et al. 2019, transformers'
// modeling_bart.py): the encoder reads the source with bidirectional self-attention; each
// decoder layer attends causally to the target so far, then to the encoder's output
// (cross-attention: decoder queries, encoder keys and values), then its feed-forward. Every
// head of the three kinds is an ordinary AttentionResult, so the explorer's views show them.

#include "core/model/forward.h"

namespace attn::core {

// The decoder tokens for vocabulary ids, each with its piece and text from the tokenizer.
std::vector<Token> decoderTokens(const Model& model, const std::vector<int>& ids);

// Encoder over `source`, decoder over `target` (its first token the decoder start token, as
// the model was trained), logits at the target's last position. `interventions` apply to the
// decoder's self-attention layers (the ModelResult's `layers`).
std::shared_ptr<const ModelResult>
runEncoderDecoder(std::shared_ptr<const Model> model, const std::vector<Token>& source,
                  const std::vector<Token>& target, const Interventions& interventions,
                  Backend& backend, const ForwardOptions& options = {});

struct GreedyDecoding
{
    std::vector<int> generated; // the new ids in order, the end-of-sequence id last if reached
    // The forward over the decoder start token and every generated token.
    std::shared_ptr<const ModelResult> result;
};

// Greedy decoding from the config's decoder start token: each step appends the most likely
// next token (the lowest id among equal logits) until the end-of-sequence token or
// `maxNewTokens` new tokens. Throws Error when a step has no finite logits.
GreedyDecoding decodeGreedily(const std::shared_ptr<const Model>& model,
                              const std::vector<Token>& source, int maxNewTokens,
                              const Interventions& interventions, Backend& backend,
                              const ForwardOptions& options = {});

} // namespace attn::core
