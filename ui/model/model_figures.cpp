#include "ui/model/model_figures.h"

#include "ui/figures/painted_figure.h"

#include "ui/model/head_grid_painter.h"
#include "ui/model/predictions_painter.h"

#include "core/enum_names.h"
#include "core/error.h"
#include "core/model/model_loader.h"
#include "core/tokenizers/hf_tokenizer.h"

#include <QCoreApplication>
#include <QPainter>

#include <algorithm>
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

constexpr core::EnumNames<ModelFigure, 7> kModelFigureNames{
    {{ModelFigure::Grid, "grid"},
     {ModelFigure::Rollout, "rollout"},
     {ModelFigure::Predictions, "predictions"},
     {ModelFigure::Importance, "importance"},
     {ModelFigure::LogitLens, "logit-lens"},
     {ModelFigure::Patching, "patching"},
     {ModelFigure::Attribution, "attribution"}}};

QStringList layerLabels(int layers)
{
    QStringList labels;
    for (int l = 0; l < layers; ++l)
        labels << Words::tr("Layer %1").arg(l + 1);
    return labels;
}

QStringList headLabels(int heads)
{
    QStringList labels;
    for (int h = 0; h < heads; ++h)
        labels << Words::tr("Head %1").arg(h + 1);
    return labels;
}

// A diverging panel centred on 0 that reaches at least +-`least`.
void symmetricScale(MatrixPanel& panel, double least)
{
    const double extent = std::max(least, double(panel.matrix.cwiseAbs().maxCoeff()));
    panel.map = Colormap::Diverging;
    panel.low = -extent;
    panel.high = extent;
}

// A layers x heads panel of signed values: importance, attribution.
MatrixPanel headsPanel(const QString& title, const core::Matrix& values, const QString& scaleLabel,
                       int selectedLayer, int selectedHead)
{
    MatrixPanel panel;
    panel.title = title;
    panel.matrix = values;
    panel.rowLabels = layerLabels(int(values.rows()));
    panel.columnLabels = headLabels(int(values.cols()));
    symmetricScale(panel, 1e-6);
    panel.scaleLabel = scaleLabel;
    panel.highlightRow = selectedLayer;
    panel.highlightColumn = selectedHead;
    panel.valueDecimals = 2;
    return panel;
}

QString tokenText(const core::Model& model, int id)
{
    return model.tokenizer ? model.tokenizer->displayText(id) : QString::number(id);
}

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
    return headsPanel(Words::tr("Drop in log p when a head is switched off"), importance.drop,
                      Words::tr("nats"), selectedLayer, selectedHead);
}

std::vector<MatrixPanel> logitLensPanels(const core::ModelResult& result,
                                         const core::LogitLens& lens, Colormap map)
{
    const int layers = lens.layerCount();
    const int t = layers ? int(lens.top.front().size()) : 0;
    MatrixPanel top;
    top.title = Words::tr("Top token after each layer");
    top.matrix.resize(layers, t);
    MatrixPanel rank;
    const bool chosen =
        !lens.followed.empty() && std::all_of(lens.followed.begin(), lens.followed.end(),
                                              [&](int id) { return id == lens.followed.front(); });
    rank.title = chosen
                     ? Words::tr("Rank of %1")
                           .arg(paint::tokenLabel(tokenText(*result.model, lens.followed.front())))
                     : Words::tr("Rank of the model's prediction");
    rank.matrix.resize(layers, t);
    for (int l = 0; l < layers; ++l) {
        for (int i = 0; i < t; ++i) {
            const core::Prediction& best = lens.top[std::size_t(l)][std::size_t(i)].front();
            top.matrix(l, i) = best.probability;
            top.cellText << paint::tokenLabel(best.text, 8);
            rank.matrix(l, i) = float(std::log10(double(lens.rank(l, i))));
            rank.cellText << QString::number(lens.rank(l, i));
        }
    }
    const QStringList tokens = HeadGridPainter::tokenLabels(result);
    for (MatrixPanel* panel : {&top, &rank}) {
        panel->rowLabels = layerLabels(layers);
        panel->columnLabels = tokens;
        panel->rowAxis = Words::tr("layer");
        panel->columnAxis = Words::tr("position (input token)");
        panel->map = map;
        panel->low = 0.0;
    }
    top.high = std::max(1e-6, double(top.matrix.maxCoeff()));
    top.scaleLabel = Words::tr("probability");
    const double vocabulary = double(result.model->weights.outputEmbedding().rows());
    rank.high = std::max(1.0, std::log10(vocabulary));
    rank.scaleLabel = Words::tr("log₁₀ rank");
    return {top, rank};
}

