#pragma once

#include <QString>

#include <algorithm>

namespace attn::ui {

// The smallest text a figure sets, in points: numbers in cells and token labels shrink to
// this before any is left out (the least journals' figure guides accept: the ACS's 4.5 pt;
// Nature asks for 5 to 7 pt).
inline constexpr double kMinimumLegiblePoints = 4.5;

// How small text set at `points` may shrink to fit: to kMinimumLegiblePoints, or to two
// thirds of its size where the whole figure is set smaller than that (a figure asked for at
// 4 pt keeps its numbers at its own scale).
inline double smallestLegiblePoints(double points)
{
    return std::min(kMinimumLegiblePoints, points * 2.0 / 3.0);
}

// What the command line and the export dialog say when a figure leaves its numbers in cells
// out (FigureBuilder::valuesLeftOut).
QString valuesLeftOutMessage();

} // namespace attn::ui
