#include "ui/concepts/concept_heatmap.h"

#include "ui/concepts/concept_plot.h"

#include <QLocale>

#include <algorithm>

namespace attn::ui {

QCPAxisRect* addConceptHeatmap(QCustomPlot& plot, const FigureSpec& spec, QCPLayoutGrid* grid,
                               int row, int column, const Eigen::Ref<const core::MatrixD>& values,
                               const ConceptHeatmap& how)
{
    QCPAxisRect* rect = addAxisRect(plot, spec, grid, row, column, how.xLabel, how.yLabel);
    addHeatmapCells(rect, values, how, HeatmapTicks::Fitted);
    if (!how.title.isEmpty())
        setPanelTitle(plot, spec, rect, how.title);
    return rect;
}

QString differenceText(double value)
{
    return value == 0.0 ? QStringLiteral("0") : QLocale().toString(value, 'g', 3);
}

double largestMagnitude(const Eigen::Ref<const core::MatrixD>& values, double floor)
{
    return values.size() ? std::max(floor, values.cwiseAbs().maxCoeff()) : floor;
}

} // namespace attn::ui
