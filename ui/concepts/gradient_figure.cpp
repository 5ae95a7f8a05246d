#include "ui/concepts/gradient_figure.h"

#include "ui/concepts/concept_plot.h"
#include "ui/figures/figure_builder.h"

#include "core/analysis/softmax_sensitivity.h"
#include "core/error.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(GradientFigure)
};

QString number(double value)
{
    return QLocale().toString(value, 'g', 3);
}

} // namespace

void buildGradientFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec)
{
    if (!source.result)
        throw core::Error("gradient view: there is no result to show yet");
    const core::AttentionResult& result = *source.result;
    const int head = std::clamp(source.head, 0, std::max(0, int(result.heads.size()) - 1));
    const core::ScalingComparison both = core::compareScaling(result, head, source.query);
    const core::Problem& problem = *result.problem;
    const QStringList keys = tokenLabels(problem.keyTokens, 1);
    const QString query = source.query < int(problem.queryTokens.size())
                              ? problem.queryTokens[std::size_t(source.query)].text
                              : QString();

    clearPlot(plot, spec);
    addFigureText(plot, spec, 0,
                  spec.title.isEmpty() ? Words::tr("Why 1/√d_k: head %1, query “%2”, d_k = %3")
                                             .arg(head + 1)
                                             .arg(query)
                                             .arg(problem.weights->dK)
                                       : spec.title,
                  true);
    auto* body = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, body);
    body->setColumnSpacing(int(std::lround(14 * spec.pixelsPerPoint())));
    body->setRowSpacing(int(std::lround(6 * spec.pixelsPerPoint())));

    double top = 0.0; // one colour scale for both Jacobians
    for (const core::SoftmaxSensitivity* s : {&both.unscaled, &both.scaled})
        top = std::max(top, s->jacobian.size() ? double(s->jacobian.cwiseAbs().maxCoeff()) : 0.0);
    top = top > 0.0 ? top : 1.0;

    const std::pair<const core::SoftmaxSensitivity*, QString> columns[] = {
        {&both.unscaled, Words::tr("without 1/√d_k: q·k")},
        {&both.scaled, Words::tr("with 1/√d_k: q·k / √%1").arg(problem.weights->dK)}};
    auto* margins = new QCPMarginGroup(&plot);
    for (int c = 0; c < 2; ++c) {
        const core::SoftmaxSensitivity& s = *columns[c].first;
        auto* heading = new QCPTextElement(&plot, columns[c].second,
                                           figureFont(plot, spec, spec.fontPoints * 1.05, true));
        heading->setTextColor(spec.style.text);
        body->addElement(0, c, heading);

        QCPAxisRect* histogram =
            addAxisRect(plot, spec, body, 1, c,
                        Words::tr("score (σ = %1)").arg(number(s.histogram.standardDeviation)),
                        Words::tr("count"));
        auto* bars =
            new QCPBars(histogram->axis(QCPAxis::atBottom), histogram->axis(QCPAxis::atLeft));
        const core::Histogram& h = s.histogram;
        QVector<double> centres, counts;
        for (int b = 0; b < int(h.counts.size()); ++b) {
            centres << h.binCenter(b);
            counts << h.counts[std::size_t(b)];
        }
        bars->setData(centres, counts, true);
        bars->setWidth(h.binWidth());
        bars->setPen(Qt::NoPen);
        bars->setBrush(colorAt(spec.style.signedColormap, 0.2));
        histogram->axis(QCPAxis::atBottom)->setRange(h.low, h.high);
        const int tallest =
            h.counts.empty() ? 1 : *std::max_element(h.counts.begin(), h.counts.end());
        histogram->axis(QCPAxis::atLeft)->setRange(0, std::max(1, tallest) * 1.1);
        // The focused query's own scores, as marks on the axis.
        auto* marks =
            new QCPGraph(histogram->axis(QCPAxis::atBottom), histogram->axis(QCPAxis::atLeft));
        QVector<double> x, y;
        for (std::size_t j = 0; j < s.scores.size(); ++j)
            if (!s.masked[j] && std::isfinite(s.scores[j])) {
                x << s.scores[j];
                y << 0.0;
            }
        marks->setData(x, y);
        marks->setLineStyle(QCPGraph::lsNone);
        marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangle, spec.style.accent,
                                               spec.style.accent, 6 * spec.pixelsPerPoint()));
        histogram->setMarginGroup(QCP::msLeft | QCP::msRight, margins);

        const int n = int(s.jacobian.rows());
        QCPAxisRect* jacobian =
            addAxisRect(plot, spec, body, 2, c, Words::tr("score s_k"), Words::tr("weight w_j"));
        auto* map =
            new QCPColorMap(jacobian->axis(QCPAxis::atBottom), jacobian->axis(QCPAxis::atLeft));
        map->setInterpolate(false);
        map->setTightBoundary(false);
        map->data()->setSize(n, n);
        map->data()->setRange(QCPRange(0, std::max(0, n - 1)), QCPRange(0, std::max(0, n - 1)));
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k)
                map->data()->setCell(k, j, double(s.jacobian(j, k)));
        map->setGradient(colorGradient(spec.style.signedColormap));
        map->setDataRange(QCPRange(-top, top));
        jacobian->axis(QCPAxis::atLeft)
            ->setRangeReversed(true); // first token at the top, as the heatmaps
        jacobian->axis(QCPAxis::atBottom)->setRange(-0.5, n - 0.5);
        jacobian->axis(QCPAxis::atLeft)->setRange(-0.5, n - 0.5);
        setTokenTicks(jacobian->axis(QCPAxis::atBottom), keys, keys.size() > 6 ? 45.0 : 0.0);
        setTokenTicks(jacobian->axis(QCPAxis::atLeft), keys);
        for (QCPAxis* axis : {jacobian->axis(QCPAxis::atBottom), jacobian->axis(QCPAxis::atLeft)})
            axis->grid()->setVisible(false);
        jacobian->setMarginGroup(QCP::msLeft | QCP::msRight, margins);

        auto* numbers = new QCPTextElement(
            &plot,
            Words::tr("‖J‖ = %1\nlargest weight %2 · entropy %3 nats")
                .arg(number(s.jacobianNorm), number(s.maxWeight), number(s.entropy)),
            figureFont(plot, spec, spec.fontPoints));
        numbers->setTextColor(spec.style.text);
        body->addElement(3, c, numbers);
    }
    addColorScale(plot, spec, body, 2, 2, spec.style.signedColormap, -top, top,
                  Words::tr("∂w_j / ∂s_k"));
    body->setRowStretchFactor(1, 0.6);
    body->setRowStretchFactor(2, 1.4);
    body->setColumnStretchFactor(2, 0.01);
    addFigureText(
        plot, spec, 2,
        Words::tr("∂w_j/∂s_k = w_j (δ_jk − w_k): a saturated row passes almost no gradient to its "
                  "scores, which is why the scores are divided by √d_k"),
        false);
}

} // namespace attn::ui
