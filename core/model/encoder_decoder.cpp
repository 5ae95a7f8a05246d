#include "core/model/encoder_decoder.h"

#include "core/error.h"
#include "core/model/decoder_cache.h"
#include "core/model/decoding_memory.h"
#include "core/model/kv_cache.h"
#include "core/model/model_loader.h"
#include "core/tokenizers/hf_tokenizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <utility>

namespace attn::core {
namespace encdec {

// Token embeddings (scaled where the family scales them) plus the side's learned positions
// (none for T5) from position `first` on, then the side's embedding norm: BartEncoder /
// BartDecoder before their first layer.
Matrix embedSide(const Model& model, const std::vector<Token>& tokens, const Matrix& positions,
                 const NormWeights& norm, const char* side, BlockOps& ops, int first)
{
    const TransformerWeights& w = model.weights;
    const int t = int(tokens.size());
    if (t == 0)
        throw Error(std::string(side) + ": no tokens");
    const bool learned = model.config().positions != PositionKind::RelativeBias;
    if (learned && first + t > positions.rows())
        throw Error(std::string(side) + ": " + std::to_string(first + t) +
                    " tokens, more than the " + std::to_string(positions.rows()) +
                    " positions the model has");
    checkTokenIds(model, tokens);
    Matrix x(t, w.config.dModel);
    for (int i = 0; i < t; ++i)
        x.row(i) = w.tokenEmbedding.row(tokens[std::size_t(i)].id);
    if (w.config.embeddingScale != 1.0f)
        x *= w.config.embeddingScale;
    if (learned)
        x += positions.middleRows(first, t);
    return norm.present() ? ops.norm(x, norm) : x;
}

// The encoder's bidirectional self-attention (no keys given) or a decoder layer's
// cross-attention (the source's tokens and the encoder's output as keys and values), with
// `edit`'s settings where one is given.
std::shared_ptr<const Problem>
attentionProblem(const ModelConfig& config, std::shared_ptr<const ModelWeights> weights,
                 const LayerEdit* edit, const std::vector<Token>& queries, const Matrix& x,
                 std::shared_ptr<const Matrix> bias, const std::vector<Token>* keys,
                 const Matrix* keyInput)
{
    auto p = std::make_shared<Problem>();
    p->queryTokens = queries;
    p->queryEmbedding = x;
    p->cross = keys != nullptr;
    p->keyTokens = keys ? *keys : queries;
    if (keys)
        p->keyEmbedding = *keyInput;
    const std::size_t tk = p->keyTokens.size();
    p->keyIsPadding.assign(tk, false);
    p->queryFallback.assign(queries.size(), false);
    p->keyFallback.assign(tk, false);
    p->weights = std::move(weights); // validated when loaded
    p->weightsValidated = true;
    // BartAttention: softmax(q k^T / sqrt(d_head)) (q_proj's output times head_dim^-0.5);
    // T5Attention: softmax(q k^T + position bias), unscaled.
    p->score = config.scaledScores ? ScoreKind::ScaledDot : ScoreKind::Dot;
    p->scoreBias = std::move(bias);
    p->normalization = Normalization::Softmax;
    p->temperature = 1.0f;
    p->fill = MaskFill::NegativeInfinity;
    p->mask.causal = false;
    if (edit) {
        p->score = edit->score.value_or(p->score);
        p->normalization = edit->normalization.value_or(p->normalization);
        p->temperature = edit->temperature.value_or(p->temperature);
        p->fill = edit->fill.value_or(p->fill);
        // A mask needs queries and keys of one sequence: the encoder's, not the cross-attention's.
        if (!keys)
            p->mask = edit->mask.value_or(p->mask);
    }
    p->validate();
    return p;
}

// The LayerEdit `interventions` hold for `layer`, or null.
const LayerEdit* layerEdit(const Interventions& interventions, std::size_t layer)
{
    const auto found = interventions.layers.find(int(layer));
    return found == interventions.layers.end() ? nullptr : &found->second;
}

// The language-model head on final hidden rows.
Matrix decoderLogits(const TransformerWeights& w, BlockOps& ops, Matrix rows)
{
    if (w.config.headInputScale != 1.0f) // T5 v1.0's tied head
        rows *= w.config.headInputScale;
    return ops.logits(rows, w.outputEmbedding(), w.lmBias);
}

void checkCancel(const ForwardOptions& options)
{
    if (options.cancel && options.cancel->load())
        throw Cancelled();
}

// Runs one attention on the backend and records its warnings under `where`.
std::shared_ptr<const AttentionResult> attend(Backend& backend,
                                              std::shared_ptr<const Problem> problem,
                                              const ComputeOptions& compute,
                                              const std::string& where, ModelResult& result)
{
    auto attention = backend.compute(std::move(problem), compute);
    for (const std::string& warning : attention->diagnostics.warnings)
        result.warnings.push_back(where + ": " + warning);
    return attention;
}

// A layer's weights of one kind with that kind's heads off and head edits; errors name the
// kind ("encoder: layer 1 head 9: ...").
std::shared_ptr<const ModelWeights> weightsOf(const char* kind,
                                              const std::shared_ptr<const ModelWeights>& weights,
                                              std::size_t layer, const Interventions& interventions)
{
    if (interventions.empty())
        return weights;
    try {
        return intervenedWeights(weights, int(layer), interventions);
    } catch (const Error& e) {
        throw Error(kind, e);
    }
}

Error noLanguageModelHead(const char* prefix, const Model& model)
{
    return Error(prefix + std::string("the checkpoint has no language-model head (") +
                 model.config().architecture.toStdString() + ")");
}

// The forward over `target` (ids), checked to end in finite logits; errors prefixed with `prefix`.
std::shared_ptr<const ModelResult> scoredForward(const char* prefix,
                                                 const std::shared_ptr<const Model>& model,
                                                 const std::vector<Token>& source,
                                                 const std::vector<int>& target,
                                                 const EncoderDecoderInterventions& interventions,
                                                 Backend& backend, const ForwardOptions& options)
{
    auto result = runEncoderDecoderWith(model, source, decoderTokens(*model, target), interventions,
                                        backend, options);
    if (result->predictions.empty())
        throw noLanguageModelHead(prefix, *model);
    if (!result->predictions.back().logits.allFinite())
        throw Error(prefix + std::string("step ") + std::to_string(target.size()) +
                    ": the logits are not all finite numbers");
    return result;
}

// The step that writes `id` after `result`'s target, with its softmax probability:
// exp(l_id - max) / sum_j exp(l_j - max), summed in double.
GreedyStep stepTo(std::shared_ptr<const ModelResult> result, int id)
{
    const RowVector& logits = result->predictions.back().logits;
    const float max = logits.maxCoeff();
    GreedyStep step;
    step.id = id;
    step.probability = float(std::exp(double(logits(id) - max)) /
                             (logits.array() - max).cast<double>().exp().sum());
    step.result = std::move(result);
    return step;
}

// The checkpoint's generation settings on one step's scores, as transformers' logits
// processors change them: banned tokens -inf (NoBadWordsLogitsProcessor); at the last step
// allowed every token -inf but the forced end tokens, those 0 (ForcedEOSTokenLogitsProcessor).
Eigen::VectorXd withSettings(Eigen::VectorXd scores, const CheckpointGeneration& generation,
                             bool lastStep)
{
    for (int id : generation.bannedTokens)
        if (id < scores.size())
            scores(id) = -INFINITY;
    if (lastStep && !generation.forcedEos.empty()) {
        scores.setConstant(-INFINITY);
        for (int id : generation.forcedEos)
            if (id < scores.size())
                scores(id) = 0.0;
    }
    return scores;
}

// The most likely token after `result`'s target (the first maximum: the lowest id among equals).
GreedyStep chooseNext(std::shared_ptr<const ModelResult> result, const Model& model, bool lastStep)
{
    Eigen::Index next = 0;
    withSettings(result->predictions.back().logits.transpose().cast<double>(),
                 model.config().generation, lastStep)
        .maxCoeff(&next);
    return stepTo(std::move(result), int(next));
}

// greedyStep, its errors prefixed with `prefix`; `lastStep`: the last one the length allows.
GreedyStep stepWith(const char* prefix, const std::shared_ptr<const Model>& model,
                    const std::vector<Token>& source, const std::vector<int>& target,
                    const EncoderDecoderInterventions& interventions, Backend& backend,
                    const ForwardOptions& options, bool lastStep = false)
{
    return chooseNext(scoredForward(prefix, model, source, target, interventions, backend, options),
                      *model, lastStep);
}

// The decoder's self-attention of layer l as layerProblem makes it (interventions applied),
// with the stack's relative position bias where the family has one.
std::shared_ptr<const Problem> decoderProblem(const Model& model, int l,
                                              const std::vector<Token>& target, const Matrix& x,
                                              const Interventions& interventions,
                                              const std::shared_ptr<const Matrix>& bias)
{
    auto problem = layerProblem(model, l, target, x, interventions);
    if (!bias)
        return problem;
    auto biased = std::make_shared<Problem>(*problem);
    biased->scoreBias = bias;
    biased->validate();
    return biased;
}

// The relative position bias of one stack's self-attention, null without relative positions.
std::shared_ptr<const Matrix> stackBias(const ModelConfig& config, const Matrix& table, int t,
                                        bool bidirectional)
{
    if (config.positions != PositionKind::RelativeBias)
        return nullptr;
    return std::make_shared<const Matrix>(
        relativePositionBias(table, t, t, bidirectional, config.relativeMaxDistance));
}

ComputeOptions computeOptions(const ForwardOptions& options)
{
    ComputeOptions compute;
    compute.keepIntermediates = options.keepIntermediates;
    compute.cancel = options.cancel;
    return compute;
}

// The encoder over `source`: its layers' results, their warnings and its output into `result`.
void encode(const Model& model, const std::vector<Token>& source,
            const Interventions& interventions, Backend& backend, const ForwardOptions& options,
            ModelResult& result)
{
    const TransformerWeights& w = model.weights;
    const ModelConfig& config = w.config;
    BlockOps& ops = backend.blockOps();
    const bool pre = config.placement == NormPlacement::Pre;
    const ComputeOptions compute = computeOptions(options);
    Matrix x =
        embedSide(model, source, w.encoderPositionEmbedding, w.encoderEmbeddingNorm, "source", ops);
    const auto encoderBias = stackBias(config, w.encoderRelativeBias, int(source.size()), true);
    for (std::size_t l = 0; l < w.encoderLayers.size(); ++l) {
        checkCancel(options);
        const TransformerLayer& layer = w.encoderLayers[l];
        x = residual(ops, pre, x, layer.attentionNorm, [&](const Matrix& in) {
            auto a = attend(
                backend,
                attentionProblem(config, weightsOf("encoder", layer.attention, l, interventions),
                                 layerEdit(interventions, l), source, in, encoderBias),
                compute, "encoder layer " + std::to_string(l + 1), result);
            Matrix out = a->output;
            result.encoderLayers.push_back(std::move(a));
            return out;
        });
        x = residual(ops, pre, x, layer.feedForwardNorm,
                     [&](const Matrix& in) { return ops.feedForward(in, layer.feedForward); });
    }
    result.encoderOutput = w.encoderFinalNorm.present() ? ops.norm(x, w.encoderFinalNorm) : x;
}

} // namespace encdec

using namespace encdec;

int relativePositionBucket(int relative, bool bidirectional, int buckets, int maxDistance)
{
    int bucket = 0;
    int n = buckets;
    int distance = 0;
    if (bidirectional) {
        n /= 2;
        if (relative > 0)
            bucket += n;
        distance = std::abs(relative);
    } else {
        distance = std::max(-relative, 0);
    }
    const int exact = n / 2;
    if (distance < exact)
        return bucket + distance;
    // exact + log(distance / exact) / log(maxDistance / exact) * (n - exact), truncated: the
    // quotient in float32 as torch computes it, the divisor a Python float (double) rounded.
    const float divisor = float(std::log(double(maxDistance) / double(exact)));
    const float scaled = std::log(float(distance) / float(exact)) / divisor * float(n - exact);
    return bucket + std::min(exact + int(scaled), n - 1);
}

Matrix relativePositionBias(const Matrix& table, int tq, int tk, bool bidirectional,
                            int maxDistance, int firstQuery)
{
    const int buckets = int(table.rows());
    const int heads = int(table.cols());
    Matrix bias(Eigen::Index(heads) * tq, tk);
    for (int i = 0; i < tq; ++i) {
        for (int j = 0; j < tk; ++j) {
            const int b =
                relativePositionBucket(j - i - firstQuery, bidirectional, buckets, maxDistance);
            for (int h = 0; h < heads; ++h)
                bias(Eigen::Index(h) * tq + i, j) = table(b, h);
        }
    }
    return bias;
}

std::vector<Token> decoderTokens(const Model& model, const std::vector<int>& ids)
{
    const HfTokenizer& tokenizer = *model.tokenizer;
    std::vector<Token> tokens;
    for (int id : ids) {
        const bool named = id >= 0 && id < tokenizer.vocabSize();
        Token token(named ? tokenizer.displayText(id) : QStringLiteral("[id %1]").arg(id), -1, 0);
        token.id = id;
        token.piece = named ? tokenizer.pieceOf(id) : QString();
        tokens.push_back(std::move(token));
    }
    return tokens;
}

std::shared_ptr<const ModelResult>
runEncoderDecoder(std::shared_ptr<const Model> model, const std::vector<Token>& source,
                  const std::vector<Token>& target, const Interventions& interventions,
                  Backend& backend, const ForwardOptions& options)
{
    EncoderDecoderInterventions all;
    all.decoder = interventions;
    return runEncoderDecoderWith(std::move(model), source, target, all, backend, options);
}

std::shared_ptr<const ModelResult>
runEncoderDecoderWith(std::shared_ptr<const Model> model, const std::vector<Token>& source,
                      const std::vector<Token>& target,
                      const EncoderDecoderInterventions& interventions, Backend& backend,
                      const ForwardOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    const TransformerWeights& w = model->weights;
    if (!w.config.encoderDecoder())
        throw Error("the model is not an encoder-decoder model");
    BlockOps& ops = backend.blockOps();
    const bool pre = w.config.placement == NormPlacement::Pre;
    auto result = std::make_shared<ModelResult>();
    result->model = model;
    result->tokens = target;
    result->sourceTokens = source;
    result->interventions = interventions.decoder;
    const ComputeOptions compute = computeOptions(options);
    encode(*model, source, interventions.encoder, backend, options, *result);

    const ModelConfig& config = w.config;
    Matrix y = embedSide(*model, target, w.positionEmbedding, w.embeddingNorm, "target", ops);
    result->hidden.push_back(y);
    const auto decoderBias = stackBias(config, w.relativeBias, int(target.size()), false);
    for (std::size_t l = 0; l < w.layers.size(); ++l) {
        checkCancel(options);
        const std::string where = "decoder layer " + std::to_string(l + 1);
        auto self = [&](const Matrix& in) {
            auto a = attend(
                backend,
                decoderProblem(*model, int(l), target, in, interventions.decoder, decoderBias),
                compute, where, *result);
            Matrix out = a->output;
            result->layers.push_back(std::move(a));
            return out;
        };
        auto cross = [&](const Matrix& in) {
            auto a =
                attend(backend,
                       attentionProblem(config,
                                        weightsOf("cross-attention", w.layers[l].crossAttention, l,
                                                  interventions.cross),
                                        layerEdit(interventions.cross, l), target, in, nullptr,
                                        &source, &result->encoderOutput),
                       compute, where + " cross-attention", *result);
            Matrix out = a->output;
            result->crossLayers.push_back(std::move(a));
            return out;
        };
        y = decoderLayer(ops, pre, w.layers[l], y, self, cross);
        result->hidden.push_back(y);
    }
    result->finalHidden = w.finalNorm.present() ? ops.norm(y, w.finalNorm) : y;

    if (w.hasLanguageModelHead()) {
        const int last = int(target.size()) - 1;
        Matrix logits = decoderLogits(w, ops,
                                      options.logitsAtEveryPosition
                                          ? result->finalHidden
                                          : Matrix(result->finalHidden.bottomRows(1)));
        PositionPrediction prediction;
        prediction.position = last;
        prediction.logits = logits.bottomRows(1);
        if (prediction.logits.allFinite())
            prediction.top = topPredictions(*model, prediction.logits, options.topK);
        else
            result->warnings.push_back("position " + std::to_string(last + 1) +
                                       ": some logits are not finite numbers");
        result->predictions.push_back(std::move(prediction));
        if (options.logitsAtEveryPosition)
            result->allLogits = std::move(logits);
    }
    result->backend = backend.name();
    result->device = backend.deviceName();
    result->milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

namespace {

GreedyDecoding decode(const char* prefix, const std::shared_ptr<const Model>& model,
                      const std::vector<Token>& source, int maxNewTokens,
                      const EncoderDecoderInterventions& interventions, Backend& backend,
                      const ForwardOptions& options,
                      const std::function<void(const GreedyStep&)>& onStep)
{
    const ModelConfig& config = model->config();
    if (!model->weights.hasLanguageModelHead())
        throw noLanguageModelHead(prefix, *model);
    checkDecodingMemory(config, int(source.size()), maxNewTokens, 1, availableMemory(), prefix);
    std::vector<int> ids{config.decoderStartToken};
    GreedyDecoding decoding;
    // Only the last forward's intermediates are kept; the steps before need the logits alone.
    ForwardOptions step = options;
    step.keepIntermediates = false;
    std::optional<DecoderCache> cache;
    DecoderCache::Hypothesis hypothesis;
    if (DecoderCache::applies(interventions, options)) {
        cache.emplace(model, source, interventions, backend, step, prefix);
        hypothesis = cache->empty();
    }
    const int longest = decodedLength(config, maxNewTokens);
    while (int(decoding.generated.size()) < longest) {
        const bool last = int(decoding.generated.size()) + 1 == longest;
        GreedyStep next =
            cache ? chooseNext(cache->extend(hypothesis, ids.back(),
                                             decoding.steps.empty()
                                                 ? nullptr
                                                 : decoding.steps.back().result.get()),
                               *model, last)
                  : stepWith(prefix, model, source, ids, interventions, backend, step, last);
        decoding.generated.push_back(next.id);
        ids.push_back(next.id);
        decoding.steps.push_back(std::move(next));
        if (onStep)
            onStep(decoding.steps.back());
        if (ids.back() == config.eosToken)
            break;
    }
    decoding.result = runEncoderDecoderWith(model, source, decoderTokens(*model, ids),
                                            interventions, backend, options);
    return decoding;
}

} // namespace

GreedyStep greedyStep(const std::shared_ptr<const Model>& model, const std::vector<Token>& source,
                      const std::vector<int>& target,
                      const EncoderDecoderInterventions& interventions, Backend& backend,
                      const ForwardOptions& options)
{
    return stepWith("", model, source, target, interventions, backend, options);
}

GreedyDecoding decodeGreedily(const std::shared_ptr<const Model>& model,
                              const std::vector<Token>& source, int maxNewTokens,
                              const Interventions& interventions, Backend& backend,
                              const ForwardOptions& options)
{
    EncoderDecoderInterventions all;
    all.decoder = interventions;
    return decode("--generate: ", model, source, maxNewTokens, all, backend, options, {});
}

GreedyDecoding decodeGreedilyWith(const std::shared_ptr<const Model>& model,
                                  const std::vector<Token>& source, int maxNewTokens,
                                  const EncoderDecoderInterventions& interventions,
                                  Backend& backend, const ForwardOptions& options,
                                  const std::function<void(const GreedyStep&)>& onStep)
{
    return decode("", model, source, maxNewTokens, interventions, backend, options, onStep);
}

BeamDecoding decodeWithBeams(const std::shared_ptr<const Model>& model,
                             const std::vector<Token>& source, int maxNewTokens, int beams,
                             const EncoderDecoderInterventions& interventions, Backend& backend,
                             const ForwardOptions& options,
                             const std::function<void(const GreedyStep&)>& onStep)
{
    const ModelConfig& config = model->config();
    if (!model->weights.hasLanguageModelHead())
        throw noLanguageModelHead("", *model);
    // The steps read the logits alone; the chosen hypothesis' last forward keeps what was asked.
    ForwardOptions scoring = options;
    scoring.keepIntermediates = false;
    checkDecodingMemory(config, int(source.size()), maxNewTokens, beams, availableMemory());
    const int longest = decodedLength(config, maxNewTokens);
    std::optional<DecoderCache> cache;
    if (DecoderCache::applies(interventions, options))
        cache.emplace(model, source, interventions, backend, scoring, "");
    // The hypotheses scored at the step before, by their tokens: a hypothesis continues from a
    // copy of its parent's keys and values (its tokens but the last).
    std::map<std::vector<int>, DecoderCache::Hypothesis> parents;
    auto logits = [&](const std::vector<std::vector<int>>& prefixes) -> Matrix {
        if (!cache) {
            std::vector<RowVector> rows;
            for (const std::vector<int>& ids : prefixes) {
                std::vector<int> target{config.decoderStartToken};
                target.insert(target.end(), ids.begin(), ids.end());
                rows.push_back(
                    scoredForward("", model, source, target, interventions, backend, scoring)
                        ->predictions.back()
                        .logits);
            }
            Matrix all(Eigen::Index(rows.size()), rows.front().size());
            for (std::size_t i = 0; i < rows.size(); ++i)
                all.row(Eigen::Index(i)) = rows[i];
            return all;
        }
        std::vector<int> next;
        for (const std::vector<int>& ids : prefixes)
            next.push_back(ids.empty() ? config.decoderStartToken : ids.back());
        std::vector<DecoderCache::Hypothesis> hypotheses;
        for (const std::vector<int>& ids : prefixes)
            hypotheses.push_back(ids.empty()
                                     ? cache->empty()
                                     : parents.at(std::vector<int>(ids.begin(), ids.end() - 1)));
        std::vector<DecoderCache::Hypothesis*> each;
        for (DecoderCache::Hypothesis& h : hypotheses)
            each.push_back(&h);
        Matrix all = cache->append(each, next);
        parents.clear();
        for (std::size_t i = 0; i < prefixes.size(); ++i)
            parents.emplace(prefixes[i], std::move(hypotheses[i]));
        return all;
    };
    BeamDecoding decoding;
    decoding.search = beamSearchOfAll(
        beams, longest, config.eosToken, [&](const std::vector<std::vector<int>>& prefixes) {
            const Matrix all = logits(prefixes);
            std::vector<Eigen::VectorXd> scores;
            for (std::size_t i = 0; i < prefixes.size(); ++i)
                scores.push_back(withSettings(logSoftmax(all.row(Eigen::Index(i))),
                                              config.generation,
                                              int(prefixes[i].size()) + 1 == longest));
            return scores;
        });
    parents.clear();
    const std::vector<int>& chosen = decoding.search.best.ids;
    std::vector<int> target{config.decoderStartToken};
    DecoderCache::Hypothesis h = cache ? cache->empty() : DecoderCache::Hypothesis{};
    for (int id : chosen) {
        decoding.chosen.steps.push_back(stepTo(
            cache ? cache->extend(h, target.back(),
                                  decoding.chosen.steps.empty()
                                      ? nullptr
                                      : decoding.chosen.steps.back().result.get())
                  : scoredForward("", model, source, target, interventions, backend, scoring),
            id));
        if (onStep)
            onStep(decoding.chosen.steps.back());
        target.push_back(id);
    }
    decoding.chosen.generated = chosen;
    decoding.chosen.result = runEncoderDecoderWith(model, source, decoderTokens(*model, target),
                                                   interventions, backend, options);
    return decoding;
}

} // namespace attn::core
