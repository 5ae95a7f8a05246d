#pragma once

#include "ui/figures/figure_builder.h"

#include "core/mask.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

// What the parts of FigureBuilder share: figure_builder.cpp (the frame, the panels, names),
// figure_colours.cpp (colour maps and bars), figure_views.cpp (each view's panels) and
// figure_fitting.cpp (labels and numbers fitted to the cells). Not used elsewhere.
namespace attn::ui::figure_detail {

// tr() for the figures' words (FigureBuilder is no QObject): lupdate reads the context here.
struct Words
{
    Q_DECLARE_TR_FUNCTIONS(FigureBuilder)
};

// More cells than this and the numbers would be unreadable anyway; also keeps the item
// count (one QCPItemText per number) bounded.
constexpr int kMaxValueCells = 2500;
// Numbers in cells are a quarter of the cell tall, from the figure's number size up to 2.5
// times it: a large cell (a big window, a projector) shows large numbers.
constexpr double kValueToCell = 0.25;
constexpr double kMaxValueScale = 2.5;

// Defined in figure_builder.cpp.
double maxAbs(const core::Matrix& m, const core::Mask* mask);
double signedRangeTop(double max);
QString formatValue(double value, int precision);

} // namespace attn::ui::figure_detail
