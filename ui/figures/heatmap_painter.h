#pragma once

#include "ui/figures/colormap.h"

#include "core/matrix.h"

#include <QColor>
#include <QFont>
#include <QImage>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <array>
#include <functional>

class QPainter;

namespace attn::ui {

// A colour map sampled once into 256 colours: the model views colour thousands of cells per
// update (144 heads of T x T), where QColor arithmetic per cell would cost more than the
// forward pass.
class ColourTable
{
public:
    explicit ColourTable(Colormap map = Colormap::Viridis);
    QRgb at(double t) const; // t in [0, 1], clamped; NaN is the first colour
    // The colour of a cell holding `value` on a linear scale from low to high: what every
    // heatmap's cell is painted (the model grid's, a panel's, a slide's), so one value has one
    // colour wherever it is shown.
    QRgb at(double value, double low, double high) const;
    Colormap map() const { return m_map; }

private:
    Colormap m_map;
    std::array<QRgb, 256> m_colours{};
};

// The figure kit's QPainter heatmaps: how cells, the numbers in them, token labels and colour
// bars are drawn in the model window's grid and panels, the presentation's slides, the key/value
// cache and the sequence-to-sequence figures, on screen and in every exported file alike.
namespace paint {

// One pixel of a 96 DPI screen in the painter's device units (thin lines look the same in a
// 300 DPI PNG as on screen).
double unit(const QPainter& painter);
// A font `scale` times as large as `font`.
QFont scaled(const QFont& font, double scale, bool bold = false);

// Cells as an image (row i, column j at pixel (j, i)): (v - low) / (high - low) through
// `colours`, NaN cells in `masked`.
QImage cellImage(const core::Matrix& matrix, const ColourTable& colours, double low, double high,
                 const QColor& masked = QColor(kMaskedCell));
// An image of cells (one pixel per cell) into `rect`: as rectangles where `rectangles` (SVG and
// PDF keep cells as shapes), else the image scaled without smoothing (cells, not blur).
void drawCellImage(QPainter& painter, const QRectF& rect, const QImage& cells, bool rectangles);
// The cells of `matrix` into `rect`: rectangles for vector output of few cells, else an
// image.
void drawCells(QPainter& painter, const QRectF& rect, const core::Matrix& matrix,
               const ColourTable& colours, double low, double high, bool vector);
// One row of cells into `rect`, each the exact colour of `map` at (v - low) / (high - low),
// clamped: a few dozen cells (a key/value cache's row, an RNN's state), where a colour table
// would round for nothing. `overlap`: each cell drawn that much wider, so no seam shows.
void drawCellRow(QPainter& painter, const QRectF& rect, const core::RowVector& values, Colormap map,
                 double low, double high, double overlap = 0.0);
// One cell of a laid-out figure (a slide's): filled, and hatched where a greyscale theme marks
// masked cells apart from the grey of the data (FigureStyle::hatchMasked).
void fillCell(QPainter& painter, const QRectF& rect, const QColor& fill, bool hatched = false);

// Text centred in each cell of a rows x columns block at `font`, or smaller down to
// smallestLegiblePoints, black or white against the cell's colour (textColorOn); a cell whose
// `background` is invalid (a masked one) gets none. Draws nothing and returns false where even
// the smallest size does not fit a cell.
bool drawCellText(QPainter& painter, const QRectF& cells, int rows, int columns,
                  const std::function<QString(int, int)>& text,
                  const std::function<QColor(int, int)>& background, const QFont& font);

// Every `step`-th label, so that labels `labelHeight` high never overlap at `pitch` per cell.
int labelStep(double pitch, double labelHeight);
// Row labels left of `cells` (rows of equal height), each right-aligned in a box `width` wide
// that ends `gap` before the cells; every `step`-th. `flags`: Qt::TextDontClip lets a long
// label run past its box.
void drawRowLabels(QPainter& painter, const QRectF& cells, const QStringList& labels, int rows,
                   double width, double gap, int step, int flags = 0);
// Column labels under `cells`, reading upwards, each in a box `length` long that starts `gap`
// below the cells and is aligned to its end nearer them, less `inset`; every `step`-th.
void drawColumnLabels(QPainter& painter, const QRectF& cells, const QStringList& labels,
                      int columns, double length, double gap, double inset, int step,
                      int flags = 0);
// A token as a label: quoted where it has leading or trailing spaces, cut to `maxCharacters`.
QString tokenLabel(const QString& text, int maxCharacters = 14);

// A vertical colour bar with its end values and label.
void drawColourBar(QPainter& painter, const QRectF& rect, const ColourTable& colours, double low,
                   double high, const QString& label, const QFont& font, const QColor& text);

} // namespace paint

} // namespace attn::ui
