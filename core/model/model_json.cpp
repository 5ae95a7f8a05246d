#include "model_json.h"

#include "core/json_numbers.h"
#include "core/model/model_loader.h"
#include "core/result_json.h"

#include <QJsonArray>

namespace attn::core {
namespace {

QJsonArray predictionsToJson(const std::vector<Prediction>& top)
{
    QJsonArray array;
    for (const Prediction& p : top)
        array.append(QJsonObject{{QStringLiteral("id"), p.id},
                                 {QStringLiteral("token"), p.text},
                                 {QStringLiteral("piece"), p.piece},
                                 {QStringLiteral("logit"), jsonNumber(p.logit)},
                                 {QStringLiteral("probability"), jsonNumber(p.probability)}});
    return array;
}

QJsonArray layersToJson(const std::vector<std::shared_ptr<const AttentionResult>>& layers)
{
    QJsonArray array;
    for (std::size_t l = 0; l < layers.size(); ++l) {
        const AttentionResult& layer = *layers[l];
        array.append(QJsonObject{{QStringLiteral("layer"), int(l) + 1},
                                 {QStringLiteral("settings"), settingsToJson(*layer.problem)},
                                 {QStringLiteral("heads"), headsToJson(layer)}});
    }
    return array;
}

} // namespace

std::int64_t modelDumpNumbers(const ModelResult& result)
{
    std::int64_t numbers = 0;
    auto add = [&numbers](const Matrix& m) { numbers += std::int64_t(m.size()); };
    for (const auto* kind : {&result.layers, &result.encoderLayers, &result.crossLayers}) {
        for (const auto& layer : *kind) {
            for (const HeadResult& head : layer->heads) {
                for (const Matrix* m :
                     {&head.Q, &head.K, &head.V, &head.rotatedQ, &head.rotatedK, &head.weights,
                      &head.output, &head.rawScores, &head.scaledScores, &head.maskedScores})
                    add(*m);
            }
        }
    }
    for (const PositionPrediction& p : result.predictions)
        numbers += p.logits.size();
    return numbers;
}

QJsonObject modelResultToJson(const ModelResult& result)
{
    const Model& model = *result.model;
    const ModelConfig& config = model.config();
    QJsonArray ids;
    QJsonArray tokens;
    for (const Token& token : result.tokens) {
        ids.append(token.id);
        tokens.append(token.text);
    }
    const QJsonArray layers = layersToJson(result.layers);

    // A causal model predicts the next token: one array of logits. A masked model predicts
    // each [MASK]: one object per position.
    QJsonValue logits;
    QJsonValue topK;
    if (config.objective == Objective::CausalLm && !result.predictions.empty()) {
        logits = jsonRow(result.predictions.front().logits);
        topK = predictionsToJson(result.predictions.front().top);
    } else {
        QJsonArray perPosition;
        QJsonArray topPerPosition;
        for (const PositionPrediction& p : result.predictions) {
            perPosition.append(QJsonObject{{QStringLiteral("position"), p.position},
                                           {QStringLiteral("logits"), jsonRow(p.logits)}});
            topPerPosition.append(QJsonObject{{QStringLiteral("position"), p.position},
                                              {QStringLiteral("top"), predictionsToJson(p.top)}});
        }
        logits = perPosition;
        topK = topPerPosition;
    }

    QJsonArray headsOff;
    for (const auto& [l, h] : result.interventions.headsOff)
        headsOff.append(QJsonArray{l + 1, h + 1});
    QJsonArray warnings;
    for (const std::string& warning : result.warnings)
        warnings.append(QString::fromStdString(warning));
    QJsonArray stages;
    for (const StageTime& stage : result.stages)
        stages.append(QJsonObject{{QStringLiteral("stage"), QString::fromStdString(stage.stage)},
                                  {QStringLiteral("milliseconds"), stage.milliseconds}});

    QJsonObject dump{
        {QStringLiteral("format"), QStringLiteral("attention-explorer-dump")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("backend"), QString::fromStdString(result.backend)},
        {QStringLiteral("device"), QString::fromStdString(result.device)},
        {QStringLiteral("model"),
         QJsonObject{{QStringLiteral("name"), model.name},
                     {QStringLiteral("folder"), model.folder},
                     {QStringLiteral("family"), QString::fromUtf8(toString(config.family))},
                     {QStringLiteral("architecture"), config.architecture},
                     {QStringLiteral("layers"), config.layers},
                     {QStringLiteral("heads"), config.heads},
                     {QStringLiteral("kvHeads"), config.kvHeads},
                     {QStringLiteral("d_model"), config.dModel},
                     {QStringLiteral("vocab"), config.vocab},
                     {QStringLiteral("dtype"), config.dtype}}},
        {QStringLiteral("tokenIds"), ids},
        {QStringLiteral("tokens"), tokens},
        {QStringLiteral("headsOff"), headsOff},
        {QStringLiteral("layers"), layers},
        {QStringLiteral("logits"), logits},
        {QStringLiteral("topK"), topK},
        {QStringLiteral("milliseconds"), result.milliseconds},
        {QStringLiteral("stages"), stages},
        {QStringLiteral("warnings"), warnings},
    };
    if (config.encoderDecoder()) {
        // The source the encoder read; `tokenIds`, `tokens` and `layers` are the decoder's.
        QJsonArray sourceIds;
        QJsonArray sourceTokens;
        for (const Token& token : result.sourceTokens) {
            sourceIds.append(token.id);
            sourceTokens.append(token.text);
        }
        dump.insert(QStringLiteral("sourceIds"), sourceIds);
        dump.insert(QStringLiteral("sourceTokens"), sourceTokens);
        dump.insert(QStringLiteral("encoderLayers"), layersToJson(result.encoderLayers));
        dump.insert(QStringLiteral("decoderLayers"), layers);
        dump.insert(QStringLiteral("crossLayers"), layersToJson(result.crossLayers));
    }
    return dump;
}

} // namespace attn::core
