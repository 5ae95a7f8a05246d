#include "ui/figures/figure_builder.h"

#include "ui/figures/figure_builder_p.h"
#include "ui/figures/heatmap_panel.h"
#include "ui/figures/legible_text.h"

#include "core/enum_names.h"
#include "core/error.h"
#include "core/token_display.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QLocale>
#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::ui {

using core::Matrix;

namespace figure_detail {

// Largest finite |value| over the cells not masked.
double maxAbs(const Matrix& m, const core::Mask* mask)
{
    double max = 0.0;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            const float v = m(i, j);
            if (std::isfinite(v) && !(mask && mask->isMasked(int(i), int(j))))
                max = std::max(max, double(std::abs(v)));
        }
    return max;
}

// A symmetric range for signed matrices, never empty.
double signedRangeTop(double max)
{
    return max > 0.0 && std::isfinite(max) ? max : 1.0;
}

// A number as typeset: a real minus sign, and no "-0.00".
QString formatValue(double value, int precision)
{
    QString text = QLocale::c().toString(value, 'f', precision);
    if (text.startsWith(QLatin1Char('-'))) {
        const bool allZero = std::all_of(text.begin() + 1, text.end(), [](QChar c) {
            return c == QLatin1Char('0') || c == QLatin1Char('.');
        });
        text = allZero ? text.mid(1) : QChar(0x2212) + text.mid(1);
    }
    return text;
}

} // namespace figure_detail

using figure_detail::kMaxValueCells;
using figure_detail::Words;

QString valuesLeftOutMessage()
{
    return Words::tr(
        "Numbers in cells left out: the cells are too small for legible numbers. Make the figure "
        "larger or use fewer decimals.");
}

QStringList tokenLabels(const std::vector<core::Token>& tokens, int block)
{
    constexpr int kMaxLabelCharacters = 18;
    QStringList labels;
    for (std::size_t i = 0; i < tokens.size(); i += std::size_t(std::max(1, block))) {
        QString text = core::tokenDisplayText(tokens[i].text);
        if (text.size() > kMaxLabelCharacters)
            text = text.left(kMaxLabelCharacters - 1) + QChar(0x2026);
        labels.append(text);
    }
    return labels;
}

QString scoreDisplayName(core::ScoreKind kind)
{
    switch (kind) {
    case core::ScoreKind::Dot:
        return Words::tr("dot product");
    case core::ScoreKind::ScaledDot:
        return Words::tr("scaled dot product");
    case core::ScoreKind::Additive:
        return Words::tr("additive");
    case core::ScoreKind::Bilinear:
        return Words::tr("bilinear");
    case core::ScoreKind::Cosine:
        return Words::tr("cosine");
    }
    return {};
}

QString normalizationDisplayName(core::Normalization n)
{
    switch (n) {
    case core::Normalization::Softmax:
        return Words::tr("softmax");
    case core::Normalization::Hard:
        return Words::tr("hard (argmax)");
    case core::Normalization::Relu:
        return QStringLiteral("ReLU");
    case core::Normalization::Sparsemax:
        return Words::tr("sparsemax");
    case core::Normalization::None:
        return Words::tr("no normalization");
    }
    return {};
}

namespace {

// A view's name, followed by ":" and a head ("head:2", "lines:mean") but for "heads".
constexpr core::EnumNames<FigureView, 5> kFigureViewNames{{{FigureView::Head, "head"},
                                                           {FigureView::Heads, "heads"},
                                                           {FigureView::Pipeline, "pipeline"},
                                                           {FigureView::Difference, "difference"},
                                                           {FigureView::Lines, "lines"}}};
constexpr core::EnumNames<WeightScale, 2> kWeightScaleNames{
    {{WeightScale::Fixed, "fixed"}, {WeightScale::Data, "data"}}};

} // namespace

std::optional<WeightScale> parseWeightScale(const QString& name)
{
    return core::enumFromName(kWeightScaleNames, name);
}

QString weightScaleName(WeightScale scale)
{
    return core::enumQName(kWeightScaleNames, scale);
}

bool parseFigureView(const QString& text, FigureView& view, int& headIndex)
{
    const QString name = text.section(QLatin1Char(':'), 0, 0);
    const std::optional<FigureView> kind = core::enumFromName(kFigureViewNames, name);
    if (!kind)
        return false;
    if (name == text) { // "heads"; "pipeline" and "lines" alone are their first head
        if (*kind == FigureView::Pipeline || *kind == FigureView::Lines)
            headIndex = 0;
        else if (*kind != FigureView::Heads)
            return false;
        view = *kind;
        return true;
    }
    if (*kind == FigureView::Heads)
        return false;
    const QString rest = text.mid(name.size() + 1);
    if (rest == QLatin1String("mean")) {
        view = *kind;
        headIndex = -1;
        return *kind != FigureView::Pipeline;
    }
    bool ok = false;
    const int n = rest.toInt(&ok);
    if (!ok || n < 1)
        return false;
    view = *kind;
    headIndex = n - 1;
    return true;
}

