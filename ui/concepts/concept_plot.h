#pragma once

#include "ui/figures/figure_spec.h"

#include <QFont>
#include <QString>

class QCustomPlot;
class QCPAxis;
class QCPAxisRect;
class QCPColorScale;
class QCPLayoutGrid;
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
void setPanelTitle(QCustomPlot& plot, const FigureSpec& spec, QCPAxisRect* rect,
                   const QString& text);

// Whole-number ticks (positions, dimensions), about `count` of them.
void setIntegerTicks(QCPAxis* axis, int count = 8);

// Token labels on an axis at integer positions (every `step`-th when they crowd).
void setTokenTicks(QCPAxis* axis, const QStringList& labels, double rotation = 0.0);

} // namespace attn::ui
