#include "forward.h"

#include "core/diagnostics.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/model/encoder_decoder.h"
#include "core/model/model_loader.h"
#include "core/tokenizers/hf_tokenizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <optional>

namespace attn::core {
namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The positions whose tokens the head predicts.
std::vector<int> predictedPositions(const Model& model, const std::vector<Token>& tokens)
{
    std::vector<int> positions;
    switch (model.config().objective) {
    case Objective::CausalLm:
        positions.push_back(int(tokens.size()) - 1);
        break;
    case Objective::MaskedLm: {
        const std::optional<int> mask = model.tokenizer->maskTokenId();
        for (int i = 0; i < int(tokens.size()); ++i)
            if (mask && tokens[std::size_t(i)].id == *mask)
                positions.push_back(i);
        break;
    }
    case Objective::None:
        break;
    }
    return positions;
}

} // namespace

// The k most likely tokens of one row of logits, with softmax probabilities over the whole
// vocabulary (computed in double; the row maximum subtracted first).
std::vector<Prediction> topPredictions(const Model& model, const RowVector& logits, int k)
{
    std::vector<int> ids;
    ids.reserve(std::size_t(logits.size()));
    double max = -INFINITY;
    for (int id = 0; id < int(logits.size()); ++id) {
        if (std::isfinite(logits(id))) {
            ids.push_back(id);
            max = std::max(max, double(logits(id)));
        }
    }
    double sum = 0.0;
    for (int id : ids)
        sum += std::exp(double(logits(id)) - max);
    const std::size_t shown = std::min(ids.size(), std::size_t(std::max(0, k)));
    std::partial_sort(
        ids.begin(), ids.begin() + std::ptrdiff_t(shown), ids.end(),
        [&](int a, int b) { return logits(a) > logits(b) || (logits(a) == logits(b) && a < b); });
    std::vector<Prediction> top;
    const HfTokenizer& tokenizer = *model.tokenizer;
    for (std::size_t n = 0; n < shown; ++n) {
        Prediction p;
        p.id = ids[n];
        // A checkpoint may have more embedding rows than its tokenizer has tokens (Qwen2 pads
        // its vocabulary to a multiple of 64): such ids have no text.
        const bool named = p.id < tokenizer.vocabSize() && !tokenizer.pieceOf(p.id).isEmpty();
        p.piece = named ? tokenizer.pieceOf(p.id) : QString();
        p.text = named ? tokenizer.displayText(p.id) : QStringLiteral("[id %1]").arg(p.id);
        p.logit = logits(p.id);
        p.probability = float(std::exp(double(p.logit) - max) / sum);
        top.push_back(std::move(p));
    }
    return top;
}

std::shared_ptr<const ModelWeights>
intervenedWeights(const std::shared_ptr<const ModelWeights>& weights, int layer,
                  const Interventions& interventions)
{
    std::shared_ptr<ModelWeights> edited;
    auto edit = [&]() -> ModelWeights& {
        if (!edited)
            edited = std::make_shared<ModelWeights>(*weights);
        return *edited;
    };
    const std::string where = "layer " + std::to_string(layer + 1) + " head ";
    for (const auto& [l, h] : interventions.headsOff) {
        if (l != layer)
            continue;
        if (h < 0 || h >= weights->headCount())
            throw Error(where + std::to_string(h + 1) + ": the layer has " +
                        std::to_string(weights->headCount()) + " heads");
        edit().heads[std::size_t(h)].enabled = false;
    }
    const auto found = interventions.layers.find(layer);
    if (found != interventions.layers.end()) {
        for (const auto& [h, headEdit] : found->second.heads) {
            if (h < 0 || h >= weights->headCount())
                throw Error(where + std::to_string(h + 1) + ": the layer has " +
                            std::to_string(weights->headCount()) + " heads");
            HeadWeights& head = edit().heads[std::size_t(h)];
            if (headEdit.Wq)
                head.Wq = *headEdit.Wq;
            if (headEdit.Wk)
                head.Wk = *headEdit.Wk;
            if (headEdit.Wv)
                head.Wv = *headEdit.Wv;
        }
    }
    if (!edited)
        return weights;
    try {
        edited->validate();
    } catch (const Error& e) {
        throw Error("layer " + std::to_string(layer + 1), e);
    }
    return edited;
}

