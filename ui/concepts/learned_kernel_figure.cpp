#include "ui/concepts/learned_kernel_figure.h"

#include "ui/concepts/concept_heatmap.h"
#include "ui/concepts/concept_plot.h"
#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_builder.h"

#include "core/analysis/learned_kernel.h"
#include "core/scene.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(LearnedKernelFigure)
};

// The data never changes, so neither do the best width and the training: computed once.
struct Comparison
{
    core::RegressionData data = core::RegressionData::chirp();
    core::BestBandwidth best;
    core::LearnedKernel learned;
    core::MatrixD fixedWeights;
    core::MatrixD learnedWeights;
};

const Comparison& comparison()
{
    static const Comparison c = [] {
        Comparison out;
        out.best = core::bestBandwidth(out.data);
        out.learned = core::learnKernelMaps(out.data);
        out.fixedWeights = core::kernelWeights(
            out.data, out.data.x, core::KernelMaps::fixedKernel(out.best.bandwidth), true);
        out.learnedWeights = core::kernelWeights(out.data, out.data.x, out.learned.maps, true);
        return out;
    }();
    return c;
}

QString number(double value, int digits = 3)
{
    return QLocale().toString(value, 'g', digits);
}

QCPGraph* addCurve(QCPAxisRect* rect, const QVector<double>& x, const QVector<double>& y,
                   const QPen& pen, const QString& name)
{
    auto* graph = new QCPGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setData(x, y, true);
    graph->setPen(pen);
    graph->setName(name);
    return graph;
}

} // namespace

std::optional<KernelPart> parseKernelPart(const QString& name)
{
    if (name.isEmpty())
        return KernelPart::Smoother;
    if (name == QLatin1String("learned"))
        return KernelPart::Learned;
    return std::nullopt;
}

QString kernelPartName(KernelPart part)
{
    return part == KernelPart::Learned ? QStringLiteral("learned") : QString();
}

KernelPart kernelPartOf(const core::Scene& scene)
{
    const QString view = scene.view.view;
    if (view.section(QLatin1Char(':'), 0, 0) != conceptViewName(ConceptView::Kernel))
        return KernelPart::Smoother;
    return parseKernelPart(view.section(QLatin1Char(':'), 1)).value_or(KernelPart::Smoother);
}

