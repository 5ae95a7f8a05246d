#include "ui/figures/figure_builder.h"

#include "ui/figures/figure_builder_p.h"

#include "core/analysis/scene_comparison.h"
#include "core/error.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

// Each view's panels: one head, all heads, the pipeline of one head, a difference.
namespace attn::ui {

using core::Matrix;

using figure_detail::formatValue;
using figure_detail::maxAbs;
using figure_detail::signedRangeTop;
using figure_detail::Words;

void FigureBuilder::buildHead(const core::AttentionResult& result)
{
    const Matrix& weights = headWeights(result, m_spec.head);
    const WeightColours colours = weightColours({&weights});
    Panel panel = tokenPanel(result, weights, QStringLiteral("weights"));
    setWeightColours(panel, colours);
    panel.masked = true;
    orient(panel);
    QCPLayoutGrid* cell = addPanel(m_content, 0, 0, std::move(panel));
    addColorScale(cell, colours);
}

FigureBuilder::Panel FigureBuilder::tokenPanel(const core::AttentionResult& result,
                                               const Matrix& matrix, const QString& name) const
{
    Panel panel;
    panel.matrix = &matrix;
    panel.rowLabels = tokenLabels(result.problem->queryTokens, result.pooling.rowBlock);
    panel.columnLabels = tokenLabels(result.problem->keyTokens, result.pooling.colBlock);
    panel.rowAxis = queryAxisName();
    panel.columnAxis = keyAxisName();
    panel.name = name;
    panel.head = m_spec.head;
    return panel;
}

void FigureBuilder::orient(Panel& panel)
{
    if (!m_spec.transposed)
        return;
    panel.matrix = &keep(core::orientWeights(*panel.matrix, true));
    std::swap(panel.rowLabels, panel.columnLabels);
    std::swap(panel.rowAxis, panel.columnAxis);
    panel.transposed = true;
}

void FigureBuilder::buildHeads(const core::AttentionResult& result)
{
    const int count = int(result.heads.size());
    const int columns = int(std::ceil(std::sqrt(double(count))));
    const int rows = (count + columns - 1) / columns;
    std::vector<const Matrix*> all;
    for (const core::HeadResult& head : result.heads)
        all.push_back(&head.weights);
    const WeightColours colours = weightColours(all); // one scale for every head
    const QStringList rowLabels = tokenLabels(result.problem->queryTokens, result.pooling.rowBlock);
    const QStringList columnLabels =
        tokenLabels(result.problem->keyTokens, result.pooling.colBlock);
    auto* margins = new QCPMarginGroup(&m_plot); // identical margins: aligned, equal cells
    for (int h = 0; h < count; ++h) {
        Panel panel;
        panel.matrix = &result.heads[std::size_t(h)].weights;
        panel.rowLabels = rowLabels;
        panel.rowAxis = queryAxisName();
        panel.columnLabels = columnLabels;
        panel.columnAxis = keyAxisName();
        orient(panel);
        // Labels on the outer edges only, as a grid of small multiples is read.
        if (h % columns != 0) {
            panel.rowLabels.clear();
            panel.rowAxis.clear();
        }
        if (!(h / columns == rows - 1 || h + columns >= count)) {
            panel.columnLabels.clear();
            panel.columnAxis.clear();
        }
        panel.title =
            headName(h) + (result.heads[std::size_t(h)].enabled ? QString() : Words::tr(" (off)"));
        panel.name = QStringLiteral("weights");
        panel.head = h;
        setWeightColours(panel, colours);
        panel.masked = true;
        addPanel(m_content, h / columns, h % columns, std::move(panel));
        m_panels.back().rect->setMarginGroup(QCP::msAll, margins);
    }
    // One scale for all heads, beside the grid.
    addColorScale(sideHost(), colours);
}

const core::HeadResult& FigureBuilder::pipelineHead(const core::AttentionResult& result) const
{
    if (m_spec.head < 0 || m_spec.head >= int(result.heads.size()))
        throw core::Error(QStringLiteral("the pipeline view shows one head, 1 to %1")
                              .arg(result.heads.size())
                              .toStdString());
    if (!result.intermediatesKept || result.pooling.pooled)
        throw core::Error(
            "the pipeline view needs every intermediate at full size (the input is pooled or "
            "intermediates were not kept)");
    return result.heads[std::size_t(m_spec.head)];
}

void FigureBuilder::buildPipeline(const core::AttentionResult& result)
{
    const core::HeadResult& head = pipelineHead(result);
    const QStringList queries = tokenLabels(result.problem->queryTokens, 1);
    const QStringList keys = tokenLabels(result.problem->keyTokens, 1);
    struct Stage
    {
        const Matrix* matrix;
        QString title;
        QString name;
        const QStringList* rows;
        const QStringList* columns;
        bool weights;
        bool masked;
    };
    const QStringList none;
    // The masked panel holds the scores the softmax gets: divided by √d_k only when scaling is
    // on, and by the temperature (Problem::scoreScale).
    const core::Problem& problem = *result.problem;
    const QString masked = problem.score == core::ScoreKind::ScaledDot ? Words::tr("scaled, masked")
                           : problem.temperature != 1.0f               ? Words::tr("÷ T, masked")
                                                                       : Words::tr("masked");
    const std::vector<Stage> stages = {
        // Short titles: they set the columns' minimum widths, and the T x T panels below
        // share those columns.
        {&result.queryInput(), QStringLiteral("X = E + P"), QStringLiteral("X"), &queries, &none,
         false, false},
        {&head.Q, QStringLiteral("Q"), QStringLiteral("Q"), &queries, &none, false, false},
        {&head.K, QStringLiteral("K"), QStringLiteral("K"), &keys, &none, false, false},
        {&head.V, QStringLiteral("V"), QStringLiteral("V"), &keys, &none, false, false},
        {&head.rawScores, Words::tr("scores"), QStringLiteral("scores"), &queries, &keys, false,
         false},
        {&head.maskedScores, masked, QStringLiteral("masked scores"), &queries, &keys, false, true},
        {&head.weights, Words::tr("weights α"), QStringLiteral("weights"), &queries, &keys, true,
         true},
        {&head.output, Words::tr("output αV"), QStringLiteral("output"), &queries, &none, false,
         false},
    };
    // Each row of panels aligned (their matrices start and end at the same heights), and
    // its rows labelled once, at its start, or again where the row tokens change (K and V
    // of cross-attention): a narrow window keeps room for the matrices.
    QCPMarginGroup* rowGroups[2] = {new QCPMarginGroup(&m_plot), new QCPMarginGroup(&m_plot)};
    for (std::size_t s = 0; s < stages.size(); ++s) {
        const Stage& stage = stages[s];
        Panel panel;
        panel.matrix = stage.matrix;
        const bool rowsChange = s % 4 == 0 || *stage.rows != *stages[s - 1].rows;
        panel.rowLabels = rowsChange ? *stage.rows : none;
        panel.columnLabels = *stage.columns;
        if (!panel.rowLabels.isEmpty())
            panel.rowAxis = stage.rows == &keys ? keyAxisName() : queryAxisName();
        if (!panel.columnLabels.isEmpty())
            panel.columnAxis = keyAxisName();
        panel.name = stage.name;
        panel.head = m_spec.head;
        panel.masked = stage.masked;
        panel.title = stage.title;
        double top = 0.0;
        if (stage.weights) {
            setWeightColours(panel, weightColours({stage.matrix}));
        } else {
            // Signed matrices: a diverging map centred on 0, each panel to its own range (one
            // shared scale would flatten the small ones), which its own bar gives.
            top = signedRangeTop(maxAbs(*stage.matrix, stage.masked ? m_mask.get() : nullptr));
            panel.map = m_spec.style.signedColormap;
            panel.low = -top;
            panel.high = top;
        }
        QCPLayoutGrid* cell = addPanel(m_content, int(s / 4), int(s % 4), std::move(panel));
        QCPAxisRect* rect = m_panels.back().rect;
        QCPColorScale* scale =
            stage.weights ? nullptr
                          : addColorScale(cell, m_spec.style.signedColormap, -top, top, QString());
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, rowGroups[s / 4]);
        if (scale) {
            // A slim bar that names −max, 0 and max: four of them share a row.
            scale->setBarWidth(int(std::lround(5 * m_spec.pixelsPerPoint())));
            QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
            const int precision = top < 10 ? 2 : 0;
            ticker->addTick(-top, formatValue(-top, precision));
            ticker->addTick(0.0, QStringLiteral("0"));
            ticker->addTick(top, formatValue(top, precision));
            scale->axis()->setTicker(ticker);
            scale->setMarginGroup(QCP::msTop | QCP::msBottom, rowGroups[s / 4]);
        }
    }
    addColorScale(sideHost(), weightColours({&head.weights}));
}

