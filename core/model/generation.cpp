#include "generation.h"

#include "core/error.h"
#include "core/limits.h"
#include "core/model/decoding_memory.h"
#include "core/model/kv_cache.h"
#include "core/model/model_loader.h"
#include "core/random.h"
#include "core/tokenizers/hf_tokenizer.h"

#include <algorithm>

namespace attn::core {
namespace {

std::vector<float> toFloat(const std::vector<double>& values)
{
    return {values.begin(), values.end()};
}

std::vector<int> idsOf(const std::vector<Token>& tokens)
{
    std::vector<int> ids;
    for (const Token& token : tokens)
        ids.push_back(token.id);
    return ids;
}

// The new text: the whole sequence decoded less the prompt decoded (a SentencePiece decoder
// drops a leading space of a text decoded alone), else the new ids decoded alone.
QString continuationText(const HfTokenizer& tokenizer, const std::vector<Token>& prompt,
                         const std::vector<int>& generated)
{
    std::vector<int> all = idsOf(prompt);
    all.insert(all.end(), generated.begin(), generated.end());
    const QString whole = tokenizer.decode(all);
    const QString before = tokenizer.decode(idsOf(prompt));
    return whole.startsWith(before) ? whole.mid(before.size()) : tokenizer.decode(generated);
}

// The step's choice at one row of logits.
GenerationStep choose(const RowVector& logits, const std::vector<int>& previous,
                      const GenerationSettings& settings, Random& random)
{
    GenerationStep step;
    RowVector penalised = logits;
    applyRepetitionPenalty(penalised, previous, settings.sampling.repetitionPenalty);
    const std::vector<double> before = softmaxAt(logits, 1.0f);
    const std::vector<double> after = filteredDistribution(penalised, settings.sampling);
    step.tokenId = settings.sampling.greedy() ? greedyToken(penalised) : drawToken(after, random);
    if (step.tokenId < 0)
        throw Error("generation: no logit is a finite number: nothing to choose from");
    step.probability = float(before[std::size_t(step.tokenId)]);
    step.drawnFrom = float(after[std::size_t(step.tokenId)]);
    if (settings.keepDistributions) {
        step.before = toFloat(before);
        step.after = toFloat(after);
    }
    return step;
}

void checkModel(const Model& model, const GenerationSettings& settings)
{
    settings.sampling.validate();
    if (settings.maxNewTokens < 1)
        throw Error("generation", "ask for at least one token (got " +
                                      std::to_string(settings.maxNewTokens) + ")");
    if (model.config().objective == Objective::None)
        throw Error("generation",
                    model.name.toStdString() + " has no language-model head: it predicts no token");
}

// Masked models: each step fills the [MASK] whose most likely token is the most probable.
Generation fillMasks(const std::shared_ptr<const Model>& model, Generation generation,
                     const Interventions& interventions, Backend& backend,
                     const GenerationSettings& settings, ForwardOptions options,
                     const GenerationCallback& onStep)
{
    const HfTokenizer& tokenizer = *model->tokenizer;
    Random random(settings.sampling.seed);
    generation.stop = GenerationStop::NoMask;
    for (int n = 0; n < settings.maxNewTokens; ++n) {
        if (options.cancel && options.cancel->load()) {
            generation.stop = GenerationStop::Cancelled;
            break;
        }
        std::shared_ptr<const ModelResult> result;
        try {
            result = runModel(model, generation.tokens, interventions, backend, options);
        } catch (const Cancelled&) {
            generation.stop = GenerationStop::Cancelled;
            break;
        }
        if (result->predictions.empty())
            break;
        const PositionPrediction* best = nullptr;
        for (const PositionPrediction& p : result->predictions)
            if (!p.top.empty() &&
                (!best || p.top.front().probability > best->top.front().probability))
                best = &p;
        if (!best)
            throw Error("generation: the model's logits are not finite numbers");
        GenerationStep step = choose(best->logits, idsOf(generation.tokens), settings, random);
        step.position = best->position;
        step.top = best->top;
        step.text = generatedToken(tokenizer, step.tokenId).text;
        if (settings.keepResults)
            step.result = result;
        generation.tokens[std::size_t(step.position)] = generatedToken(tokenizer, step.tokenId);
        generation.generated.push_back(step.tokenId);
        generation.steps.push_back(std::move(step));
        generation.continuation = tokenizer.decode(idsOf(generation.tokens));
        if (n + 1 == settings.maxNewTokens && result->predictions.size() > 1)
            generation.stop = GenerationStop::Length;
        if (onStep)
            onStep(generation);
    }
    generation.continuation = tokenizer.decode(idsOf(generation.tokens));
    return generation;
}

} // namespace

Token generatedToken(const HfTokenizer& tokenizer, int id)
{
    const bool named = id < tokenizer.vocabSize() && !tokenizer.pieceOf(id).isEmpty();
    Token token(named ? tokenizer.displayText(id) : QStringLiteral("[id %1]").arg(id), -1, 0);
    token.id = id;
    token.piece = named ? tokenizer.pieceOf(id) : QString();
    return token;
}

std::vector<int> eosTokenIds(const Model& model)
{
    if (model.folder.isEmpty())
        return {};
    // Read with the checkpoint's other generation settings (generation_config.json's wins).
    return model.config().generation.endTokens;
}

Generation generate(std::shared_ptr<const Model> model, const std::vector<Token>& prompt,
                    const Interventions& interventions, Backend& backend,
                    const GenerationSettings& settings, const ForwardOptions& options,
                    const GenerationCallback& onStep)
{
    checkModel(*model, settings);
    if (prompt.empty())
        throw Error("generation", "the prompt has no tokens");
    Generation generation;
    generation.prompt = prompt;
    generation.tokens = prompt;
    ForwardOptions forward = options;
    forward.topK = settings.alternatives;
    forward.logitsAtEveryPosition = false;
    if (model->config().objective == Objective::MaskedLm)
        return fillMasks(model, std::move(generation), interventions, backend, settings, forward,
                         onStep);

    const int context = std::min(kMaxTokens, model->config().maxPositions);
    const long long total = (long long)prompt.size() + settings.maxNewTokens;
    if (total > context)
        throw Error("generation",
                    "the prompt's " + std::to_string(prompt.size()) + " tokens and " +
                        std::to_string(settings.maxNewTokens) + " new ones make " +
                        std::to_string(total) + ", more than the model's context of " +
                        std::to_string(context) + " tokens" +
                        (int(prompt.size()) < context
                             ? "; ask for at most " + std::to_string(context - int(prompt.size()))
                             : std::string()));

    if (settings.useCache && !settings.keepResults)
        checkGenerationMemory(model->config(), int(prompt.size()), settings.maxNewTokens,
                              availableMemory());

    const HfTokenizer& tokenizer = *model->tokenizer;
    const std::vector<int> ends = settings.endTokens.value_or(eosTokenIds(*model));
    Random random(settings.sampling.seed);
    // The first step runs the whole prompt; with the cache, each later one only the token the
    // step before chose.
    std::unique_ptr<KvCache> cache;
    for (int n = 0; n < settings.maxNewTokens; ++n) {
        std::shared_ptr<const ModelResult> result;
        PositionPrediction next;
        try {
            if (options.cancel && options.cancel->load())
                throw Cancelled();
            if (cache) {
                next.logits =
                    cache->append({generation.tokens.back()}, backend.blockOps(), options.cancel);
                next.top = topPredictions(*model, next.logits, settings.alternatives);
                if (next.top.empty())
                    throw Error("generation", "the logits are not finite numbers");
            } else {
                result = runModel(model, generation.tokens, interventions, backend, forward);
                if (result->predictions.empty())
                    throw Error("generation: the model made no prediction");
                next = result->predictions.back();
                if (next.top.empty()) // the forward met non-finite values: its warning says where
                    throw Error("generation", result->warnings.empty()
                                                  ? "the logits are not finite numbers"
                                                  : result->warnings.back());
                if (settings.useCache && !settings.keepResults)
                    cache = KvCache::fromResult(*result);
            }
        } catch (const Cancelled&) {
            generation.stop = GenerationStop::Cancelled;
            break;
        }
        GenerationStep step = choose(next.logits, idsOf(generation.tokens), settings, random);
        step.position = int(generation.tokens.size());
        step.top = next.top;
        step.text = generatedToken(tokenizer, step.tokenId).text;
        if (settings.keepResults)
            step.result = result;
        generation.tokens.push_back(generatedToken(tokenizer, step.tokenId));
        generation.generated.push_back(step.tokenId);
        generation.steps.push_back(std::move(step));
        generation.continuation = continuationText(tokenizer, prompt, generation.generated);
        const bool end =
            std::find(ends.begin(), ends.end(), generation.generated.back()) != ends.end();
        const bool stopString = std::any_of(
            settings.stopStrings.begin(), settings.stopStrings.end(),
            [&](const QString& s) { return !s.isEmpty() && generation.continuation.contains(s); });
        if (onStep)
            onStep(generation);
        if (end || stopString) {
            generation.stop = end ? GenerationStop::EndToken : GenerationStop::StopString;
            break;
        }
    }
    return generation;
}

} // namespace attn::core