void buildLearnedKernelFigure(QCustomPlot& plot, const FigureSpec& spec)
{
    const Comparison& c = comparison();
    const core::KernelMaps fixed = core::KernelMaps::fixedKernel(c.best.bandwidth);
    const core::KernelMaps& learned = c.learned.maps;
    const double fixedLoss = c.best.loss;
    const double learnedLoss = c.learned.losses.back();

    clearPlot(plot, spec);
    addFigureText(plot, spec, 0,
                  spec.title.isEmpty() ? Words::tr("A fixed kernel against a learned embedding")
                                       : spec.title,
                  true);
    auto* body = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, body);
    const int gap = int(std::lround(10 * spec.pixelsPerPoint()));
    body->setRowSpacing(gap);
    body->setColumnSpacing(gap);

    // The curves: the data, the chirp without its noise, both smoothers.
    constexpr int samples = 300;
    const double from = c.data.x.front();
    const double to = c.data.x.back();
    std::vector<double> queries;
    for (int n = 0; n < samples; ++n)
        queries.push_back(from + (to - from) * n / (samples - 1));
    const std::vector<double> fixedCurve = core::kernelPredictions(c.data, queries, fixed);
    const std::vector<double> learnedCurve = core::kernelPredictions(c.data, queries, learned);
    QVector<double> qs(queries.begin(), queries.end());
    QVector<double> truth;
    for (double q : queries)
        truth << core::RegressionData::chirpCurve(q);

    QCPAxisRect* fit = addAxisRect(plot, spec, body, 0, 0, Words::tr("x"), Words::tr("y"));
    const double line = 2.2 * spec.style.lineScale;
    // The points under the curves, small: 40 large circles would hide both fits.
    QCPGraph* points =
        addCurve(fit, QVector<double>(c.data.x.begin(), c.data.x.end()),
                 QVector<double>(c.data.y.begin(), c.data.y.end()), QPen(spec.style.text),
                 Words::tr("%1 points (x_j, y_j)").arg(c.data.x.size()));
    points->setLineStyle(QCPGraph::lsNone);
    points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, spec.style.mutedText,
                                            spec.style.mutedText, 4.5 * spec.pixelsPerPoint()));
    QPen truthPen(spec.style.mutedText, 1.4 * spec.style.lineScale, Qt::DashLine);
    addCurve(fit, qs, truth, truthPen, Words::tr("sin(x²) without the noise"));
    addCurve(fit, qs, QVector<double>(fixedCurve.begin(), fixedCurve.end()),
             QPen(colorAt(spec.colormap, 0.3), line),
             Words::tr("fixed kernel, h = %1: error %2")
                 .arg(number(c.best.bandwidth, 2), number(fixedLoss)));
    addCurve(fit, qs, QVector<double>(learnedCurve.begin(), learnedCurve.end()),
             QPen(spec.style.accent, line),
             Words::tr("learned φ_q, φ_k: error %1").arg(number(learnedLoss)));
    fit->axis(QCPAxis::atBottom)->setRange(from - 0.05, to + 0.05);
    fit->axis(QCPAxis::atLeft)->setRange(-1.6, 1.6);
    setPanelTitle(plot, spec, fit, Words::tr("Each point predicted from the others"));

    // The kernel's width along the line: h, against 1 / |φ_k'(x)|.
    QCPAxisRect* width =
        addAxisRect(plot, spec, body, 0, 1, Words::tr("x"), Words::tr("kernel width in x"));
    QVector<double> learnedWidth;
    for (double q : queries)
        learnedWidth << learned.effectiveWidth(q);
    addCurve(width, qs, QVector<double>(samples, c.best.bandwidth),
             QPen(colorAt(spec.colormap, 0.3), line), QString());
    addCurve(width, qs, learnedWidth, QPen(spec.style.accent, line), QString());
    body->setRowStretchFactor(0, 1.4); // the curves need the height more than the cells
    width->axis(QCPAxis::atBottom)->setRange(from, to);
    width->axis(QCPAxis::atLeft)
        ->setRange(0.0, 1.1 * std::max(c.best.bandwidth, *std::max_element(learnedWidth.begin(),
                                                                           learnedWidth.end())));
    setPanelTitle(plot, spec, width, Words::tr("Kernel width: h against 1/|φ_k′(x)|"));

    // Which point each point weighs: the same colour scale for both.
    const double top = std::max(c.fixedWeights.maxCoeff(), c.learnedWeights.maxCoeff());
    ConceptHeatmap how{Words::tr("Fixed kernel: weights w_ij"),
                       Words::tr("key x_j"),
                       Words::tr("query x_i"),
                       {},
                       {},
                       spec.colormap,
                       0.0,
                       top};
    const QCPAxisRect* maps[2] = {
        addConceptHeatmap(plot, spec, body, 1, 0, c.fixedWeights, how),
        nullptr,
    };
    how.title = Words::tr("Learned maps: weights w_ij");
    maps[1] = addConceptHeatmap(plot, spec, body, 1, 1, c.learnedWeights, how);
    // The cells are the points in order of x: ticks at the whole x, not at 40 indices.
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (std::size_t i = 0; i < c.data.x.size(); ++i)
        if (std::abs(c.data.x[i] - std::round(c.data.x[i])) < 1e-9)
            ticker->addTick(double(i), number(c.data.x[i]));
    for (const QCPAxisRect* rect : maps)
        for (QCPAxis::AxisType side : {QCPAxis::atBottom, QCPAxis::atLeft}) {
            rect->axis(side)->setTicker(ticker);
            rect->axis(side)->setTickLabelRotation(0);
        }
    addColorScale(plot, spec, body, 1, 2, spec.colormap, 0.0, top, Words::tr("weight"));

    // One legend for the curves of both top panels, under the figure's body.
    QCPLegend* legend = addLegendRow(plot, spec, 2);
    for (int i = 0; i < plot.plottableCount(); ++i)
        if (plot.plottable(i)->keyAxis() == fit->axis(QCPAxis::atBottom))
            plot.plottable(i)->addToLegend(legend);
    plot.plotLayout()->setRowStretchFactor(2, 0.001);

    addFigureText(plot, spec, 3,
                  Words::tr("Seed 004: a kernel machine tunes its kernel (here the width h, best "
                            "of %1) on a fixed embedding; attention keeps its kernel, softmax of "
                            "−(q − k)² / 2, and learns the embedding φ(x) = w·(x, x²): %2 Adam "
                            "steps from h = 1 gave w_q = (%3, %4), w_k = (%5, %6). Its kernel is "
                            "%7 wide at x = %8 and %9 at x = %10: wide where the curve is slow, "
                            "narrow where it is fast.")
                      .arg(core::kBandwidthSamples)
                      .arg(int(c.learned.losses.size()) - 1)
                      .arg(number(learned.query[0]), number(learned.query[1]),
                           number(learned.key[0]), number(learned.key[1]),
                           number(learned.effectiveWidth(from), 2), number(from),
                           number(learned.effectiveWidth(to), 2), number(to)),
                  false);
    finishFigure(plot);
}

} // namespace attn::ui
