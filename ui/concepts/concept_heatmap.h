#pragma once

#include "ui/figures/heatmap_panel.h"

#include "core/training/layer_parameters.h"

#include <QString>

class QCustomPlot;
class QCPAxisRect;
class QCPLayoutGrid;

namespace attn::ui {

// One matrix as cells in a concept figure (P, P Pᵀ, a trained head's weights): the figure
// kit's heatmap panel in a concept figure's axes, its title above it; numberPanels writes
// the numbers in.
using ConceptHeatmap = HeatmapPanel;
QCPAxisRect* addConceptHeatmap(QCustomPlot& plot, const FigureSpec& spec, QCPLayoutGrid* grid,
                               int row, int column, const Eigen::Ref<const core::MatrixD>& values,
                               const ConceptHeatmap& how);

// Largest |value|, at least `floor` (a symmetric colour range).
double largestMagnitude(const Eigen::Ref<const core::MatrixD>& values, double floor = 1e-12);

// A difference or cosine for a figure's sentence: 3 significant digits in the locale, an exact
// zero as "0".
QString differenceText(double value);

} // namespace attn::ui
