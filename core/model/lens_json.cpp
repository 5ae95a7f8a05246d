#include "lens_json.h"

#include "core/json_numbers.h"

namespace attn::core {

QJsonArray logitLensToJson(const LogitLens& lens)
{
    QJsonArray layers;
    for (int l = 0; l < lens.layerCount(); ++l) {
        QJsonArray top;
        QJsonArray rank;
        for (std::size_t i = 0; i < lens.top[std::size_t(l)].size(); ++i) {
            top.append(lens.top[std::size_t(l)][i].front().id);
            rank.append(lens.rank(l, Eigen::Index(i)));
        }
        layers.append(
            QJsonObject{{QStringLiteral("layer"), l + 1},
                        {QStringLiteral("top"), top},
                        {QStringLiteral("rank"), rank},
                        {QStringLiteral("probability"), jsonRow(lens.probability.row(l))}});
    }
    return layers;
}

QJsonObject patchingToJson(const ActivationPatching& patching)
{
    const PatchingRuns& runs = patching.runs;
    QJsonObject metric{{QStringLiteral("token_a"), runs.metric.tokenA}};
    if (runs.metric.tokenB >= 0)
        metric[QStringLiteral("token_b")] = runs.metric.tokenB;
    metric[QStringLiteral("kind")] = runs.metric.tokenB >= 0 ? QStringLiteral("logit-difference")
                                                             : QStringLiteral("probability");
    return QJsonObject{{QStringLiteral("metric"), metric},
                       {QStringLiteral("position"), runs.position},
                       {QStringLiteral("clean"), runs.cleanMetric},
                       {QStringLiteral("corrupt"), runs.corruptMetric},
                       {QStringLiteral("heads"), jsonMatrix(patching.heads)},
                       {QStringLiteral("positions"), jsonMatrix(patching.positions)},
                       {QStringLiteral("headMetric"), jsonMatrix(patching.headMetric)},
                       {QStringLiteral("positionMetric"), jsonMatrix(patching.positionMetric)}};
}

QJsonObject attributionToJson(const LogitAttribution& a)
{
    return QJsonObject{{QStringLiteral("token"), a.token},
                       {QStringLiteral("position"), a.position},
                       {QStringLiteral("logit"), jsonNumber(a.logit)},
                       {QStringLiteral("heads"), jsonMatrix(a.heads)},
                       {QStringLiteral("attentionBias"), jsonArray(a.attentionBias)},
                       {QStringLiteral("feedForward"), jsonArray(a.feedForward)},
                       {QStringLiteral("embedding"), a.embedding},
                       {QStringLiteral("bias"), a.bias},
                       {QStringLiteral("scale"), a.scale}};
}

} // namespace attn::core
