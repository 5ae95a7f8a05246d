#include "ui/widgets/score_options.h"

#include "core/enum_names.h"

#include <QObject>

namespace attn::ui {

namespace {

constexpr core::EnumNames<ScoreOption, 6> kScoreOptionNames{{{ScoreOption::Dot, "dot"},
                                                             {ScoreOption::Scaled, "scaled"},
                                                             {ScoreOption::Additive, "additive"},
                                                             {ScoreOption::Hard, "hard"},
                                                             {ScoreOption::Bilinear, "bilinear"},
                                                             {ScoreOption::Cosine, "cosine"}}};

} // namespace

QString scoreOptionName(ScoreOption option)
{
    return core::enumQName(kScoreOptionNames, option);
}

std::optional<ScoreOption> parseScoreOption(const QString& name)
{
    return core::enumFromName(kScoreOptionNames, name);
}

QString scoreOptionLabel(ScoreOption option)
{
    switch (option) {
    case ScoreOption::Dot:
        return QObject::tr("Dot product");
    case ScoreOption::Scaled:
        return QObject::tr("Scaled dot product");
    case ScoreOption::Additive:
        return QObject::tr("Additive (Bahdanau)");
    case ScoreOption::Hard:
        return QObject::tr("Hard (argmax)");
    case ScoreOption::Bilinear:
        return QObject::tr("Bilinear (Luong)");
    case ScoreOption::Cosine:
        return QObject::tr("Cosine");
    }
    return {};
}

QString scoreOptionToolTip(ScoreOption option)
{
    switch (option) {
    case ScoreOption::Dot:
        return QObject::tr("e_ij = q_i · k_j");
    case ScoreOption::Scaled:
        return QObject::tr("e_ij = q_i · k_j / √d_k (Vaswani et al. 2017, eq. 1)");
    case ScoreOption::Additive:
        return QObject::tr("e_ij = wᵀ tanh(q_i + k_j) (Bahdanau et al. 2014)");
    case ScoreOption::Hard:
        return QObject::tr("Scaled dot product, then a one-hot row at the largest score");
    case ScoreOption::Bilinear:
        return QObject::tr(
            "e_ij = q_iᵀ M k_j (Luong et al. 2015, \"general\"). With M = I, the default, this is "
            "q_i · k_j: the figures equal dot-product attention until M is edited.");
    case ScoreOption::Cosine:
        return QObject::tr("e_ij = q_i · k_j / (|q_i| |k_j|)");
    }
    return {};
}

QString scoreChoiceToolTip()
{
    return QObject::tr(
        "How each query and key give a score e_ij: q·k, q·k/√d_k, wᵀ tanh(q + k), qᵀMk or the "
        "cosine; Hard is the scaled score with one-hot weights");
}

QString normalizationChoiceToolTip()
{
    return QObject::tr(
        "How each row of scores becomes weights: softmax, one-hot at the largest score, ReLU, "
        "sparsemax, or the scores themselves");
}

QString temperatureToolTip()
{
    return QObject::tr(
        "Scores are divided by the temperature before normalizing: below 1 sharpens "
        "the weights towards one-hot, above 1 flattens them. Logarithmic, 0.05 to 20.");
}

QString typedTemperatureToolTip()
{
    return QObject::tr("The temperature typed exactly, also beyond the slider's range");
}

ScoreOption scoreOptionOf(core::ScoreKind score, core::Normalization normalization)
{
    switch (score) {
    case core::ScoreKind::Dot:
    case core::ScoreKind::ScaledDot:
        if (normalization == core::Normalization::Hard)
            return ScoreOption::Hard;
        return score == core::ScoreKind::Dot ? ScoreOption::Dot : ScoreOption::Scaled;
    case core::ScoreKind::Additive:
        return ScoreOption::Additive;
    case core::ScoreKind::Bilinear:
        return ScoreOption::Bilinear;
    case core::ScoreKind::Cosine:
        return ScoreOption::Cosine;
    }
    return ScoreOption::Scaled;
}

ScoreOption comparisonOption(const QString& compareScore, core::ScoreKind score,
                             core::Normalization normalization)
{
    const ScoreOption current = scoreOptionOf(score, normalization);
    const auto asked = parseScoreOption(compareScore);
    if (asked && *asked != current)
        return *asked;
    return current == ScoreOption::Dot ? ScoreOption::Scaled : ScoreOption::Dot;
}

void applyScoreOption(ScoreOption option, core::ScoreKind& score,
                      core::Normalization& normalization)
{
    if (option == ScoreOption::Hard) {
        if (score != core::ScoreKind::Dot)
            score = core::ScoreKind::ScaledDot;
        normalization = core::Normalization::Hard;
        return;
    }
    if (normalization == core::Normalization::Hard &&
        scoreOptionOf(score, normalization) == ScoreOption::Hard)
        normalization = core::Normalization::Softmax;
    switch (option) {
    case ScoreOption::Dot:
        score = core::ScoreKind::Dot;
        break;
    case ScoreOption::Scaled:
        score = core::ScoreKind::ScaledDot;
        break;
    case ScoreOption::Additive:
        score = core::ScoreKind::Additive;
        break;
    case ScoreOption::Bilinear:
        score = core::ScoreKind::Bilinear;
        break;
    case ScoreOption::Cosine:
        score = core::ScoreKind::Cosine;
        break;
    case ScoreOption::Hard:
        break;
    }
}

} // namespace attn::ui
