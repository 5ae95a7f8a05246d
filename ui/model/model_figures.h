#pragma once

#include "ui/figures/figure_export.h"
#include "ui/figures/figure_spec.h"
#include "ui/model/matrix_painter.h"

#include "core/model/activation_patching.h"
#include "core/model/logit_attribution.h"
#include "core/model/logit_lens.h"
#include "core/model/model_analysis.h"
#include "core/model/model_result.h"

#include <QByteArray>
#include <QFont>
#include <QSize>
#include <QString>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

class QPainter;

namespace attn::ui {

// The figures of a whole model. One enum, one drawing path: the window's views, its export
// and the command line's --view grid|rollout|predictions --export all paint through
// paintModelFigure (the house's "one renderer for screen and command line").
enum class ModelFigure {
    Grid,        // layers x heads of attention weights
    Rollout,     // attention rollout up to a layer, beside that layer's raw mean
    Predictions, // top-k bars with the change from the unedited model
    Importance,  // head importance by ablation, layers x heads
    LogitLens,   // layers x positions: each layer's top token, the prediction's rank
    Patching,    // the fraction restored, layers x heads and layers x positions
    Attribution, // direct logit attribution, layers x heads
};

std::optional<ModelFigure> parseModelFigure(const QString& name); // "grid", "rollout", ...
QString modelFigureName(ModelFigure figure);

struct ModelFigureSource
{
    std::shared_ptr<const core::ModelResult> result;
    std::shared_ptr<const core::ModelResult> baseline; // the unedited run; may be null
    // Rollout: up to this layer (-1: the last). No figure frames a selected head or layer:
    // what the window has selected is screen state, not part of the figure.
    int layer = -1;
    int focusToken = -1; // the query token the grid highlights
    std::optional<core::HeadImportance> importance;
    std::optional<core::LogitLens> lens;
    std::optional<core::ActivationPatching> patching;
    std::optional<core::LogitAttribution> attribution;
    Colormap colormap = Colormap::Viridis;
    QString title; // empty: the figure's own
    int topK = 10; // rows of the predictions
};

// The rollout (Abnar & Zuidema 2020) of `result` up to `layer`, beside the raw mean of that
// layer's enabled heads (core::attentionRollout, core::meanOfEnabledHeads).
std::vector<MatrixPanel> rolloutPanels(const core::ModelResult& result, int layer, Colormap map);
MatrixPanel importancePanel(const core::HeadImportance& importance, int selectedLayer,
                            int selectedHead);
// The logit lens of `result` (Ecco's rankings): each layer's top token at each position,
// coloured by its probability, beside the rank of the followed token (log scale).
std::vector<MatrixPanel> logitLensPanels(const core::ModelResult& result,
                                         const core::LogitLens& lens, Colormap map);
// The fraction of the metric restored by each head and each position of the residual stream
// (1: the clean run's metric, 0: the corrupted one's), on one diverging scale.
std::vector<MatrixPanel> patchingPanels(const core::ActivationPatching& patching, int selectedLayer,
                                        int selectedHead);
// Each head's direct share of the logit.
MatrixPanel attributionPanel(const core::LogitAttribution& attribution, int selectedLayer,
                             int selectedHead);
// "logit(“ Mary”) − logit(“ John”)" or "p(“ Mary”)".
QString patchingMetricText(const core::Model& model, const core::PatchingMetric& metric);
// The `count` heads whose removal lowers the prediction's log-probability most, most first:
// "1. Layer 2, head 3: 0.42 nats", one a line (ties in layer, then head order).
QString rankedHeadsText(const core::HeadImportance& importance, int count);
QString defaultModelFigureTitle(ModelFigure figure, const ModelFigureSource& source);
// The grid's marks: heads off, and heads whose weights or layer settings are edited.
std::set<std::pair<int, int>> editedHeads(const core::ModelResult& result);

// Paints `figure` into `target` with `font` (in points) and the style's colours; the
// background is not filled. `vector` for SVG and PDF.
void paintModelFigure(QPainter& painter, const QRectF& target, ModelFigure figure,
                      const ModelFigureSource& source, const QFont& font, const FigureStyle& style,
                      bool vector);

// A file of `figure`: PNG of `size` pixels with the DPI in its metadata, SVG and PDF of
// size * 72 / dpi points with text kept as text (as figureBytes does for a head's figures).
// Throws core::Error when the source cannot show the figure (no prediction, no importance, no
// lens, patching or attribution computed).
QByteArray modelFigureBytes(ModelFigure figure, const ModelFigureSource& source, QSize size,
                            double dpi, FigureFormat format, double fontPoints = 10.0);

} // namespace attn::ui
