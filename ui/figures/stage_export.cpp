#include "ui/figures/stage_export.h"

#include "core/enum_names.h"
#include "core/error.h"
#include "core/json_numbers.h"
#include "core/matrix_io.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <array>

namespace attn::ui {

namespace {

constexpr core::EnumNames<Stage, 11> kStages{{{Stage::Input, "input"},
                                              {Stage::Q, "Q"},
                                              {Stage::K, "K"},
                                              {Stage::V, "V"},
                                              {Stage::Scores, "scores"},
                                              {Stage::ScaledScores, "scaled-scores"},
                                              {Stage::MaskedScores, "masked-scores"},
                                              {Stage::Weights, "weights"},
                                              {Stage::HeadOutput, "head-output"},
                                              {Stage::Concat, "concat"},
                                              {Stage::Output, "output"}}};

QStringList texts(const std::vector<core::Token>& tokens)
{
    QStringList out;
    for (const core::Token& token : tokens)
        out.append(token.text);
    return out;
}

// LaTeX's special characters in token labels ("#", "$", "%", "&", "_", ...).
QString latexEscaped(const QString& text)
{
    QString out;
    for (QChar c : text) {
        switch (c.unicode()) {
        case '\\':
            out += QLatin1String("\\textbackslash{}");
            break;
        case '{':
        case '}':
        case '#':
        case '$':
        case '%':
        case '&':
        case '_':
            out += QLatin1Char('\\') + c;
            break;
        case '^':
            out += QLatin1String("\\textasciicircum{}");
            break;
        case '~':
            out += QLatin1String("\\textasciitilde{}");
            break;
        default:
            out += c;
        }
    }
    return out;
}

QString fixed(float value, int precision)
{
    if (!std::isfinite(value))
        return std::isnan(value) ? QStringLiteral("nan")
                                 : (value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf"));
    return QLocale::c().toString(double(value), 'f', precision);
}

QByteArray latexTable(const StageMatrix& s, int precision)
{
    const core::Matrix& m = *s.matrix;
    QString out = QStringLiteral("% %1, written by Attention Explorer\n\\begin{tabular}{l%2}\n")
                      .arg(s.name, QString(int(m.cols()), QLatin1Char('r')));
    QStringList header{QString()};
    for (Eigen::Index j = 0; j < m.cols(); ++j)
        header.append(s.columnLabels.isEmpty() ? QString::number(j + 1)
                                               : latexEscaped(s.columnLabels[j]));
    out += header.join(QLatin1String(" & ")) + QLatin1String(" \\\\\n\\hline\n");
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        QStringList row{s.rowLabels.isEmpty() ? QString::number(i + 1)
                                              : latexEscaped(s.rowLabels[i])};
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            const float v = m(i, j);
            row.append(std::isinf(v) && v < 0 ? QStringLiteral("$-\\infty$")
                                              : QStringLiteral("$%1$").arg(fixed(v, precision)));
        }
        out += row.join(QLatin1String(" & ")) + QLatin1String(" \\\\\n");
    }
    out += QLatin1String("\\end{tabular}\n");
    return out.toUtf8();
}

// A pgfplots matrix plot (needs \usepackage{pgfplots} and \pgfplotsset{compat=1.17}).
QByteArray latexPgfplots(const StageMatrix& s, int precision)
{
    const core::Matrix& m = *s.matrix;
    // The colour range over finite cells; masked (-inf) cells take its lowest colour.
    float low = std::numeric_limits<float>::max(), high = -low;
    for (Eigen::Index i = 0; i < m.size(); ++i)
        if (std::isfinite(m.data()[i])) {
            low = std::min(low, m.data()[i]);
            high = std::max(high, m.data()[i]);
        }
    if (low > high)
        low = high = 0.0f;
    auto ticks = [](const QStringList& labels) {
        QStringList escaped;
        for (const QString& l : labels)
            escaped.append(QLatin1Char('{') + latexEscaped(l) + QLatin1Char('}'));
        return escaped.join(QLatin1Char(','));
    };
    QString out = QStringLiteral("% %1, written by Attention Explorer\n"
                                 "\\begin{tikzpicture}\n\\begin{axis}[\n"
                                 "  colormap/viridis, colorbar, enlargelimits=false, axis on top,\n"
                                 "  y dir=reverse, point meta min=%2, point meta max=%3,\n"
                                 "  xtick={0,...,%4}, ytick={0,...,%5},\n")
                      .arg(s.name)
                      .arg(fixed(low, precision), fixed(high, precision))
                      .arg(m.cols() - 1)
                      .arg(m.rows() - 1);
    if (!s.columnLabels.isEmpty())
        out += QStringLiteral("  xticklabels={%1}, x tick label style={rotate=90},\n")
                   .arg(ticks(s.columnLabels));
    if (!s.rowLabels.isEmpty())
        out += QStringLiteral("  yticklabels={%1},\n").arg(ticks(s.rowLabels));
    out += QStringLiteral("]\n\\addplot[matrix plot*, mesh/cols=%1, point meta=explicit] "
                          "table[meta=c] {\nx y c\n")
               .arg(m.cols());
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            const float v = m(i, j);
            out += QStringLiteral("%1 %2 %3\n")
                       .arg(j)
                       .arg(i)
                       .arg(fixed(std::isfinite(v) ? v : low, precision));
        }
    out += QLatin1String("};\n\\end{axis}\n\\end{tikzpicture}\n");
    return out.toUtf8();
}

} // namespace