QString figureViewName(FigureView view, int headIndex)
{
    const QString name = core::enumQName(kFigureViewNames, view);
    if (view == FigureView::Heads || name.isEmpty())
        return name;
    return name + QLatin1Char(':') +
           (headIndex < 0 ? QStringLiteral("mean") : QString::number(headIndex + 1));
}

FigureBuilder::FigureBuilder(QCustomPlot& plot, const FigureSpec& spec) : m_plot(plot), m_spec(spec)
{
}

QFont FigureBuilder::font(double points, bool bold) const
{
    return figureFont(m_plot, m_spec, points, bold);
}

QString FigureBuilder::headName(int head) const
{
    return head < 0 ? Words::tr("Mean of heads") : Words::tr("Head %1").arg(head + 1);
}

QString FigureBuilder::settingsSummary(const core::Problem& problem)
{
    QStringList parts{scoreDisplayName(problem.score),
                      normalizationDisplayName(problem.normalization)};
    if (problem.temperature != 1.0f && problem.normalization == core::Normalization::Softmax)
        parts.last() += QStringLiteral(" (T = %1)").arg(double(problem.temperature), 0, 'g', 3);
    if (problem.mask.causal)
        parts.append(Words::tr("causal"));
    if (problem.mask.window >= 0)
        parts.append(problem.mask.windowCausal
                         ? Words::tr("window %1 back").arg(problem.mask.window)
                         : Words::tr("window ±%1").arg(problem.mask.window));
    if (problem.mask.padding && std::find(problem.keyIsPadding.begin(), problem.keyIsPadding.end(),
                                          true) != problem.keyIsPadding.end())
        parts.append(Words::tr("padding masked"));
    if (!problem.mask.customCells.empty())
        parts.append(Words::tr("custom mask"));
    return parts.join(QStringLiteral(" · "));
}

const Matrix& FigureBuilder::keep(Matrix matrix)
{
    m_owned.push_back(std::move(matrix));
    return m_owned.back();
}

const Matrix& FigureBuilder::headWeights(const core::AttentionResult& result, int head)
{
    if (head >= 0) {
        if (head >= int(result.heads.size()))
            throw core::Error(QStringLiteral("there is no head %1; the scene has %2")
                                  .arg(head + 1)
                                  .arg(result.heads.size())
                                  .toStdString());
        return result.heads[std::size_t(head)].weights;
    }
    return keep(core::meanOfEnabledHeads(result));
}

void FigureBuilder::build(const core::AttentionResult& result, QSize size,
                          const core::AttentionResult* compare)
{
    if (result.heads.empty())
        throw core::Error("the result has no heads");
    compose(result, size, compare);
    // Labels take their room from the rect they label: fit them, lay out, and fit again for
    // the smaller rect until they settle (a few passes; a small figure on a 1.5-scaled
    // projector needed two).
    for (int pass = 0; pass < 4; ++pass) {
        const bool changed = fitLabels();
        m_plot.replot(QCustomPlot::rpImmediateRefresh);
        if (!changed)
            break;
    }
    centreSquareCells();
    m_plot.replot(QCustomPlot::rpImmediateRefresh);
    if (m_spec.showValues)
        addCellValues();
    // The numbers came after the last layout pass: on screen they need one more paint
    // (exports paint the whole plot themselves).
    m_plot.replot(QCustomPlot::rpQueuedReplot);
}

