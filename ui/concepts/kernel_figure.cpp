#include "ui/concepts/kernel_figure.h"

#include "ui/concepts/concept_plot.h"
#include "ui/concepts/learned_kernel_figure.h"
#include "ui/figures/figure_builder.h"

#include "core/attention_result.h"
#include "core/error.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(KernelFigure)
};

QColor curveColour(core::Normalization n, const FigureSpec& spec)
{
    switch (n) {
    case core::Normalization::Softmax:
        return colorAt(spec.colormap, 0.25);
    case core::Normalization::Relu:
        return colorAt(spec.colormap, 0.6);
    case core::Normalization::Sparsemax:
        return colorAt(spec.colormap, 0.85);
    case core::Normalization::Hard:
        return spec.style.accent;
    case core::Normalization::None:
        return spec.style.mutedText;
    }
    return spec.style.text;
}

QString curveName(core::Normalization n, core::SmootherScore score)
{
    const bool distance = score == core::SmootherScore::Distance;
    switch (n) {
    case core::Normalization::Softmax:
        return distance ? Words::tr("softmax: Gaussian kernel (Nadaraya–Watson)")
                        : Words::tr("softmax");
    case core::Normalization::Relu:
        return distance ? Words::tr("ReLU: Epanechnikov kernel") : Words::tr("ReLU");
    case core::Normalization::Sparsemax:
        return Words::tr("sparsemax");
    case core::Normalization::Hard:
        return distance ? Words::tr("hard: nearest neighbour") : Words::tr("hard (argmax)");
    case core::Normalization::None:
        return Words::tr("not normalized");
    }
    return {};
}

QCPLayoutGrid* body(QCustomPlot& plot)
{
    if (plot.plotLayout()->rowCount() > 1)
        if (auto* grid = qobject_cast<QCPLayoutGrid*>(plot.plotLayout()->element(1, 0)))
            return grid;
    auto* grid = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, grid);
    return grid;
}

} // namespace

KernelSetup KernelSetup::defaults()
{
    KernelSetup setup;
    setup.keys = {-3.0, -2.0, -1.2, 0.0, 0.8, 2.0, 3.0};
    setup.values = {-0.1, 0.9, 0.8, -0.4, -0.9, 0.3, 1.0};
    return setup;
}

double bandwidthForTemperature(double temperature)
{
    return std::sqrt(std::max(1e-6, temperature));
}

QCPAxisRect* addKernelPanel(QCustomPlot& plot, const KernelSetup& setup, const FigureSpec& spec)
{
    QCPLayoutGrid* grid = body(plot);
    QCPAxisRect* rect =
        addAxisRect(plot, spec, grid, 0, 0, Words::tr("query q (keys k_j on the same line)"),
                    Words::tr("f(q) = Σ_j w_j(q) v_j"));
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    for (core::Normalization n : setup.normalizations) {
        core::KernelSmootherSettings settings;
        settings.normalization = n;
        settings.score = setup.score;
        settings.bandwidth = setup.bandwidth;
        const core::SmootherCurve curve = core::sweepSmoother(
            setup.keys, setup.values, setup.from, setup.to, kKernelCurveSamples, settings);
        auto* graph = new QCPGraph(x, y);
        graph->setData(QVector<double>(curve.queries.begin(), curve.queries.end()),
                       QVector<double>(curve.estimates.begin(), curve.estimates.end()), true);
        graph->setPen(QPen(curveColour(n, spec), 2.2 * spec.style.lineScale));
        graph->setName(curveName(n, setup.score));
    }
    auto* points = new QCPGraph(x, y);
    points->setName(Words::tr("keys and values (k_j, v_j)"));
    points->setData(QVector<double>(setup.keys.begin(), setup.keys.end()),
                    QVector<double>(setup.values.begin(), setup.values.end()));
    points->setLineStyle(QCPGraph::lsNone);
    points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle,
                                            QPen(spec.style.text, 2 * spec.style.lineScale),
                                            spec.style.background, 9 * spec.pixelsPerPoint()));
    points->setObjectName(QStringLiteral("kernelPoints"));
    x->setRange(setup.from, setup.to);
    double low = *std::min_element(setup.values.begin(), setup.values.end());
    double high = *std::max_element(setup.values.begin(), setup.values.end());
    const double pad = std::max(0.25, 0.15 * (high - low));
    y->setRange(low - pad, high + pad);
    // The legend under the panels, as wide as the figure: inside, it would hide the curves the
    // query sweeps; under this panel alone, its width squeezed the 2-D panel beside it.
    QCPLegend* legend = addLegendRow(plot, spec, 2);
    // Icons as large as the points' circle: the default 32 x 18 pixels drew it over its text.
    const double marker = 9 * spec.pixelsPerPoint();
    legend->setIconSize(int(std::ceil(std::max(32.0, 2.5 * marker))),
                        int(std::ceil(std::max(18.0, marker + 4 * spec.style.lineScale))));
    plot.plotLayout()->setRowStretchFactor(2, 0.001); // the legend's own height
    for (int i = 0; i < plot.plottableCount(); ++i)
        if (plot.plottable(i)->keyAxis() == x)
            plot.plottable(i)->addToLegend(legend);
    setPanelTitle(
        plot, spec, rect,
        Words::tr("On a line: bandwidth h = %1").arg(QLocale().toString(setup.bandwidth, 'g', 3)));
    return rect;
}

