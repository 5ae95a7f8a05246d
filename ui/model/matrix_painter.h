#pragma once

#include "ui/figures/figure_spec.h"
#include "ui/figures/heatmap_painter.h"

#include "core/matrix.h"

#include <QFont>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

class QPainter;

namespace attn::ui {

// One matrix as a heatmap panel of a painted figure: the rollout, the raw per-layer mean, the
// head importance. Labels are drawn as text, so SVG and PDF keep them searchable.
struct MatrixPanel
{
    QString title;
    core::Matrix matrix;
    QStringList rowLabels;    // one per row, or empty
    QStringList columnLabels; // one per column, or empty
    QString rowAxis;          // "query", "layer"
    QString columnAxis;       // "key", "head"
    Colormap map = Colormap::Viridis;
    double low = 0.0;
    double high = 1.0;
    QString scaleLabel;    // under the colour bar
    int highlightRow = -1; // framed (the selected layer, the focus token)
    int highlightColumn = -1;
    int valueDecimals = -1; // >= 0: each cell's number, where the cells hold it legibly
    QStringList cellText;   // row-major, one per cell: drawn in the cells instead of numbers
};

// Where paintMatrixPanels put each panel's cells (for hover and clicks).
struct MatrixPanelsGeometry
{
    std::vector<QRectF> cells; // per panel: the block of cells
    std::vector<int> rows, columns;

    // (panel, row, column) under a point.
    struct Hit
    {
        int panel = -1;
        int row = -1;
        int column = -1;
    };
    std::optional<Hit> hitAt(QPointF point) const;
};

// Side by side, each with its title, labels and its own colour bar, under an optional figure
// title. Cells are drawn as rectangles where `vector` (SVG, PDF) and there are few enough,
// else as one image per panel. Text takes the style's text colour and `font` (in points,
// so it is the same physical size on screen and at any DPI).
MatrixPanelsGeometry paintMatrixPanels(QPainter& painter, const QRectF& target,
                                       const std::vector<MatrixPanel>& panels, const QString& title,
                                       const QFont& font, const FigureStyle& style, bool vector);

} // namespace attn::ui
