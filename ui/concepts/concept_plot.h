#pragma once

#include "ui/figures/figure_spec.h"
#include "ui/figures/heatmap_panel.h"

#include <QFont>
#include <QRectF>
#include <QString>

#include <vector>

class QCustomPlot;
class QCPItemText;
class QCPAxisRect;
class QCPLayoutGrid;
class QCPLegend;
class QCPTextElement;

namespace attn::ui {

// What every concept figure shares: a bold title above everything, axes in the style's
// colours; text, tick labels and colour scales come from the figure kit (heatmap_panel.h).

// The plot emptied: no layout elements beyond an empty top grid, no graphs, no items.
void clearPlot(QCustomPlot& plot, const FigureSpec& spec);

// `text` broken into lines at spaces so that none is wider than `width` pixels.
QString wrapText(const QString& text, const QFont& font, double width);

// A text element in row `row` of the plot's top layout (the title: spec.fontPoints * 1.2,
// bold; a note: smaller, muted).
QCPTextElement* addFigureText(QCustomPlot& plot, const FigureSpec& spec, int row,
                              const QString& text, bool title);

// A new axis rect at (row, column) of `grid`, its axes named and styled as the heatmaps'.
QCPAxisRect* addAxisRect(QCustomPlot& plot, const FigureSpec& spec, QCPLayoutGrid* grid, int row,
                         int column, const QString& xLabel, const QString& yLabel);

// A legend in the figure's layout at (`row`, 0), as wide as the figure, its entries two to a
// row in the figure's text colour with no frame: under the panels, it hides no curve.
QCPLegend* addLegendRow(QCustomPlot& plot, const FigureSpec& spec, int row);

// A panel's name above its axis rect (in the rect's top margin, so it stays with the panel).
void setPanelTitle(QCustomPlot& plot, const FigureSpec& spec, QCPAxisRect* rect,
                   const QString& text);

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