// Fills the plot with the view's panels and lays them out once at `size`.
void FigureBuilder::compose(const core::AttentionResult& result, QSize size,
                            const core::AttentionResult* compare)
{
    m_plot.clearItems();
    m_plot.clearPlottables();
    m_plot.plotLayout()->clear();
    m_plot.plotLayout()->setRowSpacing(0);
    m_plot.setBackground(m_spec.style.background);
    m_panels.clear();
    m_owned.clear();
    m_result = &result;
    m_valuesLeftOut = false;

    const core::Problem& problem = *result.problem;
    m_mask.reset();
    if (!result.pooling.pooled)
        m_mask = std::make_unique<core::Mask>(problem.makeMask());

    // The title row, then the content grid the views fill.
    const QString summary = settingsSummary(problem);
    QString title = m_spec.title;
    if (title.isEmpty()) {
        switch (m_spec.view) {
        case FigureView::Head:
            title = headName(m_spec.head) + QStringLiteral(" · ") + summary;
            if (m_spec.head < 0 &&
                std::none_of(result.heads.begin(), result.heads.end(),
                             [](const core::HeadResult& h) { return h.enabled; }))
                title = headName(m_spec.head) + Words::tr(" · every head is off");
            break;
        case FigureView::Heads:
            title = Words::tr("All heads · ") + summary;
            break;
        case FigureView::Pipeline:
            title = headName(m_spec.head) + Words::tr(", step by step · ") + summary;
            break;
        case FigureView::Difference:
            break; // named in buildDifference
        case FigureView::Lines:
            break;
        }
    }
    // Row 0 the title, row 1 the body: the panels grid and the colour bar beside it. Spare
    // room becomes the body's margins, so the title keeps the full width.
    m_body = new QCPLayoutGrid;
    m_plot.plotLayout()->addElement(1, 0, m_body);
    m_body->setAutoMargins(QCP::msNone);
    m_body->setColumnSpacing(int(std::lround(8 * m_spec.pixelsPerPoint())));
    m_content = new QCPLayoutGrid;
    m_body->addElement(0, 0, m_content);
    const int gap = int(std::lround(8 * m_spec.pixelsPerPoint()));
    m_content->setRowSpacing(gap);
    m_content->setColumnSpacing(gap);
    m_squareCells = m_spec.view != FigureView::Pipeline;

    switch (m_spec.view) {
    case FigureView::Head:
        buildHead(result);
        break;
    case FigureView::Heads:
        buildHeads(result);
        break;
    case FigureView::Pipeline:
        buildPipeline(result);
        break;
    case FigureView::Difference:
        if (!compare)
            throw core::Error("the difference view needs a second result to compare with");
        buildDifference(result, *compare, size);
        if (title.isEmpty())
            title = m_spec.compareLabel.isEmpty()
                        ? Words::tr("%1 · %2 minus %3")
                              .arg(headName(m_spec.head), settingsSummary(problem),
                                   settingsSummary(*compare->problem))
                        : Words::tr("%1 · %2 minus the same with %3")
                              .arg(headName(m_spec.head), settingsSummary(problem),
                                   m_spec.compareLabel);
        break;
    case FigureView::Lines:
        throw core::Error("the lines view is drawn by buildLinesFigure, not as a heatmap");
    }
    addTitle(title, std::max(1.0, size.width() - 8 * m_spec.pixelsPerPoint()));

    // Lay out at the target size; build() then decides which labels fit, makes cells square
    // and centred, and places the numbers. Exporting lays out again at the same size.
    m_plot.setViewport(QRect(QPoint(0, 0), size));
    m_plot.replot(QCustomPlot::rpImmediateRefresh);
}

void FigureBuilder::addTitle(const QString& text, double width)
{
    // A title wider than the figure (a small figure, a small window) is set at the body's
    // size, then on two lines; only what even two lines cannot hold is cut with an ellipsis.
    QFont titleFont = font(m_spec.fontPoints * 1.2, true);
    QString shown = text;
    if (QFontMetricsF(titleFont).horizontalAdvance(text) > width) {
        titleFont = font(m_spec.fontPoints, true);
        const QFontMetricsF metrics(titleFont);
        if (metrics.horizontalAdvance(text) > width) {
            // The first line takes as many words as fit; the second the rest.
            const QStringList words = text.split(QLatin1Char(' '));
            QString first;
            qsizetype used = 0;
            for (; used < words.size(); ++used) {
                const QString longer =
                    first.isEmpty() ? words[used] : first + QLatin1Char(' ') + words[used];
                if (!first.isEmpty() && metrics.horizontalAdvance(longer) > width)
                    break;
                first = longer;
            }
            const QString rest = words.mid(used).join(QLatin1Char(' '));
            shown = metrics.elidedText(first, Qt::ElideRight, width);
            if (!rest.isEmpty())
                shown += QLatin1Char('\n') + metrics.elidedText(rest, Qt::ElideRight, width);
        }
    }
    auto* title = new QCPTextElement(&m_plot, shown, titleFont);
    title->setTextColor(m_spec.style.text);
    title->setMargins(QMargins(0, 0, 0, int(std::lround(6 * m_spec.pixelsPerPoint()))));
    m_plot.plotLayout()->addElement(0, 0, title);
}

