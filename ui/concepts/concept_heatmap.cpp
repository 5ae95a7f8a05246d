#include "ui/concepts/concept_heatmap.h"

#include "ui/concepts/concept_plot.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace attn::ui {

QCPAxisRect* addConceptHeatmap(QCustomPlot& plot, const FigureSpec& spec, QCPLayoutGrid* grid,
                               int row, int column, const Eigen::Ref<const core::MatrixD>& values,
                               const ConceptHeatmap& how)
{
    QCPAxisRect* rect = addAxisRect(plot, spec, grid, row, column, how.xLabel, how.yLabel);
    auto* map = new QCPColorMap(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    const int rows = int(values.rows());
    const int cols = int(values.cols());
    map->setInterpolate(false);
    map->setTightBoundary(false);
    map->data()->setSize(cols, rows);
    map->data()->setRange(QCPRange(0, std::max(0, cols - 1)), QCPRange(0, std::max(0, rows - 1)));
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            map->data()->setCell(j, i, values(i, j));
    map->setGradient(colorGradient(how.map));
    map->setDataRange(QCPRange(how.low, how.high));
    map->setName(how.title);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    y->setRangeReversed(true);
    x->setRange(-0.5, cols - 0.5);
    y->setRange(-0.5, rows - 0.5);
    x->grid()->setVisible(false);
    y->grid()->setVisible(false);
    if (!how.columnLabels.isEmpty())
        setTokenTicks(x, how.columnLabels, how.columnLabels.size() > 6 ? 45.0 : 0.0);
    if (!how.rowLabels.isEmpty())
        setTokenTicks(y, how.rowLabels);
    if (how.columnLabels.isEmpty())
        setIntegerTicks(x);
    if (how.rowLabels.isEmpty())
        setIntegerTicks(y);
    if (!how.title.isEmpty())
        setPanelTitle(plot, spec, rect, how.title);
    return rect;
}

double largestMagnitude(const Eigen::Ref<const core::MatrixD>& values, double floor)
{
    return values.size() ? std::max(floor, values.cwiseAbs().maxCoeff()) : floor;
}

} // namespace attn::ui
