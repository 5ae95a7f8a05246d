#include "ui/concepts/concept_heatmap.h"

#include "ui/concepts/concept_plot.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

// Numbers are drawn in the cells up to this many cells a panel; larger ones stay colours.
constexpr int kMostNumberedCells = 160;

QString cellText(double value, const FigureSpec& spec)
{
    return QLocale().toString(value, 'g', std::max(1, spec.precision));
}

} // namespace

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

void numberPanels(QCustomPlot& plot, const FigureSpec& spec,
                  const std::vector<NumberedPanel>& panels)
{
    if (!spec.showValues)
        return;
    layOutPlot(plot);
    const QFont font = figureFont(plot, spec, spec.fontPoints * 0.8);
    const QFontMetricsF metrics(font);
    for (const NumberedPanel& panel : panels) {
        const core::MatrixD& values = panel.values;
        if (values.size() == 0 || values.size() > kMostNumberedCells)
            continue;
        double widest = 0.0;
        for (double v : values.reshaped())
            widest = std::max(widest, metrics.horizontalAdvance(cellText(v, spec)));
        if (widest + 2 > panel.rect->width() / double(values.cols()) ||
            metrics.height() > panel.rect->height() / double(values.rows()))
            continue;
        const double span = std::max(panel.how.high - panel.how.low, 1e-12);
        for (int i = 0; i < int(values.rows()); ++i)
            for (int j = 0; j < int(values.cols()); ++j) {
                auto* text = new QCPItemText(&plot);
                text->setClipAxisRect(panel.rect);
                text->setClipToAxisRect(true);
                text->position->setAxisRect(panel.rect);
                text->position->setAxes(panel.rect->axis(QCPAxis::atBottom),
                                        panel.rect->axis(QCPAxis::atLeft));
                text->position->setCoords(j, i);
                text->setFont(font);
                text->setText(cellText(values(i, j), spec));
                const double t = std::clamp((values(i, j) - panel.how.low) / span, 0.0, 1.0);
                text->setColor(textColorOn(colorAt(panel.how.map, t)));
            }
    }
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
