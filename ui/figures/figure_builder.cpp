#include "ui/figures/figure_builder.h"

#include "ui/figures/legible_text.h"

#include "core/analysis/scene_comparison.h"
#include "core/error.h"
#include "core/token_display.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLocale>
#include <algorithm>
#include <cmath>

namespace attn::ui {

namespace {

// tr() for the figures' words (FigureBuilder is no QObject): lupdate reads the context here.
struct Words
{
    Q_DECLARE_TR_FUNCTIONS(FigureBuilder)
};

} // namespace

using core::Matrix;

namespace {

// More cells than this and the numbers would be unreadable anyway; also keeps the item
// count (one QCPItemText per number) bounded.
constexpr int kMaxValueCells = 2500;
// Numbers in cells are a quarter of the cell tall, from the figure's number size up to 2.5
// times it: a large cell (a big window, a projector) shows large numbers.
constexpr double kValueToCell = 0.25;
constexpr double kMaxValueScale = 2.5;

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

// A round number at or above `value` (0.0734 -> 0.08), for a colour range scaled to the data.
double niceCeil(double value)
{
    if (!(value > 0.0) || !std::isfinite(value))
        return 1.0;
    const double step = std::pow(10.0, std::floor(std::log10(value)));
    return std::ceil(value / step - 1e-9) * step;
}

// Smallest finite weight above 0 and largest finite weight, over every matrix given.
std::pair<double, double> positiveRange(const std::vector<const Matrix*>& matrices)
{
    double low = std::numeric_limits<double>::infinity();
    double high = 0.0;
    for (const Matrix* m : matrices)
        for (Eigen::Index i = 0; i < m->size(); ++i) {
            const double v = double(m->data()[i]);
            if (!std::isfinite(v))
                continue;
            if (v > 0.0)
                low = std::min(low, v);
            high = std::max(high, v);
        }
    return {low, high};
}

// A symmetric range for signed matrices, never empty.
double signedRangeTop(double max)
{
    return max > 0.0 && std::isfinite(max) ? max : 1.0;
}

} // namespace

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

void setTickLabels(QCPAxis* axis, const QStringList& labels, int step)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (qsizetype i = 0; i < labels.size(); i += step)
        ticker->addTick(double(i), labels[i]);
    axis->setTicker(ticker);
    axis->setTickLabels(!labels.isEmpty());
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

} // namespace

std::optional<WeightScale> parseWeightScale(const QString& name)
{
    if (name == QLatin1String("fixed"))
        return WeightScale::Fixed;
    if (name == QLatin1String("data"))
        return WeightScale::Data;
    return std::nullopt;
}

QString weightScaleName(WeightScale scale)
{
    return scale == WeightScale::Data ? QStringLiteral("data") : QStringLiteral("fixed");
}

bool parseFigureView(const QString& text, FigureView& view, int& headIndex)
{
    if (text == QLatin1String("heads")) {
        view = FigureView::Heads;
        return true;
    }
    if (text == QLatin1String("pipeline") || text == QLatin1String("lines")) {
        view = text == QLatin1String("lines") ? FigureView::Lines : FigureView::Pipeline;
        headIndex = 0;
        return true;
    }
    for (auto [prefix, kind] : {std::pair{QLatin1String("head:"), FigureView::Head},
                                std::pair{QLatin1String("pipeline:"), FigureView::Pipeline},
                                std::pair{QLatin1String("difference:"), FigureView::Difference},
                                std::pair{QLatin1String("lines:"), FigureView::Lines}}) {
        if (!text.startsWith(prefix))
            continue;
        const QString rest = text.mid(prefix.size());
        if (rest == QLatin1String("mean")) {
            view = kind;
            headIndex = -1;
            return kind != FigureView::Pipeline;
        }
        bool ok = false;
        const int n = rest.toInt(&ok);
        if (!ok || n < 1)
            return false;
        view = kind;
        headIndex = n - 1;
        return true;
    }
    return false;
}

