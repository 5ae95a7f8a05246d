#include "scene_comparison.h"

#include "core/attention_result.h"
#include "core/error.h"
#include "core/scene.h"

#include <QStringList>
#include <cmath>

namespace attn::core {

QString SceneVariant::label() const
{
    QStringList parts;
    if (causal)
        parts << (*causal ? QStringLiteral("causal mask on") : QStringLiteral("causal mask off"));
    if (embedding) {
        const char* names[] = {"hashed", "one-hot", "table", "word-vector"};
        parts << QStringLiteral("%1 embeddings").arg(QLatin1String(names[int(*embedding)]));
    }
    if (score)
        parts << (*score == ScoreKind::Dot         ? QStringLiteral("dot (unscaled)")
                  : *score == ScoreKind::ScaledDot ? QStringLiteral("scaled dot (1/sqrt(d_k))")
                                                   : QString::fromLatin1(toString(*score).data()));
    if (normalization)
        parts << QString::fromLatin1(toString(*normalization).data());
    if (fill)
        parts << QStringLiteral("masked = %1").arg(QLatin1String(toString(*fill).data()));
    if (positional)
        parts << (*positional == PositionalKind::None
                      ? QStringLiteral("no positions")
                      : QStringLiteral("%1 positions")
                            .arg(QLatin1String(toString(*positional).data())));
    if (temperature)
        parts << QStringLiteral("temperature %1").arg(double(*temperature));
    return parts.isEmpty() ? QStringLiteral("as is") : parts.join(QStringLiteral(", "));
}

Scene applyVariant(const Scene& scene, const SceneVariant& variant)
{
    Scene out = scene;
    if (variant.causal)
        out.mask.causal = *variant.causal;
    if (variant.embedding && *variant.embedding != out.embedding.kind) {
        switch (*variant.embedding) {
        case EmbeddingKind::OneHot:
            out.embedding.kind = EmbeddingKind::OneHot;
            out.embedding.vocabulary.clear();
            fitOneHotVocabulary(out);
            break;
        case EmbeddingKind::Table:
            if (out.embedding.table.empty())
                keepEmbeddingsAsTable(out);
            out.embedding.kind = EmbeddingKind::Table;
            break;
        case EmbeddingKind::WordVectors:
            if (!out.embedding.wordVectors)
                throw Error("embedding.file: no word-vector file is loaded to compare with");
            out.embedding.kind = EmbeddingKind::WordVectors;
            break;
        case EmbeddingKind::Hashed:
            out.embedding.kind = EmbeddingKind::Hashed;
            break;
        }
    }
    if (variant.score)
        out.score = *variant.score;
    if (variant.normalization)
        out.normalization = *variant.normalization;
    if (variant.fill)
        out.fill = *variant.fill;
    if (variant.positional) {
        if (*variant.positional == PositionalKind::Table && out.positional.table.size() == 0)
            keepPositionsAsTable(out);
        out.positional.kind = *variant.positional;
    }
    if (variant.temperature)
        out.temperature = *variant.temperature;
    return out;
}

SceneComparison compareResults(std::shared_ptr<const AttentionResult> first,
                               std::shared_ptr<const AttentionResult> second,
                               const QString& firstLabel, const QString& secondLabel)
{
    if (!first || !second)
        throw Error("difference: two results are needed");
    auto shape = [](const AttentionResult& r) {
        return std::to_string(r.problem->queryCount()) + "x" +
               std::to_string(r.problem->keyCount()) + " tokens, " +
               std::to_string(r.heads.size()) + " heads, d_model " +
               std::to_string(r.output.cols());
    };
    if (first->heads.size() != second->heads.size() ||
        first->output.rows() != second->output.rows() ||
        first->output.cols() != second->output.cols() ||
        first->problem->keyCount() != second->problem->keyCount() ||
        first->pooling.pooled != second->pooling.pooled)
        throw Error("difference: the two versions differ in shape (" + shape(*first) + " against " +
                    shape(*second) + "); the difference needs the same cells");
    SceneComparison out;
    out.firstLabel = firstLabel;
    out.secondLabel = secondLabel;
    for (std::size_t h = 0; h < first->heads.size(); ++h) {
        const Matrix& a = first->heads[h].weights;
        const Matrix& b = second->heads[h].weights;
        if (a.rows() != b.rows() || a.cols() != b.cols())
            throw Error("difference: head " + std::to_string(h + 1) + "'s weights differ in shape");
        HeadDifference d;
        d.weights = b - a;
        d.maxAbs = d.weights.size() ? double(d.weights.cwiseAbs().maxCoeff()) : 0.0;
        for (Eigen::Index i = 0; i < d.weights.rows(); ++i)
            d.rowTotalVariation.push_back(0.5 * d.weights.row(i).cast<double>().cwiseAbs().sum());
        out.heads.push_back(std::move(d));
    }
    out.outputDifference = second->output - first->output;
    out.outputMaxAbs =
        out.outputDifference.size() ? double(out.outputDifference.cwiseAbs().maxCoeff()) : 0.0;
    out.first = std::move(first);
    out.second = std::move(second);
    return out;
}

SceneComparison compareScenes(const Scene& first, const Scene& second, Backend& backend,
                              const ComputeOptions& options, const QString& firstLabel,
                              const QString& secondLabel)
{
    return compareResults(backend.compute(resolveProblem(first), options),
                          backend.compute(resolveProblem(second), options), firstLabel,
                          secondLabel);
}

Matrix orientWeights(const Matrix& weights, bool queriesInColumns)
{
    return queriesInColumns ? Matrix(weights.transpose()) : weights;
}

} // namespace attn::core