QCPLayoutGrid* FigureBuilder::addPanel(QCPLayoutGrid* parent, int row, int column, Panel panel)
{
    if (!m_spec.showTokenLabels) {
        panel.rowLabels.clear();
        panel.columnLabels.clear();
        panel.rowAxis.clear();
        panel.columnAxis.clear();
    }
    // A panel is a small grid: its title above its axis rect, so each title stays centred
    // over its own matrix. (A grid joins the plot before it is filled: QCustomPlot only
    // initialises children added to a grid that already has its plot.)
    auto* cell = new QCPLayoutGrid;
    parent->addElement(row, column, cell);
    cell->setRowSpacing(0);
    auto* rect = new QCPAxisRect(&m_plot, true);
    if (!panel.title.isEmpty()) {
        auto* title = new QCPTextElement(&m_plot, panel.title, font(m_spec.fontPoints));
        title->setTextColor(m_spec.style.text);
        cell->addElement(0, 0, title);
    }
    cell->addElement(cell->rowCount(), 0, rect); // an empty title row would take half the height

    const Matrix& m = *panel.matrix;
    const int rows = int(m.rows());
    const int cols = int(m.cols());
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    for (QCPAxis* axis : {x, y}) {
        axis->setBasePen(Qt::NoPen);
        axis->setTickPen(Qt::NoPen);
        axis->setSubTickPen(Qt::NoPen);
        axis->setTickLabelFont(font(m_spec.fontPoints * 0.9));
        axis->setTickLabelColor(m_spec.style.text);
        axis->setTickLabelPadding(int(std::lround(3 * m_spec.pixelsPerPoint())));
    }
    for (auto [axis, name] : {std::pair{x, panel.columnAxis}, std::pair{y, panel.rowAxis}}) {
        if (name.isEmpty())
            continue;
        axis->setLabel(name);
        axis->setLabelFont(font(m_spec.fontPoints * 0.9));
        axis->setLabelColor(m_spec.style.text);
        axis->setLabelPadding(int(std::lround(2 * m_spec.pixelsPerPoint())));
    }

    const double nan = std::numeric_limits<double>::quiet_NaN();
    const core::Mask* mask = panel.masked ? m_mask.get() : nullptr;
    core::MatrixD cells(rows, cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            const double value = double(m(i, j));
            const bool grey = panel.isMasked(mask, i, j) || !std::isfinite(value);
            // A log scale has no 0: a zero weight takes the scale's lowest colour.
            cells(i, j) = grey ? nan : panel.log ? std::clamp(value, panel.low, panel.high) : value;
        }
    addHeatmapCells(rect, cells, panel.heatmap(m_spec.style.masked), HeatmapTicks::Given);
    // Greyscale: grey is data, so a masked cell is hatched as well (over the cells).
    if (m_spec.style.hatchMasked && mask && m.size() <= kMaxValueCells)
        for (int i = 0; i < rows; ++i)
            for (int j = 0; j < cols; ++j) {
                if (!panel.isMasked(mask, i, j))
                    continue;
                auto* cell = new QCPItemRect(&m_plot);
                cell->setClipAxisRect(rect);
                for (QCPItemPosition* corner : {cell->topLeft, cell->bottomRight})
                    corner->setAxes(x, y);
                cell->topLeft->setCoords(j - 0.5, i - 0.5);
                cell->bottomRight->setCoords(j + 0.5, i + 0.5);
                cell->setPen(Qt::NoPen);
                cell->setBrush(QBrush(m_spec.style.text, Qt::BDiagPattern));
            }
    panel.rect = rect;
    m_panels.push_back(std::move(panel));
    return cell;
}

QCPLayoutGrid* FigureBuilder::sideHost()
{
    // Only with a colour bar: an empty grid beside the panels still takes a share of the
    // body's height in QCustomPlot's layout, and the panels shrank to a third of the room.
    if (!m_spec.colorBar)
        return nullptr;
    auto* host = new QCPLayoutGrid;
    m_body->addElement(0, 1, host);
    m_body->setColumnStretchFactor(1, 0.01);
    // Half a line above and below the bar: its end labels (the 0 at the bottom) are centred
    // on its ends, and at the body's edge the lower one fell off the page.
    const int half = int(std::ceil(QFontMetricsF(font(m_spec.fontPoints * 0.9)).height() / 2)) + 2;
    host->setAutoMargins(QCP::msNone);
    host->setMargins(QMargins(0, half, 0, half));
    return host;
}

QString FigureBuilder::queryAxisName() const
{
    QString name = m_result->problem->cross ? Words::tr("queries (target)") : Words::tr("queries");
    if (m_result->pooling.pooled && m_result->pooling.rowBlock > 1)
        name += Words::tr(", %1 per row").arg(m_result->pooling.rowBlock);
    return name;
}

QString FigureBuilder::keyAxisName() const
{
    QString name = m_result->problem->cross ? Words::tr("keys (source)") : Words::tr("keys");
    if (m_result->pooling.pooled && m_result->pooling.colBlock > 1)
        name += Words::tr(", %1 per column").arg(m_result->pooling.colBlock);
    return name;
}

} // namespace attn::ui