void buildKernelFigure(QCustomPlot& plot, const KernelSetup& setup, const ConceptSource& source,
                       const FigureSpec& spec)
{
    clearPlot(plot, spec);
    addFigureText(plot, spec, 0,
                  spec.title.isEmpty() ? Words::tr("Attention as a kernel smoother") : spec.title,
                  true);
    addKernelPanel(plot, setup, spec);
    QCPLayoutGrid* grid = body(plot);
    grid->setColumnSpacing(int(std::lround(14 * spec.pixelsPerPoint())));
    if (source.result && !source.result->pooling.pooled && !source.result->heads.empty()) {
        const int head = std::clamp(source.head, 0, int(source.result->heads.size()) - 1);
        const core::QueryKeyMap map = core::projectQueriesAndKeys(*source.result, head);
        QCPAxisRect* rect =
            addAxisRect(plot, spec, grid, 0, 1, Words::tr("component 1"), Words::tr("component 2"));
        grid->setColumnStretchFactor(0, 1.6); // the line is the figure's point; the plane beside
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        const int query = std::clamp(source.query, 0, std::max(0, int(map.queries.rows()) - 1));
        // The focused query's pull: a line to every key, as strong as its weight.
        for (int j = 0; j < int(map.keys.rows()) && map.queries.rows() > 0; ++j) {
            const double w = double(map.weights(query, j));
            if (!(w > 0.005))
                continue;
            auto* line = new QCPItemLine(&plot);
            line->setClipAxisRect(rect);
            line->start->setAxes(x, y);
            line->end->setAxes(x, y);
            line->start->setCoords(map.queries(query, 0), map.queries(query, 1));
            line->end->setCoords(map.keys(j, 0), map.keys(j, 1));
            QColor c = spec.style.accent;
            c.setAlphaF(std::clamp(0.15 + 0.85 * w, 0.0, 1.0));
            line->setPen(QPen(c, (1.0 + 5.0 * w) * spec.style.lineScale));
        }
        auto scatter = [&](const core::Matrix& m, QCPScatterStyle::ScatterShape shape,
                           const QColor& colour, const std::vector<QString>& tokens,
                           const QString& name) {
            auto* graph = new QCPGraph(x, y);
            QVector<double> xs, ys;
            for (int i = 0; i < int(m.rows()); ++i) {
                xs << m(i, 0);
                ys << m(i, 1);
                auto* text = new QCPItemText(&plot);
                text->setClipAxisRect(rect);
                text->position->setAxes(x, y);
                text->position->setCoords(m(i, 0), m(i, 1));
                text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
                text->setFont(figureFont(plot, spec, spec.fontPoints * 0.8));
                text->setColor(colour);
                text->setText(tokens[std::size_t(i)]);
            }
            graph->setData(xs, ys);
            graph->setLineStyle(QCPGraph::lsNone);
            graph->setScatterStyle(
                QCPScatterStyle(shape, colour, colour, 7 * spec.pixelsPerPoint()));
            graph->setName(name);
            return graph;
        };
        QCPGraph* keys = scatter(map.keys, QCPScatterStyle::ssSquare, colorAt(spec.colormap, 0.3),
                                 map.keyTokens, Words::tr("keys"));
        QCPGraph* queries = scatter(map.queries, QCPScatterStyle::ssDiamond, spec.style.accent,
                                    map.queryTokens, Words::tr("queries"));
        keys->rescaleAxes();
        queries->rescaleAxes(true);
        for (QCPAxis* axis : {x, y}) {
            const QCPRange r = axis->range();
            axis->setRange(r.lower - 0.1 * r.size() - 1e-9, r.upper + 0.2 * r.size() + 1e-9);
        }
        setPanelTitle(
            plot, spec, rect,
            Words::tr("Head %1 in 2-D: “%2” to its keys")
                .arg(head + 1)
                .arg(map.queryTokens.empty() ? QString() : map.queryTokens[std::size_t(query)]));
    }
    addFigureText(
        plot, spec, 3,
        Words::tr("The output is an average of the values, each weighted by a kernel of its key's "
                  "distance to the query; the bandwidth is h = √T"),
        false);
    finishFigure(plot);
}

void buildKernelFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec)
{
    if (source.scene && kernelPartOf(*source.scene) == KernelPart::Learned) {
        buildLearnedKernelFigure(plot, spec);
        return;
    }
    KernelSetup setup = KernelSetup::defaults();
    if (source.scene)
        setup.bandwidth = bandwidthForTemperature(source.scene->temperature);
    buildKernelFigure(plot, setup, source, spec);
}

} // namespace attn::ui
