#include "ui/model/model_figures.h"

#include "ui/figures/painted_figure.h"

#include "ui/model/head_grid_painter.h"
#include "ui/model/predictions_painter.h"

#include "core/enum_names.h"
#include "core/error.h"
#include "core/model/model_loader.h"

#include <QCoreApplication>
#include <QPainter>

#include <cmath>

namespace attn::ui {

namespace {

// tr() for this file: lupdate takes the context from Q_DECLARE_TR_FUNCTIONS (through a free
// helper function it gave the strings a context the program never asked for).
struct Words
{
    Q_DECLARE_TR_FUNCTIONS(ModelFigures)
};

QString quotedText(const core::ModelResult& result)
{
    QString text;
    for (const core::Token& token : result.tokens)
        if (!token.special)
            text += token.text;
    text = text.trimmed();
    if (text.size() > 40)
        text = text.left(39) + QChar(0x2026);
    return QChar(0x201c) + text + QChar(0x201d);
}

constexpr core::EnumNames<ModelFigure, 4> kModelFigureNames{
    {{ModelFigure::Grid, "grid"},
     {ModelFigure::Rollout, "rollout"},
     {ModelFigure::Predictions, "predictions"},
     {ModelFigure::Importance, "importance"}}};

} // namespace

std::optional<ModelFigure> parseModelFigure(const QString& name)
{
    return core::enumFromName(kModelFigureNames, name);
}

QString modelFigureName(ModelFigure figure)
{
    return core::enumQName(kModelFigureNames, figure);
}

std::vector<MatrixPanel> rolloutPanels(const core::ModelResult& result, int layer, Colormap map)
{
    if (result.layerCount() == 0)
        return {};
    layer = layer < 0 || layer >= result.layerCount() ? result.layerCount() - 1 : layer;
    const std::vector<core::Matrix> rollout = core::attentionRollout(result);
    const QStringList labels = HeadGridPainter::tokenLabels(result);
    MatrixPanel rolled;
    rolled.title = layer == 0 ? Words::tr("Rollout through layer 1")
                              : Words::tr("Rollout through layers 1–%1").arg(layer + 1);
    rolled.matrix = rollout[std::size_t(layer)];
    MatrixPanel mean;
    mean.title = Words::tr("Layer %1: mean of its heads").arg(layer + 1);
    mean.matrix = core::meanOfEnabledHeads(*result.layers[std::size_t(layer)]);
    for (MatrixPanel* panel : {&rolled, &mean}) {
        panel->rowLabels = labels;
        panel->columnLabels = labels;
        panel->rowAxis = Words::tr("query");
        panel->columnAxis = Words::tr("key (input token)");
        panel->map = map;
        panel->low = 0.0;
        panel->high = std::max(1e-6, double(panel->matrix.maxCoeff()));
    }
    rolled.scaleLabel = Words::tr("share of input");
    mean.scaleLabel = Words::tr("weight");
    return {rolled, mean};
}

MatrixPanel importancePanel(const core::HeadImportance& importance, int selectedLayer,
                            int selectedHead)
{
    MatrixPanel panel;
    panel.title = Words::tr("Drop in log p when a head is switched off");
    panel.matrix = importance.drop;
    for (int l = 0; l < importance.drop.rows(); ++l)
        panel.rowLabels << Words::tr("Layer %1").arg(l + 1);
    for (int h = 0; h < importance.drop.cols(); ++h)
        panel.columnLabels << Words::tr("Head %1").arg(h + 1);
    panel.map = Colormap::Diverging;
    const double extent = std::max(1e-6, double(importance.drop.cwiseAbs().maxCoeff()));
    panel.low = -extent;
    panel.high = extent;
    panel.scaleLabel = Words::tr("nats");
    panel.highlightRow = selectedLayer;
    panel.highlightColumn = selectedHead;
    panel.valueDecimals = 2;
    return panel;
}

QString rankedHeadsText(const core::HeadImportance& importance, int count)
{
    std::vector<std::pair<int, int>> heads;
    for (int l = 0; l < importance.drop.rows(); ++l)
        for (int h = 0; h < importance.drop.cols(); ++h)
            heads.emplace_back(l, h);
    std::stable_sort(heads.begin(), heads.end(), [&](const auto& a, const auto& b) {
        return importance.drop(a.first, a.second) > importance.drop(b.first, b.second);
    });
    QStringList lines;
    for (int k = 0; k < count && k < int(heads.size()); ++k) {
        const auto [l, h] = heads[std::size_t(k)];
        const double drop = double(importance.drop(l, h));
        lines << Words::tr("%1. Layer %2, head %3: %4 nats")
                     .arg(k + 1)
                     .arg(l + 1)
                     .arg(h + 1)
                     .arg((drop < 0 ? QString(QChar(0x2212)) : QString()) +
                          QString::number(std::abs(drop), 'f', 2));
    }
    return lines.join(QLatin1Char('\n'));
}

std::set<std::pair<int, int>> editedHeads(const core::ModelResult& result)
{
    std::set<std::pair<int, int>> edited;
    for (const auto& [layer, edit] : result.interventions.layers) {
        if (layer < 0 || layer >= result.layerCount())
            continue;
        const int heads = int(result.layers[std::size_t(layer)]->heads.size());
        const bool settings =
            edit.score || edit.normalization || edit.temperature || edit.mask || edit.fill;
        for (int h = 0; h < heads; ++h)
            if (settings || edit.heads.count(h))
                edited.insert({layer, h});
    }
    return edited;
}

QString defaultModelFigureTitle(ModelFigure figure, const ModelFigureSource& source)
{
    const core::ModelResult& result = *source.result;
    const QString name = result.model ? result.model->name : QString();
    QString edits;
    if (!result.interventions.empty())
        edits = result.interventions.headsOff.size() == 1 ? Words::tr(" · 1 head off")
                : result.interventions.headsOff.empty()
                    ? Words::tr(" · edited")
                    : Words::tr(" · %1 heads off").arg(result.interventions.headsOff.size());
    switch (figure) {
    case ModelFigure::Grid:
        return Words::tr("%1 · %2 · every head's attention%3").arg(name, quotedText(result), edits);
    case ModelFigure::Rollout:
        return Words::tr("%1 · %2 · attention rollout%3").arg(name, quotedText(result), edits);
    case ModelFigure::Predictions:
        return Words::tr("%1 · %2 · predictions%3").arg(name, quotedText(result), edits);
    case ModelFigure::Importance:
        if (source.importance && source.importance->position >= 0 && !result.predictions.empty())
            return Words::tr("%1 · %2 · head importance for %3")
                .arg(name, quotedText(result),
                     paint::tokenLabel(result.predictions.front().top.empty()
                                           ? QString()
                                           : result.predictions.front().top.front().text));
        return Words::tr("%1 · head importance").arg(name);
    }
    return name;
}

void paintModelFigure(QPainter& painter, const QRectF& target, ModelFigure figure,
                      const ModelFigureSource& source, const QFont& font, const FigureStyle& style,
                      bool vector)
{
    if (!source.result)
        return;
    const core::ModelResult& result = *source.result;
    const QString title =
        source.title.isEmpty() ? defaultModelFigureTitle(figure, source) : source.title;
    switch (figure) {
    case ModelFigure::Grid: {
        HeadGridOptions options;
        options.colormap = source.colormap;
        options.style = style;
        options.title = title;
        options.colorBar = true;
        // No selection frame: which head the window has selected is screen state, not data.
        options.focusToken = source.focusToken;
        options.headsOff = result.interventions.headsOff;
        options.edited = editedHeads(result);
        const int heads = result.layerCount() ? int(result.layers.front()->heads.size()) : 0;
        const auto geometry =
            HeadGridPainter::layout(target, result.layerCount(), heads, font, options,
                                    painter.device(), HeadGridPainter::tokenLabels(result));
        HeadGridPainter::paint(painter, geometry, result, options, vector);
        break;
    }
    case ModelFigure::Rollout:
        paintMatrixPanels(painter, target, rolloutPanels(result, source.layer, source.colormap),
                          title, font, style, vector);
        break;
    case ModelFigure::Predictions:
        PredictionsPainter::paint(painter, target,
                                  predictionBlocks(result, source.baseline.get(), source.topK),
                                  predictionsMessage(result), title, font, style, true);
        break;
    case ModelFigure::Importance:
        if (source.importance)
            paintMatrixPanels(painter, target, {importancePanel(*source.importance, -1, -1)}, title,
                              font, style, vector);
        break;
    }
}

QByteArray modelFigureBytes(ModelFigure figure, const ModelFigureSource& source, QSize size,
                            double dpi, FigureFormat format, double fontPoints)
{
    if (!source.result)
        throw core::Error("there is no model run to draw");
    if (figure == ModelFigure::Importance && !source.importance)
        throw core::Error("head importance has not been computed");
    if (figure == ModelFigure::Predictions && !predictionsMessage(*source.result).isEmpty())
        throw core::Error(predictionsMessage(*source.result).toStdString());
    return paintedFigureBytes(
        [&](QPainter& painter, const QRectF& target, const QFont& font, const FigureStyle& style,
            bool vector) {
            paintModelFigure(painter, target, figure, source, font, style, vector);
        },
        size, dpi, format, fontPoints);
}

} // namespace attn::ui
