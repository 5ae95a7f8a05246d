#pragma once

#include "ui/figures/colormap.h"
#include "ui/figures/figure_spec.h"

#include "core/matrix.h"

#include <QFont>
#include <QImage>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <array>
#include <optional>
#include <vector>

class QPainter;
class QPaintDevice;

namespace attn::ui {

// A colour map sampled once into 256 colours: the model views colour thousands of cells per
// update (144 heads of T x T), where QColor arithmetic per cell would cost more than the
// forward pass.
class ColourTable
{
public:
    explicit ColourTable(Colormap map = Colormap::Viridis);
    QRgb at(double t) const; // t in [0, 1], clamped; NaN is the first colour
    Colormap map() const { return m_map; }

private:
    Colormap m_map;
    std::array<QRgb, 256> m_colours{};
};

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

// Helpers the model figures share.
namespace paint {

// One pixel of a 96 DPI screen in the painter's device units (thin lines look the same in a
// 300 DPI PNG as on screen).
double unit(const QPainter& painter);
// A font `scale` times as large as `font`.
QFont scaled(const QFont& font, double scale, bool bold = false);
// Cells as an image (row i, column j at pixel (j, i)); NaN cells in `masked`.
QImage cellImage(const core::Matrix& matrix, const ColourTable& colours, double low, double high,
                 const QColor& masked = QColor(0xd9, 0xd9, 0xd9));
// The cells of `matrix` into `rect`: rectangles for vector output of few cells, else an
// image scaled without smoothing (cells, not blur).
void drawCells(QPainter& painter, const QRectF& rect, const core::Matrix& matrix,
               const ColourTable& colours, double low, double high, bool vector);
// A vertical colour bar with its end values and label.
void drawColourBar(QPainter& painter, const QRectF& rect, const ColourTable& colours, double low,
                   double high, const QString& label, const QFont& font, const QColor& text);
// A token as a label: quoted where it has leading or trailing spaces, cut to `maxCharacters`.
QString tokenLabel(const QString& text, int maxCharacters = 14);

} // namespace paint

} // namespace attn::ui
