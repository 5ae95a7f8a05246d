#pragma once

#include "core/attention_result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace attn::ui {

// One matrix of a result, by stage and head: what "export a chosen stage and head" writes.
enum class Stage {
    Input,
    Q,
    K,
    V,
    Scores,
    ScaledScores,
    MaskedScores,
    Weights,
    HeadOutput,
    Concat,
    Output
};

struct StageMatrix
{
    const core::Matrix* matrix = nullptr;
    QStringList rowLabels;
    QStringList columnLabels; // empty where columns are dimensions, not tokens
    QString name;             // "head 1 weights"
    std::shared_ptr<const core::Matrix>
        built{}; // what `matrix` points to where the result keeps none
};

std::optional<Stage> parseStage(const QString& name); // "weights", "Q", "masked-scores", ...
QString stageName(Stage stage);
QStringList stageNames();

// Throws core::Error when the result does not hold that stage (intermediates not kept, a
// pooled result, no such head).
StageMatrix stageMatrix(const core::AttentionResult& result, Stage stage, int head);

enum class MatrixFormat { Csv, Npy, Json, LatexTable, LatexPgfplots };
std::optional<MatrixFormat> matrixFormatForPath(const QString& path); // .csv .npy .json .tex
// "table" or "pgfplots" pick the LaTeX flavour for .tex files.
QByteArray stageBytes(const StageMatrix& stage, MatrixFormat format, int precision);

} // namespace attn::ui
