#pragma once

#include "core/attention_settings.h"
#include "core/backend.h"
#include "core/embedding.h"
#include "core/matrix.h"

#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace attn::core {

struct Scene;

// A second version of a scene for the Difference view: what is unset stays as it is. Any
// other change (an edited head, another sentence) is made on a copy of the Scene directly
// and compared with compareScenes.
struct SceneVariant
{
    std::optional<bool> causal;                 // mask on / off
    std::optional<EmbeddingKind> embedding;     // one-hot / hashed / table
    std::optional<ScoreKind> score;             // scaled / unscaled (dot), additive, ...
    std::optional<Normalization> normalization; // softmax / sparsemax / ...
    std::optional<MaskFill> fill;
    std::optional<PositionalKind> positional; // with / without positions
    std::optional<float> temperature;

    // "causal mask off", "one-hot embeddings", "dot (unscaled)", "sparsemax", joined by ", ";
    // "as is" when nothing is set.
    QString label() const;
};

// The scene with the variant applied: a one-hot vocabulary is fitted, a table embedding
// without a table keeps the vectors in use as one (as the command line does).
Scene applyVariant(const Scene& scene, const SceneVariant& variant);

struct HeadDifference
{
    Matrix weights;      // second - first, Tq x Tk (or the pooled grid)
    double maxAbs = 0.0; // max |difference|
    std::vector<double>
        rowTotalVariation; // per query: sum_j |difference| / 2, in [0, 1] for distributions
};

struct SceneComparison
{
    std::shared_ptr<const AttentionResult> first;
    std::shared_ptr<const AttentionResult> second;
    QString firstLabel;
    QString secondLabel;
    std::vector<HeadDifference> heads;
    Matrix outputDifference; // second - first, Tq x d_model
    double outputMaxAbs = 0.0;
};

// Both scenes computed on `backend` and their difference. Throws Error when the two differ in
// shape (token counts, heads, d_model or pooling): the difference needs the same cells.
SceneComparison compareScenes(const Scene& first, const Scene& second, Backend& backend,
                              const ComputeOptions& options = {},
                              const QString& firstLabel = QStringLiteral("first"),
                              const QString& secondLabel = QStringLiteral("second"));
// The same for two results already computed (a real model's layer before and after an
// intervention, say).
SceneComparison compareResults(std::shared_ptr<const AttentionResult> first,
                               std::shared_ptr<const AttentionResult> second,
                               const QString& firstLabel = QStringLiteral("first"),
                               const QString& secondLabel = QStringLiteral("second"));

// Seed 001 writes the attention with queries in columns (A = K^T Q, "the sum of each column
// must be 1"); the explorer's matrices have queries in rows. A figure that follows the seed
// draws orient(weights, true): the transpose, its column j being query j.
Matrix orientWeights(const Matrix& weights, bool queriesInColumns);

} // namespace attn::core
