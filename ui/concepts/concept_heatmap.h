#pragma once

#include "ui/figures/colormap.h"
#include "ui/figures/figure_spec.h"

#include "core/training/layer_parameters.h"

#include <QStringList>

#include <vector>

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

// A heatmap whose cells get their numbers once the figure is laid out (numberPanels).
struct NumberedPanel
{
    QCPAxisRect* rect = nullptr;
    core::MatrixD values;
    ConceptHeatmap how;
};

// Each cell's value written in it (spec.precision significant digits), black or white on its
// colour, in every panel of at most 160 cells whose cells hold their widest number: a narrow
// window keeps the colours alone. Lays the plot out first; nothing when !spec.showValues.
void numberPanels(QCustomPlot& plot, const FigureSpec& spec,
                  const std::vector<NumberedPanel>& panels);

// Largest |value|, at least `floor` (a symmetric colour range).
double largestMagnitude(const Eigen::Ref<const core::MatrixD>& values, double floor = 1e-12);

// A difference or cosine for a figure's sentence: 3 significant digits in the locale, an exact
// zero as "0".
QString differenceText(double value);

} // namespace attn::ui
