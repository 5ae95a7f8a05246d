#pragma once

#include "core/model/forward.h"
#include "core/model/sampling.h"

#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace attn::core {

class HfTokenizer;

struct GenerationSettings
{
    SamplingSettings sampling;
    int maxNewTokens = 20;   // causal: tokens appended; masked: [MASK]s filled at most
    QStringList stopStrings; // the continuation stops after the token that completes one
    // The tokens that end a text; unset: eosTokenIds(model).
    std::optional<std::vector<int>> endTokens;
    int alternatives = 5; // the most likely tokens recorded with each step
    // Each step's distributions before and after the filters (vocabulary-sized, for the
    // figure), and the forward that made the step (for the grid and the head views: every step
    // is then a whole forward).
    bool keepDistributions = true;
    bool keepResults = false;
    // Causal models: after the prompt, each step runs only the new position against every
    // layer's cached keys and values (kv_cache.h) instead of a whole forward, where the
    // interventions allow it (KvCache::fromResult).
    bool useCache = true;
};

// One chosen token.
struct GenerationStep
{
    int position = 0; // where it stands in the sequence, from 0
    int tokenId = -1;
    QString text;                // as a reader sees it
    float probability = 0.0f;    // the model's own: softmax of the logits at temperature 1
    float drawnFrom = 0.0f;      // in the distribution it was drawn from (after the filters)
    std::vector<Prediction> top; // the model's most likely tokens at that position
    std::vector<float> before;   // softmax of the model's logits (keepDistributions)
    std::vector<float> after;    // after the penalty, temperature, top-k and top-p
    std::shared_ptr<const ModelResult> result; // keepResults: the forward that chose it
};

enum class GenerationStop {
    Length,     // maxNewTokens reached
    EndToken,   // an end-of-text token was chosen (it is the last token)
    StopString, // the continuation now contains a stop string
    NoMask,     // masked models: every [MASK] is filled
    Cancelled,  // ForwardOptions::cancel became true; the steps so far are kept
};

struct Generation
{
    std::vector<Token> prompt;
    std::vector<Token> tokens;  // the prompt and what was generated (masks filled in place)
    std::vector<int> generated; // the new ids, in the order they were chosen
    std::vector<GenerationStep> steps;
    GenerationStop stop = GenerationStop::Length;
    QString continuation; // causal: the new text as decoded; masked: the filled-in text
};

// Called on the generating thread after each step, with everything chosen so far. It may move
// the newest step out of steps.back() (the window's job does, so that each step's
// distributions are held once); generation goes on from the ids and tokens.
using GenerationCallback = std::function<void(Generation&)>;

// The ids that end a text: generation_config.json's eos_token_id in the model's folder, else
// config.json's (a number or a list); none when neither names one. Throws Error naming the
// file when one is not valid JSON.
std::vector<int> eosTokenIds(const Model& model);

// The token a generation step appends for vocabulary id `id`, as Generation::tokens holds it
// ("[id 50300]" for an id the tokenizer has no text for).
Token generatedToken(const HfTokenizer& tokenizer, int id);

// Lets `model` write after `prompt`: each step runs the model (with `interventions` on, so
// heads switched off stay off), applies settings.sampling to the last position's logits and
// appends the chosen token. Masked models instead fill their [MASK] tokens one at a time, the
// position whose best token is the most probable first. Throws Error for invalid settings, a
// model without a language-model head, or a prompt that would pass the model's context
// ("the prompt's 5 tokens and 40 new ones make 45, more than the model's context of 32").
Generation generate(std::shared_ptr<const Model> model, const std::vector<Token>& prompt,
                    const Interventions& interventions, Backend& backend,
                    const GenerationSettings& settings, const ForwardOptions& options = {},
                    const GenerationCallback& onStep = {});

} // namespace attn::core
