#pragma once

#include "attention_settings.h"
#include "mask.h"
#include "matrix.h"
#include "model_weights.h"
#include "tokenizer.h"

#include <memory>
#include <vector>

namespace attn::core {

// Everything a backend needs, fully resolved to numbers: no files, no text parsing.
// Self-attention has the same tokens on both sides; cross-attention takes queries from the
// target sentence and keys/values from the source (seed 001's translation; seed 004's
// Q_in, K_in, V_in).
struct Problem : AttentionSettings // score, normalization, temperature, fill, mask
{
    std::vector<Token> queryTokens;
    std::vector<Token> keyTokens;
    bool cross = false;

    Matrix queryEmbedding; // Tq x d_model
    // Tq x d_model, or empty: no positions are added because the embeddings already hold them
    // (a model layer's input X). Empty on both sides or on neither.
    Matrix queryPosition;
    // Tk x d_model each, cross-attention only: in self-attention the keys are the queries and
    // these stay empty, so a model's forward, which keeps every layer, holds X once.
    Matrix keyEmbedding;
    Matrix keyPosition;
    std::vector<bool> keyIsPadding;
    std::vector<bool> queryFallback; // embedding lookup missed, hashed vector used
    std::vector<bool> keyFallback;

    // Shared and immutable: a model's layer hands its weights to every forward without a copy.
    // Builders change them through editWeights().
    std::shared_ptr<const ModelWeights> weights = std::make_shared<const ModelWeights>();
    // Set by a builder whose weights were validated when they were made and are shared
    // unchanged (a loaded model's layers, an intervention's edited copy): validate() then checks
    // their shapes only. Reading every value of GPT-2's layer weights twice per layer took
    // 10-20 ms of a 50 ms forward. editWeights() clears it.
    bool weightsValidated = false;
    RotarySpec rotary; // real models with rotary positions (Llama, Mistral, Qwen2)
    // A per-head additive score bias, or null (no cost): head h's Tq x Tk block is rows
    // [h Tq, (h + 1) Tq). It is part of the raw score, e_ij = q_i . k_j + b_ij, before the
    // scale and the mask: T5's relative position bias (Raffel et al. 2020, sec. 2.1), shared
    // by every layer of a stack, so held once.
    std::shared_ptr<const Matrix> scoreBias;

    // The weights to change, copied first when another problem shares them.
    ModelWeights& editWeights();

    int queryCount() const { return int(queryTokens.size()); }
    bool hasPositions() const { return queryPosition.size() != 0; }
    // X_q = E + P (E alone without positions) and X_kv (the keys' E + P in cross-attention,
    // X_q in self-attention).
    Matrix queryInput() const;
    Matrix keyInput() const;
    // P_q, zeros when there are no positions: for showing it.
    Matrix queryPositionOrZeros() const;
    int keyCount() const { return int(keyTokens.size()); }
    // The factor applied to raw scores: 1/sqrt(d_k) for ScaledDot, times 1/temperature.
    float scoreScale() const;
    Mask makeMask() const;
    // Throws Error naming the first inconsistency (shapes, counts, temperature <= 0, ...).
    void validate() const;
};

} // namespace attn::core
