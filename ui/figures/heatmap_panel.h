#pragma once

#include "ui/figures/colormap.h"
#include "ui/figures/figure_spec.h"

#include "core/training/layer_parameters.h" // core::MatrixD

#include <QColor>
#include <QFont>
#include <QString>
#include <QStringList>

#include <vector>

class QCustomPlot;
class QCPAxis;
class QCPAxisRect;
class QCPColorGradient;
class QCPColorMap;
class QCPColorScale;
class QCPItemText;
class QCPLayoutGrid;

// The figure kit's QCustomPlot heatmaps: the cells, their token labels, the numbers in them and
// the colour scale beside them, for FigureBuilder's figures and the concept figures alike.
namespace attn::ui {

// Text set in points at the figure's DPI: pixel-sized, so it scales with the figure.
QFont figureFont(const QCustomPlot& plot, const FigureSpec& spec, double points, bool bold = false);

// One matrix as cells: row 0 at the top, as a matrix is written; `map` over [low, high].
struct HeatmapPanel
{
    QString title;
    QString xLabel; // the axes' names; empty: none
    QString yLabel;
    QStringList rowLabels;    // empty: row numbers (HeatmapTicks::Fitted) or none
    QStringList columnLabels; // empty: column numbers (HeatmapTicks::Fitted) or none
    Colormap map = Colormap::Viridis;
    double low = 0.0;
    double high = 1.0;
    bool log = false; // a logarithmic colour scale (a log scale has no 0: values are clamped)
    QColor masked{};  // the colour of NaN cells; invalid: the map's own

    // Where `value` falls on the map, 0 to 1.
    double position(double value) const;
};

// How a panel's tick labels are chosen.
enum class HeatmapTicks {
    Fitted, // thinned to fit each time the plot is drawn; numbers on a side without labels
    Given,  // every label given, none without; the caller thins them once laid out
};

// The cells of `values` in `rect` (its bottom and left axes): no grid, no blur, the axes
// spanning the cells exactly, token labels as tick labels. The colour map is returned.
QCPColorMap* addHeatmapCells(QCPAxisRect* rect, const Eigen::Ref<const core::MatrixD>& values,
                             const HeatmapPanel& how, HeatmapTicks ticks);

// A number centred in cell (row, column) of a heatmap in `rect`, black or white, whichever
// reads better on the cell's colour: the colour of `map` at `position` (0 to 1).
QCPItemText* addCellNumber(QCustomPlot& plot, QCPAxisRect* rect, int row, int column,
                           const QString& text, const QFont& font, Colormap map, double position);

// A heatmap whose cells get their numbers once the figure is laid out (numberPanels).
struct NumberedPanel
{
    QCPAxisRect* rect = nullptr;
    core::MatrixD values;
    HeatmapPanel how;
};

// Each cell's value written in it (spec.precision significant digits, at 0.8 of the figure's
// text), in every panel of at most 160 cells whose cells hold their widest number: a narrow
// window keeps the colours alone. Lays the plot out first; nothing when !spec.showValues.
void numberPanels(QCustomPlot& plot, const FigureSpec& spec,
                  const std::vector<NumberedPanel>& panels);

// A colour scale for [low, high] of `map` (logarithmic where `log`, NaN in `masked` where
// valid) at (row, column) of `grid`.
QCPColorScale* addColorScale(QCustomPlot& plot, const FigureSpec& spec, QCPLayoutGrid* grid,
                             int row, int column, Colormap map, double low, double high,
                             const QString& label, bool log = false, const QColor& masked = {});

// Lays the plot out at its viewport, as a replot would, so that rects have their sizes.
void layOutPlot(QCustomPlot& plot);

// Every `step`-th of `labels` at integer positions of `axis`, all at once.
void setTickLabels(QCPAxis* axis, const QStringList& labels, int step);

// Whole-number ticks (positions, dimensions), about `count` of them, fewer where their
// labels would crowd the axis as drawn.
void setIntegerTicks(QCPAxis* axis, int count = 8);

// Token labels on an axis at integer positions; where they crowd, every n-th, n chosen
// by tokenTickStep each time the plot is drawn.
void setTokenTicks(QCPAxis* axis, const QStringList& labels, double rotation = 0.0);

// The n for which every n-th of `labels` fits the axis's length as laid out now: a line of
// the tick font each on a vertical or turned axis, the widest label each on an upright one.
int tokenTickStep(const QCPAxis* axis, const QStringList& labels);

} // namespace attn::ui
