#pragma once

#include "ui/figures/colormap.h"
#include "ui/figures/figure_spec.h"

#include "core/training/layer_parameters.h"

#include <QStringList>

class QCustomPlot;
class QCPAxisRect;
class QCPColorMap;
class QCPLayoutGrid;

namespace attn::ui {

// One matrix as cells in a concept figure (P, P Pᵀ, a trained head's weights): row 0 at the
// top as in the heatmaps, token labels where given, `map` over [low, high].
struct ConceptHeatmap
{
    QString title;
    QString xLabel;
    QString yLabel;
    QStringList rowLabels;    // empty: row numbers
    QStringList columnLabels; // empty: column numbers
    Colormap map = Colormap::Viridis;
    double low = 0.0;
    double high = 1.0;
};
QCPAxisRect* addConceptHeatmap(QCustomPlot& plot, const FigureSpec& spec, QCPLayoutGrid* grid,
                               int row, int column, const Eigen::Ref<const core::MatrixD>& values,
                               const ConceptHeatmap& how);

// Largest |value|, at least `floor` (a symmetric colour range).
double largestMagnitude(const Eigen::Ref<const core::MatrixD>& values, double floor = 1e-12);

} // namespace attn::ui
