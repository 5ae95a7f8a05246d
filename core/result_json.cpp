#include "result_json.h"

#include "json_numbers.h"

#include <QJsonArray>

namespace attn::core {
namespace {

QJsonArray tokenTexts(const std::vector<Token>& tokens)
{
    QJsonArray texts;
    for (const Token& token : tokens)
        texts.append(token.text);
    return texts;
}

} // namespace

QJsonArray headsToJson(const AttentionResult& result)
{
    QJsonArray heads;
    for (std::size_t h = 0; h < result.heads.size(); ++h) {
        const HeadResult& head = result.heads[h];
        QJsonObject object{
            {QStringLiteral("index"), int(h)},
            {QStringLiteral("enabled"), head.enabled},
            {QStringLiteral("Q"), jsonMatrix(head.Q)},
            {QStringLiteral("K"), jsonMatrix(head.K)},
            {QStringLiteral("V"), jsonMatrix(head.V)},
            {QStringLiteral("weights"), jsonMatrix(head.weights)},
            {QStringLiteral("output"), jsonMatrix(head.output)},
        };
        if (head.rotatedQ.size()) {
            object.insert(QStringLiteral("rotatedQ"), jsonMatrix(head.rotatedQ));
            object.insert(QStringLiteral("rotatedK"), jsonMatrix(head.rotatedK));
        }
        if (result.intermediatesKept) {
            object.insert(QStringLiteral("rawScores"), jsonMatrix(head.rawScores));
            object.insert(QStringLiteral("scaledScores"), jsonMatrix(head.scaledScores));
            object.insert(QStringLiteral("maskedScores"), jsonMatrix(head.maskedScores));
        }
        heads.append(object);
    }
    return heads;
}

QJsonObject settingsToJson(const Problem& problem)
{
    return QJsonObject{
        {QStringLiteral("score"), QString::fromUtf8(toString(problem.score))},
        {QStringLiteral("normalize"), QString::fromUtf8(toString(problem.normalization))},
        {QStringLiteral("temperature"), jsonNumber(problem.temperature)},
        {QStringLiteral("fill"), QString::fromUtf8(toString(problem.fill))},
        {QStringLiteral("scoreScale"), jsonNumber(problem.scoreScale())},
        {QStringLiteral("d_model"), problem.weights->dModel},
        {QStringLiteral("d_k"), problem.weights->dK},
        {QStringLiteral("d_v"), problem.weights->dV},
        {QStringLiteral("heads"), problem.weights->headCount()},
    };
}

std::int64_t resultDumpNumbers(const Problem& problem)
{
    const ModelWeights& w = *problem.weights;
    const std::int64_t tq = problem.queryCount();
    const std::int64_t tk = problem.keyCount();
    const std::int64_t dk = w.dK;
    const std::int64_t dv = w.dV;
    // Per head: Q, K, V, the rotated Q and K, the weights, the output and three score stages.
    const std::int64_t rotated = problem.rotary.enabled() ? (tq + tk) * dk : 0;
    const std::int64_t perHead = tq * dk + tk * dk + tk * dv + rotated + 4 * tq * tk + tq * dv;
    // The inputs, the concatenation of the heads and the output.
    return (tq + tk) * w.dModel + w.headCount() * perHead + tq * w.headCount() * dv + tq * w.dModel;
}

QJsonObject resultToJson(const AttentionResult& result)
{
    const Problem& problem = *result.problem;
    const QJsonObject settings = settingsToJson(problem);
    const QJsonArray heads = headsToJson(result);

    const Diagnostics& d = result.diagnostics;
    QJsonArray stages;
    for (const StageTime& stage : d.stages)
        stages.append(QJsonObject{{QStringLiteral("stage"), QString::fromStdString(stage.stage)},
                                  {QStringLiteral("milliseconds"), stage.milliseconds}});
    QJsonArray warnings;
    for (const std::string& warning : d.warnings)
        warnings.append(QString::fromStdString(warning));

    return QJsonObject{
        {QStringLiteral("format"), QStringLiteral("attention-explorer-dump")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("backend"), QString::fromStdString(result.backend)},
        {QStringLiteral("device"), QString::fromStdString(result.device)},
        {QStringLiteral("cross"), problem.cross},
        {QStringLiteral("queryTokens"), tokenTexts(problem.queryTokens)},
        {QStringLiteral("keyTokens"), tokenTexts(problem.keyTokens)},
        {QStringLiteral("settings"), settings},
        {QStringLiteral("queryInput"), jsonMatrix(result.queryInput())},
        {QStringLiteral("keyInput"), jsonMatrix(result.keyInput())},
        {QStringLiteral("heads"), heads},
        {QStringLiteral("concat"), jsonMatrix(result.concat())},
        {QStringLiteral("output"), jsonMatrix(result.output)},
        {QStringLiteral("pooling"),
         QJsonObject{{QStringLiteral("pooled"), result.pooling.pooled},
                     {QStringLiteral("rowBlock"), result.pooling.rowBlock},
                     {QStringLiteral("colBlock"), result.pooling.colBlock},
                     {QStringLiteral("mode"), QString::fromUtf8(toString(result.pooling.mode))}}},
        {QStringLiteral("diagnostics"),
         QJsonObject{{QStringLiteral("fullyMaskedRows"), jsonArray(d.fullyMaskedRows)},
                     {QStringLiteral("zeroSumRows"), jsonArray(d.zeroSumRows)},
                     {QStringLiteral("nonFinite"), d.nonFinite},
                     {QStringLiteral("nonFiniteWhere"), QString::fromStdString(d.nonFiniteWhere)},
                     {QStringLiteral("computeMilliseconds"), d.computeMilliseconds},
                     {QStringLiteral("stages"), stages},
                     {QStringLiteral("warnings"), warnings}}},
    };
}

} // namespace attn::core