QString figureViewName(FigureView view, int headIndex)
{
    const QString head = headIndex < 0 ? QStringLiteral("mean") : QString::number(headIndex + 1);
    switch (view) {
    case FigureView::Head:
        return QStringLiteral("head:") + head;
    case FigureView::Heads:
        return QStringLiteral("heads");
    case FigureView::Pipeline:
        return QStringLiteral("pipeline:") + head;
    case FigureView::Difference:
        return QStringLiteral("difference:") + head;
    case FigureView::Lines:
        return QStringLiteral("lines:") + head;
    }
    return {};
}

FigureBuilder::FigureBuilder(QCustomPlot& plot, const FigureSpec& spec) : m_plot(plot), m_spec(spec)
{
}

QFont FigureBuilder::font(double points, bool bold) const
{
    QFont f = m_plot.font();
    f.setPixelSize(std::max(1, int(std::lround(points * m_spec.pixelsPerPoint()))));
    f.setBold(bold);
    // A hair of letter spacing turns ligatures off (Qt keeps them where a script needs
    // them), so "off" stays o-f-f in a PDF and the labels can be searched and copied.
    f.setLetterSpacing(QFont::AbsoluteSpacing, 0.05); // (Qt keeps 1/64 px steps)
    return f;
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

QCPColorGradient FigureBuilder::gradient(Colormap map) const
{
    QCPColorGradient g = colorGradient(map);
    g.setNanColor(m_spec.style.masked);
    return g;
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
        axis->grid()->setVisible(false);
        axis->setBasePen(Qt::NoPen);
        axis->setTickPen(Qt::NoPen);
        axis->setSubTickPen(Qt::NoPen);
        axis->setTickLabelFont(font(m_spec.fontPoints * 0.9));
        axis->setTickLabelColor(m_spec.style.text);
        axis->setTickLabelPadding(int(std::lround(3 * m_spec.pixelsPerPoint())));
    }
    x->setRange(-0.5, cols - 0.5);
    y->setRange(-0.5, rows - 0.5);
    y->setRangeReversed(true); // query 1 at the top, as a matrix is written
    setTickLabels(x, panel.columnLabels, 1);
    setTickLabels(y, panel.rowLabels, 1);
    for (auto [axis, name] : {std::pair{x, panel.columnAxis}, std::pair{y, panel.rowAxis}}) {
        if (name.isEmpty())
            continue;
        axis->setLabel(name);
        axis->setLabelFont(font(m_spec.fontPoints * 0.9));
        axis->setLabelColor(m_spec.style.text);
        axis->setLabelPadding(int(std::lround(2 * m_spec.pixelsPerPoint())));
    }

    auto* map = new QCPColorMap(x, y);
    map->setInterpolate(false); // cells, not a blur
    map->setTightBoundary(false);
    map->data()->setSize(cols, rows);
    map->data()->setRange(QCPRange(0, std::max(0, cols - 1)), QCPRange(0, std::max(0, rows - 1)));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const core::Mask* mask = panel.masked ? m_mask.get() : nullptr;
    const bool hatch = m_spec.style.hatchMasked && mask && m.size() <= kMaxValueCells;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            const double value = double(m(i, j));
            const bool masked = panel.isMasked(mask, i, j);
            const bool grey = masked || !std::isfinite(value);
            // A log scale has no 0: a zero weight takes the scale's lowest colour.
            map->data()->setCell(j, i,
                                 grey        ? nan
                                 : panel.log ? std::clamp(value, panel.low, panel.high)
                                             : value);
            if (hatch && masked) {
                // Greyscale: grey is data, so a masked cell is hatched as well.
                auto* cell = new QCPItemRect(&m_plot);
                cell->setClipAxisRect(rect);
                for (QCPItemPosition* corner : {cell->topLeft, cell->bottomRight})
                    corner->setAxes(x, y);
                cell->topLeft->setCoords(j - 0.5, i - 0.5);
                cell->bottomRight->setCoords(j + 0.5, i + 0.5);
                cell->setPen(Qt::NoPen);
                cell->setBrush(QBrush(m_spec.style.text, Qt::BDiagPattern));
            }
        }
    map->setGradient(gradient(panel.map));
    if (panel.log)
        map->setDataScaleType(QCPAxis::stLogarithmic);
    map->setDataRange(QCPRange(panel.low, panel.high));
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