Matrix embed(const Model& model, const std::vector<Token>& tokens, BlockOps& ops, int firstPosition)
{
    const TransformerWeights& w = model.weights;
    const int t = int(tokens.size());
    Matrix x(t, w.config.dModel);
    checkTokenIds(model, tokens);
    for (int i = 0; i < t; ++i)
        x.row(i) = w.tokenEmbedding.row(tokens[std::size_t(i)].id);
    if (w.config.embeddingScale != 1.0f)
        x *= w.config.embeddingScale;
    if (w.config.positions == PositionKind::Learned)
        x += w.positionEmbedding.middleRows(firstPosition, t);
    if (w.tokenTypeEmbedding.size())
        x.rowwise() += w.tokenTypeEmbedding.row(0); // one sentence: segment A throughout
    return w.embeddingNorm.present() ? ops.norm(x, w.embeddingNorm) : x;
}

Matrix attentionInput(const TransformerWeights& w, int layer, BlockOps& ops, const Matrix& x)
{
    return w.config.placement == NormPlacement::Pre
               ? ops.norm(x, w.layers[std::size_t(layer)].attentionNorm)
               : x;
}

Matrix finishLayer(const TransformerWeights& w, int layer, BlockOps& ops, const Matrix& x,
                   const Matrix& attentionOutput)
{
    const TransformerLayer& weights = w.layers[std::size_t(layer)];
    const bool pre = w.config.placement == NormPlacement::Pre;
    Matrix h = x + attentionOutput;
    if (!pre)
        h = ops.norm(h, weights.attentionNorm);
    Matrix f;
    if (w.config.parallelResidual) // GPT-NeoX, Phi: both branches read the block's input
        f = ops.feedForward(w.config.sharedBlockNorm ? attentionInput(w, layer, ops, x)
                                                     : ops.norm(x, weights.feedForwardNorm),
                            weights.feedForward);
    else
        f = ops.feedForward(pre ? ops.norm(h, weights.feedForwardNorm) : h, weights.feedForward);
    f += h;
    if (!pre)
        f = ops.norm(f, weights.feedForwardNorm);
    return f;
}

Matrix finalNorm(const TransformerWeights& w, BlockOps& ops, const Matrix& hidden)
{
    return w.finalNorm.present() ? ops.norm(hidden, w.finalNorm) : hidden;
}

Matrix headLogits(const TransformerWeights& w, BlockOps& ops, Matrix rows)
{
    if (w.headTransform.dense.present()) {
        rows = ops.dense(rows, w.headTransform.dense, w.headTransform.activation);
        rows = ops.norm(rows, w.headTransform.norm);
    }
    return ops.logits(rows, w.outputEmbedding(), w.lmBias);
}

std::vector<Token> modelTokens(const Model& model, const QString& text)
{
    if (text.trimmed().isEmpty())
        throw Error("text", "the sentence is empty");
    const ModelConfig& config = model.config();
    // Learned positions end at the table's last row; rotary models are limited to the context
    // they were trained for, where their attention is meaningful.
    const int limit = std::min(kMaxTokens, config.maxPositions);
    std::vector<Token> tokens = model.tokenizer->encode(text, true, limit);
    if (tokens.empty())
        throw Error("text", "the sentence has no tokens");
    checkTokenIds(model, tokens);
    return tokens;
}

void checkTokenIds(const Model& model, const std::vector<Token>& tokens)
{
    const Eigen::Index rows = model.weights.tokenEmbedding.rows();
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const int id = tokens[i].id;
        if (id < 0 || id >= rows)
            throw Error("token " + std::to_string(i + 1) + " ('" + tokens[i].piece.toStdString() +
                        "'): id " + std::to_string(id) + " is outside the model's " +
                        std::to_string(rows) + "-row embedding");
    }
}

