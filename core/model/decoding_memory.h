#pragma once

#include "core/model/available_memory.h"

#include <cstdint>
#include <string>

namespace attn::core {

struct ModelConfig;

// The new tokens decoding of at most `maxNewTokens` writes: the decoder's positions limit it
// (the decoder start token takes one).
int decodedLength(const ModelConfig& config, int maxNewTokens);

// The bytes an encoder-decoder's decoding of `length` new tokens with `beams` hypotheses
// (1: greedy) over `sourceTokens` source tokens holds at its longest (encoder_decoder.cpp with
// the key/value cache of decoder_cache.h), all float32:
// - the cross-attention's keys and values, once: layers x heads x 2 x source x d_head;
// - the beam search, at its last step: each of the beams' hypotheses and the copy it continues
//   from, with layers x heads x 2 x length x d_head keys and values each, and a candidate
//   (36 bytes with its scores) for each beam and vocabulary token;
// - then (greedy throughout) one hypothesis' keys and values and, for every step t = 1 ...
//   length and the final forward (t = length + 1), the forward the step keeps for the grids:
//   per layer and head the self-attention's Q, K, V and output (4 t d_head) and weights
//   (t x t), the cross-attention's Q and output (2 t d_head), its keys and values (2 x source x
//   d_head) and weights (t x source); per layer both attentions' outputs and query inputs
//   (4 t d_model); with relative positions (T5) the decoder's score bias, shared by the layers
//   (heads x t x t); the hidden states and final hidden state ((layers + 2) t d_model); logits
//   (vocabulary).
// The larger of the search and the steps counts.
std::int64_t decodingMemory(const ModelConfig& config, int sourceTokens, int length, int beams);

// Throws Error, before anything is decoded, when decodingMemory of decodedLength(config,
// maxNewTokens) exceeds `available` (unknown: nothing is checked), naming both and the longest
// decoding that fits: "decoding 511 tokens with 16 beams needs 2.3 GiB for the decoder's keys,
// values and attention weights; 100.0 MiB is available (ATTN_MEMORY_LIMIT_MIB): at most 146
// tokens fit with 16 beams". `prefix` starts the message.
void checkDecodingMemory(const ModelConfig& config, int sourceTokens, int maxNewTokens, int beams,
                         const AvailableMemory& available, const std::string& prefix = {});

// The bytes a decoder-only model's key/value cache (kv_cache.h) holds at `tokens` positions:
// per layer and head (each query head keeps its own copy where heads share keys and values)
// the keys and values, 2 x tokens x d_head float32.
std::int64_t keyValueCacheMemory(const ModelConfig& config, int tokens);

// Throws Error("generation: ...") before generating when the key/value cache at the prompt's
// and the new tokens' length exceeds `available` (unknown: nothing is checked), naming both and
// how many new tokens fit.
void checkGenerationMemory(const ModelConfig& config, int promptTokens, int newTokens,
                           const AvailableMemory& available);

} // namespace attn::core