void FigureBuilder::buildDifference(const core::AttentionResult& result,
                                    const core::AttentionResult& compare, QSize size)
{
    const Matrix& a = headWeights(result, m_spec.head);
    const Matrix& b = headWeights(compare, m_spec.head);
    if (a.rows() != b.rows() || a.cols() != b.cols())
        throw core::Error("the two results of a difference view must have the same shape");
    const Matrix& difference = keep(a - b);
    Panel panel = tokenPanel(result, difference, QStringLiteral("difference"));
    panel.map = m_spec.style.signedColormap;
    // Grey only what both mask: with the causal mask on against off, the cells it masks are
    // the difference.
    panel.masked = result.problem->mask == compare.problem->mask &&
                   result.problem->keyIsPadding == compare.problem->keyIsPadding;
    // Two normalized weights differ by -1 to 1: a fixed scale compares differences across
    // figures; unnormalized weights have no such bound.
    const bool normalized = result.problem->normalization != core::Normalization::None &&
                            compare.problem->normalization != core::Normalization::None;
    const bool fixed = m_spec.weightScale == WeightScale::Fixed && normalized;
    const double top = fixed ? 1.0 : signedRangeTop(maxAbs(difference, nullptr));
    panel.low = -top;
    panel.high = top;
    panel.title = Words::tr("difference");
    const bool sameMask = panel.masked;
    orient(panel);
    // The difference, then both figures it is made of: three panels of one size (aligned
    // margins, one colour bar each beside them all), so a cell reads across the three. Where
    // three would leave cells of a few pixels (a narrow window), the difference alone.
    constexpr double kMinCellPixels = 10.0;
    const double labels = 260 * m_spec.pixelsPerPoint() / (96.0 / 72.0);
    // A row of panels' height beyond its cells: title, column labels, axis name.
    const double labelsBelow = 150 * m_spec.pixelsPerPoint() / (96.0 / 72.0);
    const double cols = double(difference.cols());
    const double rows = double(difference.rows());
    const double width = size.width() - labels;
    const double height = size.height() - labelsBelow;
    // Three in a row, or two rows of two where that gives larger cells (a tall pane, where a
    // row of three left small maps and most of the pane empty).
    const double inRow = std::min(width / (3 * cols), height / rows);
    const double stackedCell = std::min(width / (2 * cols), (height - labelsBelow) / (2 * rows));
    const bool stacked = stackedCell > inRow;
    const bool roomForThree = width / (3 * cols) >= kMinCellPixels || stackedCell >= kMinCellPixels;
    auto* margins = new QCPMarginGroup(&m_plot);
    QCPLayoutGrid* alone = addPanel(m_content, 0, 0, std::move(panel));
    m_panels.back().rect->setMarginGroup(QCP::msAll, margins);
    const QString scaleLabel = fixed ? Words::tr("difference of weights · fixed scale −1 to 1")
                                     : Words::tr("difference of weights · scaled to the data");
    if (!roomForThree) {
        addColorScale(alone, m_spec.style.signedColormap, -top, top, scaleLabel);
        return;
    }
    const WeightColours colours = weightColours({&a, &b});
    const std::pair<const Matrix*, QString> both[] = {{&a, Words::tr("these weights")},
                                                      {&b, Words::tr("compared weights")}};
    for (int k = 0; k < 2; ++k) {
        Panel weights;
        weights.matrix = both[k].first;
        weights.rowLabels = tokenLabels(result.problem->queryTokens, result.pooling.rowBlock);
        weights.columnLabels = tokenLabels(result.problem->keyTokens, result.pooling.colBlock);
        weights.columnAxis = keyAxisName();
        weights.title = both[k].second;
        // Tooltips describe this result's weights; the compared panel's cells have none.
        weights.name = k == 0 ? QStringLiteral("weights") : QStringLiteral("compared weights");
        weights.head = m_spec.head;
        setWeightColours(weights, colours);
        weights.masked = k == 0 || sameMask; // the compared result's own mask may differ
        orient(weights);
        if (!stacked)
            weights.rowLabels.clear(); // named once, on the difference
        // Stacked: the difference, these weights beside it, the compared ones below these.
        addPanel(m_content, stacked ? k : 0, stacked ? 1 : k + 1, std::move(weights));
        m_panels.back().rect->setMarginGroup(QCP::msAll, margins);
    }
    QCPLayoutGrid* side = sideHost();
    addColorScale(side, m_spec.style.signedColormap, -top, top, scaleLabel);
    addColorScale(side, colours);
}

} // namespace attn::ui