std::shared_ptr<const Problem> layerProblem(const Model& model, int layer,
                                            const std::vector<Token>& tokens, const Matrix& x,
                                            const Interventions& interventions)
{
    const ModelConfig& config = model.config();
    if (layer < 0 || layer >= int(model.weights.layers.size()))
        throw Error("layer " + std::to_string(layer + 1) + ": the model has " +
                    std::to_string(model.weights.layers.size()) + " layers");
    const int t = int(tokens.size());
    auto p = std::make_shared<Problem>();
    p->queryTokens = tokens;
    p->keyTokens = tokens;
    // X is the layer's normalised input; positions are already in it (learned) or enter as
    // the rotary step (RotarySpec), never as a second addition: the problem has no position
    // matrices, and self-attention no key-side copy of X.
    p->queryEmbedding = x;
    p->keyIsPadding.assign(std::size_t(t), false);
    p->queryFallback.assign(std::size_t(t), false);
    p->keyFallback.assign(std::size_t(t), false);
    // Validated when loaded, or when intervenedWeights edited them.
    p->weights =
        intervenedWeights(model.weights.layers[std::size_t(layer)].attention, layer, interventions);
    p->weightsValidated = true;
    // Every family here normalises with softmax, and scores by the scaled dot product but T5
    // (unscaled); masked cells get the most negative float in transformers, which weighs
    // exactly 0 like -inf.
    p->score = config.scaledScores ? ScoreKind::ScaledDot : ScoreKind::Dot;
    p->normalization = Normalization::Softmax;
    p->temperature = 1.0f;
    p->fill = MaskFill::NegativeInfinity;
    p->mask.causal = config.causal;
    if (config.slidingWindow && config.causal) {
        // Mistral: query i sees keys i - W + 1 .. i.
        p->mask.window = *config.slidingWindow - 1;
        p->mask.windowCausal = true;
    }
    if (config.positions == PositionKind::Rotary)
        p->rotary.inverseFrequencies = config.ropeInverseFrequencies;

    const auto found = interventions.layers.find(layer);
    if (found != interventions.layers.end()) {
        const LayerEdit& edit = found->second;
        p->score = edit.score.value_or(p->score);
        p->normalization = edit.normalization.value_or(p->normalization);
        p->temperature = edit.temperature.value_or(p->temperature);
        p->mask = edit.mask.value_or(p->mask);
        p->fill = edit.fill.value_or(p->fill);
    }
    p->validate();
    return p;
}