QCPColorScale* FigureBuilder::addColorScale(QCPLayoutGrid* host, Colormap map, double low,
                                            double high, const QString& label, bool log)
{
    if (!m_spec.colorBar || !host)
        return nullptr;
    auto* scale = new QCPColorScale(&m_plot);
    host->addElement(std::max(0, host->rowCount() - 1), host->columnCount(),
                     scale); // beside a panel's matrix
    scale->setType(QCPAxis::atRight);
    scale->setGradient(gradient(map));
    if (log)
        scale->setDataScaleType(QCPAxis::stLogarithmic);
    scale->setDataRange(QCPRange(low, high));
    scale->setBarWidth(int(std::lround(10 * m_spec.pixelsPerPoint())));
    scale->setRangeDrag(false);
    scale->setRangeZoom(false);
    QCPAxis* axis = scale->axis();
    axis->setTickLabelFont(font(m_spec.fontPoints * 0.9));
    axis->setLabelFont(font(m_spec.fontPoints * 0.9));
    axis->setLabel(label);
    axis->setTickLabelColor(m_spec.style.text);
    axis->setLabelColor(m_spec.style.text);
    axis->setBasePen(Qt::NoPen);
    axis->setTickPen(QPen(m_spec.style.text));
    axis->setSubTickPen(Qt::NoPen);
    axis->setNumberFormat(QStringLiteral("g"));
    if (log) { // 10^-4 ... 1, one tick a decade
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        ticker->setSubTickCount(0);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
    }
    // The bar spans exactly the matrix beside it.
    auto* group = new QCPMarginGroup(&m_plot);
    scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    for (const Panel& panel : m_panels)
        if (panel.rect && panel.rect->layout() == host)
            panel.rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    return scale;
}

void FigureBuilder::addColorScale(QCPLayoutGrid* host, const WeightColours& colours)
{
    addColorScale(host, colours.map, colours.low, colours.high, colours.label, colours.log);
}

WeightColours FigureBuilder::weightColours(const std::vector<const Matrix*>& weights) const
{
    return ui::weightColours(*m_result, weights, m_spec.weightScale, m_spec.colormap,
                             m_spec.style.signedColormap);
}

