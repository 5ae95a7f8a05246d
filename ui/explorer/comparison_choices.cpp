#include "ui/explorer/comparison_choices.h"

#include "ui/widgets/score_options.h"

#include "core/analysis/scene_comparison.h"
#include "core/error.h"

#include <QObject>
#include <QStringList>

namespace attn::ui {
namespace {

const QString kOpened = QStringLiteral("opened");

QString word(std::string_view name)
{
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

// The one-setting changes (core::SceneVariant) a choice name stands for; nothing set for a
// score option or "opened", which are applied otherwise.
core::SceneVariant variantNamed(const QString& name)
{
    core::SceneVariant variant;
    const QString kind = name.section(QLatin1Char(':'), 0, 0);
    const std::string value = name.section(QLatin1Char(':'), 1).toStdString();
    if (name == QLatin1String("mask:causal"))
        variant.causal = true;
    else if (name == QLatin1String("mask:no-causal"))
        variant.causal = false;
    else if (kind == QLatin1String("normalization"))
        variant.normalization = core::parseNormalization(value);
    else if (kind == QLatin1String("embedding"))
        variant.embedding = core::parseEmbeddingKind(value);
    else if (kind == QLatin1String("positions"))
        variant.positional = core::parsePositionalKind(value);
    return variant;
}

QString normalizationLabel(core::Normalization normalization)
{
    switch (normalization) {
    case core::Normalization::Softmax:
        return QObject::tr("Softmax");
    case core::Normalization::Hard:
        return QObject::tr("Hard (argmax)");
    case core::Normalization::Relu:
        return QObject::tr("ReLU, normalized");
    case core::Normalization::Sparsemax:
        return QObject::tr("Sparsemax");
    case core::Normalization::None:
        return QObject::tr("No normalization");
    }
    return {};
}

QString embeddingLabel(core::EmbeddingKind kind)
{
    switch (kind) {
    case core::EmbeddingKind::Hashed:
        return QObject::tr("Hashed embeddings");
    case core::EmbeddingKind::OneHot:
        return QObject::tr("One-hot embeddings");
    case core::EmbeddingKind::Table:
        return QObject::tr("Embedding table");
    case core::EmbeddingKind::WordVectors:
        return QObject::tr("Word vectors");
    }
    return {};
}

QString positionsLabel(core::PositionalKind kind)
{
    switch (kind) {
    case core::PositionalKind::None:
        return QObject::tr("No positions");
    case core::PositionalKind::Sinusoidal:
        return QObject::tr("Sinusoidal positions");
    case core::PositionalKind::Table:
        return QObject::tr("Position table");
    }
    return {};
}

} // namespace

std::vector<ComparisonChoice> comparisonChoices(const core::Scene& scene, bool haveOpened)
{
    std::vector<ComparisonChoice> out;
    const ScoreOption current = scoreOptionOf(scene.score, scene.normalization);
    for (ScoreOption option : kScoreOptions)
        if (option != current)
            out.push_back({scoreOptionName(option), scoreOptionLabel(option)});
    out.push_back(
        scene.mask.causal
            ? ComparisonChoice{QStringLiteral("mask:no-causal"), QObject::tr("Causal mask off")}
            : ComparisonChoice{QStringLiteral("mask:causal"), QObject::tr("Causal mask on")});
    // Hard is a score option above (argmax over the scaled dot product).
    for (core::Normalization n : {core::Normalization::Softmax, core::Normalization::Relu,
                                  core::Normalization::Sparsemax, core::Normalization::None})
        if (n != scene.normalization)
            out.push_back({QStringLiteral("normalization:") + word(core::toString(n)),
                           normalizationLabel(n)});
    for (core::EmbeddingKind kind : {core::EmbeddingKind::OneHot, core::EmbeddingKind::Hashed,
                                     core::EmbeddingKind::Table, core::EmbeddingKind::WordVectors})
        if (kind != scene.embedding.kind &&
            (kind != core::EmbeddingKind::WordVectors || scene.embedding.wordVectors))
            out.push_back(
                {QStringLiteral("embedding:") + word(core::toString(kind)), embeddingLabel(kind)});
    for (core::PositionalKind kind : {core::PositionalKind::None, core::PositionalKind::Sinusoidal})
        if (kind != scene.positional.kind)
            out.push_back(
                {QStringLiteral("positions:") + word(core::toString(kind)), positionsLabel(kind)});
    if (haveOpened)
        out.push_back({kOpened, QObject::tr("The scene as opened")});
    return out;
}

QString chooseComparison(const QString& asked, const core::Scene& scene, bool haveOpened)
{
    for (const ComparisonChoice& choice : comparisonChoices(scene, haveOpened))
        if (choice.name == asked)
            return asked;
    const ScoreOption current = scoreOptionOf(scene.score, scene.normalization);
    return scoreOptionName(current == ScoreOption::Dot ? ScoreOption::Scaled : ScoreOption::Dot);
}

core::Scene comparisonScene(const core::Scene& scene, const QString& name,
                            const core::Scene* opened)
{
    if (name == kOpened) {
        if (!opened)
            throw core::Error("compare: \"opened\" needs a scene opened from a file or an example");
        return *opened;
    }
    if (const auto option = parseScoreOption(name)) {
        core::Scene out = scene;
        applyScoreOption(*option, out.score, out.normalization);
        return out;
    }
    const core::SceneVariant variant = variantNamed(name);
    if (!variant.causal && !variant.normalization && !variant.embedding && !variant.positional) {
        QStringList names;
        for (const ComparisonChoice& choice : comparisonChoices(scene, opened != nullptr))
            names << choice.name;
        throw core::Error(QStringLiteral("compare: unknown comparison \"%1\"; for this scene: %2")
                              .arg(name, names.join(QStringLiteral(", ")))
                              .toStdString());
    }
    return core::applyVariant(scene, variant);
}

QString comparisonLabel(const core::Scene& scene, const QString& name)
{
    if (parseScoreOption(name))
        return {}; // the title names the other score with its normalization
    for (const ComparisonChoice& choice : comparisonChoices(scene, true))
        if (choice.name == name)
            // "Causal mask off" -> "causal mask off" in mid-sentence; "ReLU" stays.
            return choice.label.size() > 1 && choice.label.at(1).isLower()
                       ? choice.label.left(1).toLower() + choice.label.mid(1)
                       : choice.label;
    return name;
}

} // namespace attn::ui