std::vector<MatrixPanel> patchingPanels(const core::ActivationPatching& patching, int selectedLayer,
                                        int selectedHead)
{
    std::vector<MatrixPanel> panels;
    const core::ModelResult& corrupt = *patching.runs.corrupt;
    if (patching.heads.size()) {
        MatrixPanel heads;
        heads.title = Words::tr("Each head's output patched");
        heads.matrix = patching.heads;
        heads.rowLabels = layerLabels(int(patching.heads.rows()));
        heads.columnLabels = headLabels(int(patching.heads.cols()));
        heads.highlightRow = selectedLayer;
        heads.highlightColumn = selectedHead;
        panels.push_back(std::move(heads));
    }
    if (patching.positions.size()) {
        MatrixPanel positions;
        positions.title = Words::tr("Residual stream after each layer patched");
        positions.matrix = patching.positions;
        positions.rowLabels = layerLabels(int(patching.positions.rows()));
        // The corrupted tokens, starred where the clean prompt has another.
        const QStringList clean = HeadGridPainter::tokenLabels(*patching.runs.clean);
        positions.columnLabels = HeadGridPainter::tokenLabels(corrupt);
        for (qsizetype i = 0; i < positions.columnLabels.size() && i < clean.size(); ++i)
            if (clean[i] != positions.columnLabels[i])
                positions.columnLabels[i] += QStringLiteral(" *");
        positions.columnAxis =
            Words::tr("position (corrupted token; * where the clean one differs)");
        panels.push_back(std::move(positions));
    }
    // One scale for both, so that a colour means the same fraction in each.
    double extent = 1.0;
    for (const MatrixPanel& panel : panels)
        extent = std::max(extent, double(panel.matrix.cwiseAbs().maxCoeff()));
    for (MatrixPanel& panel : panels) {
        symmetricScale(panel, extent);
        panel.scaleLabel = Words::tr("fraction restored");
        panel.valueDecimals = 2;
    }
    return panels;
}

MatrixPanel attributionPanel(const core::LogitAttribution& attribution, int selectedLayer,
                             int selectedHead)
{
    return headsPanel(Words::tr("Each head's direct share of the logit"), attribution.heads,
                      Words::tr("logit"), selectedLayer, selectedHead);
}

QString patchingMetricText(const core::Model& model, const core::PatchingMetric& metric)
{
    const auto quoted = [&](int id) {
        return QChar(0x201c) + tokenText(model, id) + QChar(0x201d);
    };
    return metric.tokenB >= 0 ? Words::tr("logit(%1) − logit(%2)")
                                    .arg(quoted(metric.tokenA), quoted(metric.tokenB))
                              : Words::tr("p(%1)").arg(quoted(metric.tokenA));
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
    case ModelFigure::LogitLens:
        return Words::tr("%1 · %2 · logit lens%3").arg(name, quotedText(result), edits);
    case ModelFigure::Patching:
        if (source.patching)
            return Words::tr("%1 · activation patching · %2%3")
                .arg(name, patchingMetricText(*result.model, source.patching->runs.metric), edits);
        return Words::tr("%1 · activation patching").arg(name);
    case ModelFigure::Attribution:
        if (source.attribution)
            return Words::tr("%1 · %2 · direct logit attribution to %3%4")
                .arg(name, quotedText(result),
                     paint::tokenLabel(tokenText(*result.model, source.attribution->token)), edits);
        return Words::tr("%1 · direct logit attribution").arg(name);
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
    case ModelFigure::LogitLens:
        if (source.lens)
            paintMatrixPanels(painter, target,
                              logitLensPanels(result, *source.lens, source.colormap), title, font,
                              style, vector);
        break;
    case ModelFigure::Patching:
        if (source.patching)
            paintMatrixPanels(painter, target, patchingPanels(*source.patching, -1, -1), title,
                              font, style, vector);
        break;
    case ModelFigure::Attribution:
        if (source.attribution)
            paintMatrixPanels(painter, target, {attributionPanel(*source.attribution, -1, -1)},
                              title, font, style, vector);
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
    if ((figure == ModelFigure::LogitLens && !source.lens) ||
        (figure == ModelFigure::Patching && !source.patching) ||
        (figure == ModelFigure::Attribution && !source.attribution))
        throw core::Error("the " + modelFigureName(figure).toStdString() +
                          " figure has not been computed");
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