std::shared_ptr<const ModelResult> runModel(std::shared_ptr<const Model> model,
                                            const std::vector<Token>& tokens,
                                            const Interventions& interventions, Backend& backend,
                                            const ForwardOptions& options,
                                            std::shared_ptr<const ModelResult> previous)
{
    // An encoder-decoder model reads the tokens as its source and decodes one step.
    if (model->config().encoderDecoder())
        return runEncoderDecoder(model, tokens,
                                 decoderTokens(*model, {model->config().decoderStartToken}),
                                 interventions, backend, options);
    const auto start = Clock::now();
    const TransformerWeights& w = model->weights;
    const int layerCount = int(w.layers.size());
    BlockOps& ops = backend.blockOps();
    auto result = std::make_shared<ModelResult>();
    result->model = model;
    result->tokens = tokens;
    result->interventions = interventions;

    // Layers below the first changed one are the previous run's, unchanged.
    int first = 0;
    // (A layer with every intermediate serves a run that wants fewer, not the other way.)
    if (previous && previous->model == model && previous->tokens == tokens &&
        int(previous->layers.size()) == layerCount && layerCount > 0 &&
        (previous->layers.front()->intermediatesKept || !options.keepIntermediates))
        first = interventions.firstDifference(previous->interventions, layerCount);
    result->firstComputedLayer = first;
    if (first > 0) {
        result->layers.assign(previous->layers.begin(), previous->layers.begin() + first);
        result->hidden.assign(previous->hidden.begin(), previous->hidden.begin() + first + 1);
    } else {
        auto stage = Clock::now();
        result->hidden.push_back(embed(*model, tokens, ops));
        result->stages.push_back({"embeddings", millisecondsSince(stage)});
    }

    // The first layer whose attention met a NaN or infinity. Past it the numbers depend on how
    // a backend orders its sums (score products past 3.4e38 of both signs: +inf + -inf is NaN,
    // while a fused multiply-add chain that is already -inf stays -inf), so that layer alone
    // is reported and no prediction is made: the same outcome on every backend.
    std::optional<int> overflow;
    for (int l = 0; l < first && !overflow; ++l) {
        const Diagnostics& d = result->layers[std::size_t(l)]->diagnostics;
        if (d.nonFinite) { // said again: a reused layer's warnings are not repeated otherwise
            overflow = l;
            result->warnings.push_back("layer " + std::to_string(l + 1) + ": " +
                                       nonFiniteWarning(d.nonFiniteWhere));
        }
    }

    ComputeOptions compute;
    compute.keepIntermediates = options.keepIntermediates;
    compute.cancel = options.cancel; // a long sentence's layer stops between blocks of rows too
    double attentionMs = 0.0;
    double blockMs = 0.0;
    for (int l = first; l < layerCount; ++l) {
        if (options.cancel && options.cancel->load())
            throw Cancelled();
        const Matrix& x = result->hidden.back();

        auto stage = Clock::now();
        const Matrix input = attentionInput(w, l, ops, x);
        blockMs += millisecondsSince(stage);
        stage = Clock::now();
        auto attention =
            backend.compute(layerProblem(*model, l, tokens, input, interventions), compute);
        attentionMs += millisecondsSince(stage);

        stage = Clock::now();
        Matrix f = finishLayer(w, l, ops, x, attention->output);
        blockMs += millisecondsSince(stage);

        const Diagnostics& d = attention->diagnostics;
        for (const std::string& warning : d.warnings)
            if (!(overflow && d.nonFinite && warning == nonFiniteWarning(d.nonFiniteWhere)))
                result->warnings.push_back("layer " + std::to_string(l + 1) + ": " + warning);
        if (d.nonFinite && !overflow)
            overflow = l;
        result->layers.push_back(std::move(attention));
        result->hidden.push_back(std::move(f));
    }
    result->stages.push_back({"attention", attentionMs});
    result->stages.push_back({"norms + feed-forward", blockMs});

    auto stage = Clock::now();
    result->finalHidden = finalNorm(w, ops, result->hidden.back());
    const std::vector<int> positions = predictedPositions(*model, tokens);
    const bool every = options.logitsAtEveryPosition && w.hasLanguageModelHead();
    if (!positions.empty() || every) {
        // The head's input rows: every position, or only the predicted ones.
        Matrix rows(every ? result->finalHidden.rows() : Eigen::Index(positions.size()),
                    result->finalHidden.cols());
        if (every)
            rows = result->finalHidden;
        else
            for (std::size_t n = 0; n < positions.size(); ++n)
                rows.row(Eigen::Index(n)) = result->finalHidden.row(positions[n]);
        Matrix logits = headLogits(w, ops, rows);
        for (std::size_t n = 0; n < positions.size(); ++n) {
            PositionPrediction prediction;
            prediction.position = positions[n];
            prediction.logits = logits.row(every ? positions[n] : Eigen::Index(n));
            const std::string where = "position " + std::to_string(positions[n] + 1);
            if (overflow)
                result->warnings.push_back(
                    where + ": no prediction: the forward met non-finite values in layer " +
                    std::to_string(*overflow + 1));
            else
                prediction.top = topPredictions(*model, prediction.logits, options.topK);
            if (!overflow && !prediction.logits.allFinite())
                result->warnings.push_back(where + ": some logits are not finite numbers");
            result->predictions.push_back(std::move(prediction));
        }
        if (every)
            result->allLogits = std::move(logits);
    }
    result->stages.push_back({"logits", millisecondsSince(stage)});

    result->backend = backend.name();
    result->device = backend.deviceName();
    result->milliseconds = millisecondsSince(start);
    return result;
}

} // namespace attn::core