std::optional<Stage> parseStage(const QString& name)
{
    return core::enumFromName(kStages, name, Qt::CaseInsensitive);
}

QString stageName(Stage stage)
{
    return core::enumQName(kStages, stage);
}

QStringList stageNames()
{
    QStringList names;
    for (const core::EnumName<Stage>& entry : kStages)
        names.append(core::enumQName(kStages, entry.value));
    return names;
}

StageMatrix stageMatrix(const core::AttentionResult& result, Stage stage, int head)
{
    const QStringList queries = texts(result.problem->queryTokens);
    const QStringList keys = texts(result.problem->keyTokens);
    if (stage == Stage::Input)
        return {&result.queryInput(), queries, {}, QStringLiteral("input X")};
    if (stage == Stage::Concat) {
        auto concat = std::make_shared<const core::Matrix>(result.concat());
        return {concat.get(), queries, {}, QStringLiteral("concatenated heads"), concat};
    }
    if (stage == Stage::Output)
        return {&result.output, queries, {}, QStringLiteral("output")};
    if (head < 0 || head >= int(result.heads.size()))
        throw core::Error(QStringLiteral("there is no head %1; the scene has %2")
                              .arg(head + 1)
                              .arg(result.heads.size())
                              .toStdString());
    const core::HeadResult& h = result.heads[std::size_t(head)];
    const QString prefix = QStringLiteral("head %1 ").arg(head + 1);
    const bool square = stage == Stage::Scores || stage == Stage::ScaledScores ||
                        stage == Stage::MaskedScores || stage == Stage::Weights;
    if (square && result.pooling.pooled)
        throw core::Error("this input is pooled for display; compute it without pooling to export "
                          "its full matrices");
    if ((stage == Stage::Scores || stage == Stage::ScaledScores || stage == Stage::MaskedScores) &&
        !result.intermediatesKept)
        throw core::Error("the scores were not kept for this result");
    switch (stage) {
    case Stage::Q:
        return {&h.Q, queries, {}, prefix + QStringLiteral("Q")};
    case Stage::K:
        return {&h.K, keys, {}, prefix + QStringLiteral("K")};
    case Stage::V:
        return {&h.V, keys, {}, prefix + QStringLiteral("V")};
    case Stage::Scores:
        return {&h.rawScores, queries, keys, prefix + QStringLiteral("scores")};
    case Stage::ScaledScores:
        return {&h.scaledScores, queries, keys, prefix + QStringLiteral("scaled scores")};
    case Stage::MaskedScores:
        return {&h.maskedScores, queries, keys, prefix + QStringLiteral("masked scores")};
    case Stage::Weights:
        return {&h.weights, queries, keys, prefix + QStringLiteral("weights")};
    case Stage::HeadOutput:
        return {&h.output, queries, {}, prefix + QStringLiteral("output")};
    default:
        break;
    }
    return {};
}

std::optional<MatrixFormat> matrixFormatForPath(const QString& path)
{
    const QString lower = path.toLower();
    if (lower.endsWith(QLatin1String(".csv")))
        return MatrixFormat::Csv;
    if (lower.endsWith(QLatin1String(".npy")))
        return MatrixFormat::Npy;
    if (lower.endsWith(QLatin1String(".json")))
        return MatrixFormat::Json;
    if (lower.endsWith(QLatin1String(".tex")))
        return MatrixFormat::LatexTable;
    return std::nullopt;
}

QByteArray stageBytes(const StageMatrix& stage, MatrixFormat format, int precision)
{
    switch (format) {
    case MatrixFormat::Csv:
        return core::csvBytes(*stage.matrix);
    case MatrixFormat::Npy:
        return core::npyBytes(*stage.matrix);
    case MatrixFormat::Json: {
        QJsonArray rows;
        for (Eigen::Index i = 0; i < stage.matrix->rows(); ++i) {
            QJsonArray row;
            for (Eigen::Index j = 0; j < stage.matrix->cols(); ++j)
                row.append(core::jsonNumber((*stage.matrix)(i, j)));
            rows.append(row);
        }
        const QJsonObject object{
            {QStringLiteral("name"), stage.name},
            {QStringLiteral("rowLabels"), QJsonArray::fromStringList(stage.rowLabels)},
            {QStringLiteral("columnLabels"), QJsonArray::fromStringList(stage.columnLabels)},
            {QStringLiteral("values"), rows}};
        return QJsonDocument(object).toJson(QJsonDocument::Indented);
    }
    case MatrixFormat::LatexTable:
        return latexTable(stage, precision);
    case MatrixFormat::LatexPgfplots:
        return latexPgfplots(stage, precision);
    }
    return {};
}

} // namespace attn::ui