WeightColours weightColours(const core::AttentionResult& result,
                            const std::vector<const core::Matrix*>& weights, WeightScale scale,
                            Colormap map, Colormap signedMap)
{
    const core::Problem& problem = *result.problem;
    const bool data = scale == WeightScale::Data;
    WeightColours c;
    c.map = map;
    if (problem.normalization == core::Normalization::None) {
        // Not normalized: the weights are the scaled scores, of any sign and size; no fixed
        // range would fit them.
        double top = 0.0;
        for (const Matrix* m : weights)
            top = std::max(top, maxAbs(*m, nullptr));
        top = signedRangeTop(top);
        c.map = signedMap;
        c.low = -top;
        c.high = top;
        c.label = Words::tr("weight (not normalized) · scaled to the data");
        return c;
    }
    const auto [smallest, largest] = positiveRange(weights);
    const int keys = std::max(1, problem.keyCount());
    if (result.pooling.pooled || keys > kLogScaleKeys) {
        // Long inputs: weights near 1/T are one dark colour on a linear 0-1 scale (a 3,000-token
        // sentence came out almost uniformly dark). A log scale from a decade below uniform
        // attention (1/T) up to 1 shows where attention goes; pooled cells show the largest weight
        // of their block, so one sharp weight is not averaged away.
        const double uniformFloor = std::pow(10.0, std::floor(std::log10(0.1 / keys)));
        c.log = true;
        c.high = data && largest > 0.0 ? std::min(1.0, niceCeil(largest)) : 1.0;
        c.low = uniformFloor;
        if (data && std::isfinite(smallest))
            c.low = std::max(uniformFloor * 1e-3, std::pow(10.0, std::floor(std::log10(smallest))));
        if (c.low >= c.high)
            c.low = c.high / 10.0;
        QString what = Words::tr("attention weight");
        if (result.pooling.pooled)
            what = Words::tr("%1 weight of each %2 × %3 block")
                       .arg(result.pooling.mode == core::PoolMode::Max ? Words::tr("largest")
                                                                       : Words::tr("mean"))
                       .arg(result.pooling.rowBlock)
                       .arg(result.pooling.colBlock);
        c.label = what + (data ? Words::tr(" · log scale, scaled to the data")
                               : Words::tr(" · log scale"));
        return c;
    }
    c.high = data && largest > 0.0 ? niceCeil(largest) : 1.0;
    c.label = data ? Words::tr("attention weight · scaled to the data")
                   : Words::tr("attention weight · fixed scale 0 to 1");
    return c;
}

double WeightColours::position(double value) const
{
    if (!(high > low))
        return 0.0;
    if (log)
        return std::log(std::clamp(value, low, high) / low) / std::log(high / low);
    return std::clamp((value - low) / (high - low), 0.0, 1.0);
}

