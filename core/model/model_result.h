#pragma once

#include "core/attention_result.h"
#include "core/matrix.h"
#include "core/model/intervention.h"
#include "core/tokenizer.h"

#include <QString>
#include <memory>
#include <string>
#include <vector>

namespace attn::core {

struct Model;

struct Prediction
{
    int id = -1;
    QString text;  // the token as a reader sees it
    QString piece; // the vocabulary entry
    float logit = 0.0f;
    float probability = 0.0f; // softmax over the whole vocabulary
};

// The logits at one position and its most likely tokens.
struct PositionPrediction
{
    int position = 0;            // token index in the sentence, from 0
    RowVector logits;            // 1 x vocab
    std::vector<Prediction> top; // most likely first
};

// One forward of a real model. Immutable once returned, like AttentionResult; a layer's
// result is an ordinary AttentionResult whose problem is that layer's (X the layer's
// normalised input), so every explorer view and export works on it unchanged.
struct ModelResult
{
    std::shared_ptr<const Model> model;
    std::vector<Token> tokens; // special tokens included; Token::id holds the vocabulary id
    Interventions interventions;
    std::vector<std::shared_ptr<const AttentionResult>> layers; // bottom first
    // hidden[0] is the embedding the first layer reads; hidden[l + 1] the output of layer l.
    std::vector<Matrix> hidden;
    Matrix finalHidden; // what the language-model head reads (after the final norm, if any)
    // CausalLm: the last position; MaskedLm: every [MASK] (none when the text has none).
    std::vector<PositionPrediction> predictions;
    // T x vocab, only with ForwardOptions::logitsAtEveryPosition; empty otherwise.
    Matrix allLogits;

    // Encoder-decoder models (runEncoderDecoder): `tokens`, `layers` and `hidden` are the
    // decoder's; the source, the encoder's self-attention and output, and per decoder layer
    // its cross-attention (decoder positions x source positions) here. Empty otherwise.
    std::vector<Token> sourceTokens;
    std::vector<std::shared_ptr<const AttentionResult>> encoderLayers;
    Matrix encoderOutput;
    std::vector<std::shared_ptr<const AttentionResult>> crossLayers;

    std::string backend;
    std::string device;
    int firstComputedLayer = 0; // layers below it were reused from the previous result
    double milliseconds = 0.0;
    std::vector<StageTime> stages;
    std::vector<std::string> warnings;

    int layerCount() const { return int(layers.size()); }
};

} // namespace attn::core
