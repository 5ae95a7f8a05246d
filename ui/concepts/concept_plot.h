#pragma once

#include "ui/figures/figure_spec.h"

#include <QFont>
#include <QRectF>
#include <QString>

#include <vector>

class QCustomPlot;
class QCPAxis;
class QCPItemText;
class QCPAxisRect;
class QCPColorScale;
class QCPLayoutGrid;
class QCPLegend;
class QCPTextElement;

namespace attn::ui {

// What every concept figure shares with the heatmaps: text set in points at the figure's DPI,
// a bold title above everything, axes in the style's colours, colour scales beside a panel.

// The plot emptied: no layout elements beyond an empty top grid, no graphs, no items.
void clearPlot(QCustomPlot& plot, const FigureSpec& spec);

QFont figureFont(const QCustomPlot& plot, const FigureSpec& spec, double points, bool bold = false);

// `text` broken into lines at spaces so that none is wider than `width` pixels.
QString wrapText(const QString& text, const QFont& font, double width);

// A text element in row `row` of the plot's top layout (the title: spec.fontPoints * 1.2,
// bold; a note: smaller, muted).
QCPTextElement* addFigureText(QCustomPlot& plot, const FigureSpec& spec, int row,
                              const QString& text, bool title);

// A new axis rect at (row, column) of `grid`, its axes named and styled as the heatmaps'.
QCPAxisRect* addAxisRect(QCustomPlot& plot, const FigureSpec& spec, QCPLayoutGrid* grid, int row,
                         int column, const QString& xLabel, const QString& yLabel);

// A colour scale for [low, high] of `map` at (row, column) of `grid`.
QCPColorScale* addColorScale(QCustomPlot& plot, const FigureSpec& spec, QCPLayoutGrid* grid,
                             int row, int column, Colormap map, double low, double high,
                             const QString& label);

// A panel's name above its axis rect (in the rect's top margin, so it stays with the panel).
// A legend in the figure's layout at (`row`, 0), as wide as the figure, its entries two to a
// row in the figure's text colour with no frame: under the panels, it hides no curve.
QCPLegend* addLegendRow(QCustomPlot& plot, const FigureSpec& spec, int row);

void setPanelTitle(QCustomPlot& plot, const FigureSpec& spec, QCPAxisRect* rect,
                   const QString& text);

// Whole-number ticks (positions, dimensions), about `count` of them, fewer where their
// labels would crowd the axis as drawn.
void setIntegerTicks(QCPAxis* axis, int count = 8);

// Token labels on an axis at integer positions; where they crowd, every n-th, n chosen
// by tokenTickStep each time the plot is drawn.
void setTokenTicks(QCPAxis* axis, const QStringList& labels, double rotation = 0.0);

// The n for which every n-th of `labels` fits the axis's length as laid out now: a line of
// the tick font each on a vertical or turned axis, the widest label each on an upright one.
int tokenTickStep(const QCPAxis* axis, const QStringList& labels);

// Lays the plot out at its viewport, as a replot would, so that rects have their sizes.
void layOutPlot(QCustomPlot& plot);

// Where `label` draws: its text (with its padding where `padded`) at its position, in pixels.
QRectF labelRect(const QCPItemText& label, bool padded = false);

// Places point labels of `rect` in the order given (the most important first): each takes
// the first place beside its point where it stays inside the rect and meets no label placed
// before; one that fits nowhere is removed from the plot. The plot must be laid out
// (layOutPlot). Returns how many were removed.
int placeLabels(QCustomPlot& plot, QCPAxisRect* rect, const std::vector<QCPItemText*>& labels);

// The last step of every concept figure: laid out at the viewport, panel titles wrapped to
// their panel's width.
void finishFigure(QCustomPlot& plot);

} // namespace attn::ui