void FigureBuilder::setWeightColours(Panel& panel, const WeightColours& colours) const
{
    panel.map = colours.map;
    panel.low = colours.low;
    panel.high = colours.high;
    panel.log = colours.log;
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

void FigureBuilder::buildHead(const core::AttentionResult& result)
{
    const Matrix& weights = headWeights(result, m_spec.head);
    const WeightColours colours = weightColours({&weights});
    Panel panel;
    panel.matrix = &weights;
    panel.rowLabels = tokenLabels(result.problem->queryTokens, result.pooling.rowBlock);
    panel.columnLabels = tokenLabels(result.problem->keyTokens, result.pooling.colBlock);
    panel.rowAxis = queryAxisName();
    panel.columnAxis = keyAxisName();
    panel.name = QStringLiteral("weights");
    panel.head = m_spec.head;
    setWeightColours(panel, colours);
    panel.masked = true;
    orient(panel);
    QCPLayoutGrid* cell = addPanel(m_content, 0, 0, std::move(panel));
    addColorScale(cell, colours);
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
    Panel panel;
    panel.matrix = &difference;
    panel.rowLabels = tokenLabels(result.problem->queryTokens, result.pooling.rowBlock);
    panel.columnLabels = tokenLabels(result.problem->keyTokens, result.pooling.colBlock);
    panel.rowAxis = queryAxisName();
    panel.columnAxis = keyAxisName();
    panel.name = QStringLiteral("difference");
    panel.head = m_spec.head;
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

QCPAxisRect* FigureBuilder::panelRect(const QString& matrix, int head) const
{
    for (const Panel& panel : m_panels)
        if (panel.name == matrix && panel.head == head)
            return panel.rect;
    return nullptr;
}

double FigureBuilder::cellPixels(const Panel& panel) const
{
    const QRect r = panel.rect->rect();
    return std::min(double(r.width()) / double(panel.matrix->cols()),
                    double(r.height()) / double(panel.matrix->rows()));
}

bool FigureBuilder::fitLabels()
{
    bool changed = false;
    // Square cells end up the size of the smallest panel's, whatever the rect's aspect:
    // thin the labels for that size, or a wide rect leaves its row labels overlapping.
    double square = std::numeric_limits<double>::max();
    if (m_squareCells)
        for (const Panel& panel : m_panels)
            square = std::min(square, cellPixels(panel));
    for (Panel& panel : m_panels) {
        const QRect r = panel.rect->rect();
        const double rowPixels =
            std::min(square, double(r.height()) / double(panel.matrix->rows()));
        const double cell =
            std::min(square, double(r.width()) / double(panel.matrix->cols())); // a column's width
        QCPAxis* x = panel.rect->axis(QCPAxis::atBottom);
        QCPAxis* y = panel.rect->axis(QCPAxis::atLeft);
        // Rows or columns too narrow for a line of text: a smaller font, down to the legible
        // minimum, where that names every token (a grid of heads was labelled every other
        // token); else the labels are thinned at the size they have. Only ever smaller, so
        // the passes settle.
        const double pitch = std::min(panel.rowLabels.isEmpty() ? rowPixels * 2 : rowPixels,
                                      panel.columnLabels.isEmpty() ? cell * 2 : cell);
        QFont tickFont = x->tickLabelFont();
        if (QFontMetricsF(tickFont).height() * 1.05 > pitch && tickFont.pixelSize() > 0) {
            const double ppp = m_spec.pixelsPerPoint();
            const int smallest =
                int(std::ceil(smallestLegiblePoints(tickFont.pixelSize() / ppp) * ppp));
            QFont smaller = tickFont;
            for (int pixels = tickFont.pixelSize() - 1; pixels >= smallest; --pixels) {
                smaller.setPixelSize(pixels);
                if (QFontMetricsF(smaller).height() * 1.05 <= pitch) {
                    tickFont = smaller;
                    x->setTickLabelFont(tickFont);
                    y->setTickLabelFont(tickFont);
                    changed = true;
                    break;
                }
            }
        }
        const QFontMetricsF metrics(tickFont);
        const double line = metrics.height();
        // Rows: one line of text per shown label.
        const int rowStep = std::max(1, int(std::ceil(line * 1.05 / std::max(rowPixels, 1e-3))));
        setTickLabels(y, panel.rowLabels, rowStep);
        double widest = 0.0;
        for (const QString& label : panel.columnLabels)
            widest = std::max(widest, metrics.horizontalAdvance(label));
        int columnStep = 1;
        double rotation = 0.0;
        if (widest + line * 0.5 > cell) {
            // Upright text no longer fits: turn it, and thin it if even that is too dense.
            rotation = cell >= line * 1.6 ? -45 : -90;
            columnStep = std::max(1, int(std::ceil(line * 1.05 / std::max(cell, 1e-3))));
        }
        changed = changed || rotation != x->tickLabelRotation() || rowStep != panel.rowStep ||
                  columnStep != panel.columnStep;
        x->setTickLabelRotation(rotation);
        setTickLabels(x, panel.columnLabels, columnStep);
        panel.rowStep = rowStep;
        panel.columnStep = columnStep;
        panel.labelStep = std::max(rowStep, columnStep);
    }
    return changed;
}

void FigureBuilder::centreSquareCells()
{
    if (m_panels.empty())
        return;
    if (!m_squareCells) // panels of different shapes fill their boxes: rows stay tall enough for
                        // labels
        return;
    // Same-shaped panels in a grid: one cell size for all; the space left over goes to the
    // outer margins, so the figure is centred and the colour bar stays beside the matrix.
    double cell = std::numeric_limits<double>::max();
    for (const Panel& panel : m_panels)
        cell = std::min(cell, cellPixels(panel));
    if (!(cell > 0))
        return;
    const int gridColumns = m_content->columnCount();
    const int gridRows = m_content->rowCount();
    const QRect r = m_panels.front().rect->rect();
    const double spareX =
        (r.width() - cell * double(m_panels.front().matrix->cols())) * gridColumns;
    const double spareY = (r.height() - cell * double(m_panels.front().matrix->rows())) * gridRows;
    const int left = int(std::floor(std::max(0.0, spareX) / 2));
    const int top = int(std::floor(std::max(0.0, spareY) / 2));
    m_body->setMargins(QMargins(left, top, left, top));
}

std::optional<QFont> FigureBuilder::valueFont(const Panel& panel) const
{
    const Matrix& m = *panel.matrix;
    if (m.size() > kMaxValueCells)
        return std::nullopt;
    const double cell = cellPixels(panel);
    // The widest number shown: a minus sign only where the matrix has negative cells (it is
    // as wide as two digits, and weights have none).
    double lowest = 0.0;
    for (Eigen::Index k = 0; k < m.size(); ++k)
        if (std::isfinite(m.data()[k]))
            lowest = std::min(lowest, double(m.data()[k]));
    const double largest = maxAbs(m, nullptr);
    const QString widest =
        formatValue(lowest < 0 ? -std::max(largest, -lowest) : largest, m_spec.precision);
    // Numbers grow with the cell (a quarter of its height, up to kMaxValueScale times the
    // figure's size), then shrink to fit, down to the smallest size a printed figure can be read
    // at.
    const double basePoints = m_spec.fontPoints * 0.85;
    double points = std::clamp(cell * kValueToCell / m_spec.pixelsPerPoint(), basePoints,
                               basePoints * kMaxValueScale);
    const double room = 1.1;
    const QFontMetricsF metrics(font(points));
    points *= std::min(
        {1.0, cell / (metrics.horizontalAdvance(widest) * room), cell / (metrics.height() * 1.2)});
    if (points < smallestLegiblePoints(basePoints))
        return std::nullopt;
    return font(points);
}

void FigureBuilder::addCellValues()
{
    std::vector<std::optional<QFont>> fonts;
    for (const Panel& panel : m_panels) {
        fonts.push_back(valueFont(panel));
        m_valuesLeftOut =
            m_valuesLeftOut || (!fonts.back() && panel.matrix->size() <= kMaxValueCells);
    }
    for (std::size_t p = 0; p < m_panels.size(); ++p) {
        const Panel& panel = m_panels[p];
        if (!fonts[p])
            continue;
        const Matrix& m = *panel.matrix;
        QCPAxis* x = panel.rect->axis(QCPAxis::atBottom);
        QCPAxis* y = panel.rect->axis(QCPAxis::atLeft);
        const core::Mask* mask = panel.masked ? m_mask.get() : nullptr;
        for (int i = 0; i < int(m.rows()); ++i)
            for (int j = 0; j < int(m.cols()); ++j) {
                const double value = double(m(i, j));
                if (panel.isMasked(mask, i, j) || !std::isfinite(value))
                    continue;
                const double t =
                    panel.log ? std::log(std::clamp(value, panel.low, panel.high) / panel.low) /
                                    std::log(panel.high / panel.low)
                              : (value - panel.low) / (panel.high - panel.low);
                auto* text = new QCPItemText(&m_plot);
                text->setClipAxisRect(panel.rect);
                text->position->setAxes(x, y);
                text->position->setType(QCPItemPosition::ptPlotCoords);
                text->position->setCoords(j, i);
                text->setPositionAlignment(Qt::AlignCenter);
                text->setFont(*fonts[p]);
                text->setColor(textColorOn(colorAt(panel.map, t)));
                text->setText(formatValue(value, m_spec.precision));
            }
    }
}

std::optional<FigureBuilder::Cell> FigureBuilder::cellAt(QPointF pixel) const
{
    for (const Panel& panel : m_panels) {
        if (!panel.rect->rect().contains(pixel.toPoint()))
            continue;
        const int column =
            int(std::lround(panel.rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
        const int row =
            int(std::lround(panel.rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y())));
        if (row < 0 || column < 0 || row >= panel.matrix->rows() || column >= panel.matrix->cols())
            return std::nullopt;
        return Cell{panel.head,      panel.name, row, column, int(&panel - m_panels.data()),
                    panel.transposed};
    }
    return std::nullopt;
}

} // namespace attn::ui
