#include "ui/figures/figure_builder.h"

#include "ui/presentation/presentation_steps.h"

#include "core/error.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QLocale>
#include <algorithm>
#include <cmath>

namespace attn::ui {

using core::Matrix;

namespace {

// More cells than this and the numbers would be unreadable anyway; also keeps the item
// count (one QCPItemText per number) bounded.
constexpr int kMaxValueCells = 2500;

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

// The colour range of weights: [0, 1] when any weight is large, else up to a round number
// above the largest weight, so long inputs (weights near 1/T) are not all one colour.
double weightRangeTop(double maxWeight)
{
    if (maxWeight > 0.5 || maxWeight <= 0.0 || !std::isfinite(maxWeight))
        return 1.0;
    const double step = std::pow(10.0, std::floor(std::log10(maxWeight)));
    return std::ceil(maxWeight / step) * step;
}

// A symmetric range for signed matrices, never empty.
double signedRangeTop(double max)
{
    return max > 0.0 && std::isfinite(max) ? max : 1.0;
}

} // namespace

QStringList tokenLabels(const std::vector<core::Token>& tokens, int block)
{
    constexpr int kMaxLabelCharacters = 18;
    QStringList labels;
    for (std::size_t i = 0; i < tokens.size(); i += std::size_t(std::max(1, block))) {
        QString text = tokens[i].text;
        if (text.size() > kMaxLabelCharacters)
            text = text.left(kMaxLabelCharacters - 1) + QChar(0x2026);
        labels.append(text);
    }
    return labels;
}

QString scoreDisplayName(core::ScoreKind kind)
{
    switch (kind) {
    case core::ScoreKind::Dot: return QStringLiteral("dot product");
    case core::ScoreKind::ScaledDot: return QStringLiteral("scaled dot product");
    case core::ScoreKind::Additive: return QStringLiteral("additive");
    case core::ScoreKind::Bilinear: return QStringLiteral("bilinear");
    case core::ScoreKind::Cosine: return QStringLiteral("cosine");
    }
    return {};
}

QString normalizationDisplayName(core::Normalization n)
{
    switch (n) {
    case core::Normalization::Softmax: return QStringLiteral("softmax");
    case core::Normalization::Hard: return QStringLiteral("hard (argmax)");
    case core::Normalization::Relu: return QStringLiteral("ReLU");
    case core::Normalization::Sparsemax: return QStringLiteral("sparsemax");
    case core::Normalization::None: return QStringLiteral("no normalization");
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
        const bool allZero = std::all_of(text.begin() + 1, text.end(),
                                         [](QChar c) { return c == QLatin1Char('0') || c == QLatin1Char('.'); });
        text = allZero ? text.mid(1) : QChar(0x2212) + text.mid(1);
    }
    return text;
}

} // namespace

bool parseFigureView(const QString& text, FigureView& view, int& headIndex)
{
    if (text == QLatin1String("heads")) {
        view = FigureView::Heads;
        return true;
    }
    if (text == QLatin1String("pipeline")) {
        view = FigureView::Pipeline;
        return true;
    }
    for (auto [prefix, kind] : {std::pair{QLatin1String("head:"), FigureView::Head},
                                std::pair{QLatin1String("pipeline:"), FigureView::Pipeline},
                                std::pair{QLatin1String("difference:"), FigureView::Difference}}) {
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
    case FigureView::Head: return QStringLiteral("head:") + head;
    case FigureView::Heads: return QStringLiteral("heads");
    case FigureView::Pipeline: return QStringLiteral("pipeline:") + head;
    case FigureView::Difference: return QStringLiteral("difference:") + head;
    }
    return {};
}

FigureBuilder::FigureBuilder(QCustomPlot& plot, const FigureSpec& spec) : m_plot(plot), m_spec(spec) {}

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
    return head < 0 ? QStringLiteral("Mean of heads") : QStringLiteral("Head %1").arg(head + 1);
}

QString FigureBuilder::settingsSummary(const core::Problem& problem)
{
    QStringList parts{scoreDisplayName(problem.score), normalizationDisplayName(problem.normalization)};
    if (problem.temperature != 1.0f && problem.normalization == core::Normalization::Softmax)
        parts.last() += QStringLiteral(" (T = %1)").arg(double(problem.temperature), 0, 'g', 3);
    if (problem.mask.causal)
        parts.append(QStringLiteral("causal"));
    if (problem.mask.window >= 0)
        parts.append(problem.mask.windowCausal ? QStringLiteral("window %1 back").arg(problem.mask.window)
                                               : QStringLiteral("window ±%1").arg(problem.mask.window));
    if (problem.mask.padding && std::find(problem.keyIsPadding.begin(), problem.keyIsPadding.end(), true) !=
                                    problem.keyIsPadding.end())
        parts.append(QStringLiteral("padding masked"));
    if (!problem.mask.customCells.empty())
        parts.append(QStringLiteral("custom mask"));
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
    Matrix sum = Matrix::Zero(result.heads.front().weights.rows(), result.heads.front().weights.cols());
    int enabled = 0;
    for (const core::HeadResult& h : result.heads)
        if (h.enabled) {
            sum += h.weights;
            ++enabled;
        }
    return keep(enabled > 0 ? Matrix(sum / float(enabled)) : sum);
}

void FigureBuilder::build(const core::AttentionResult& result, QSize size, const core::AttentionResult* compare)
{
    if (result.heads.empty())
        throw core::Error("the result has no heads");
    m_rowStarts = kConceptualRows;
    compose(result, size, compare);
    if (presentation()) {
        // The rows that give the largest cells at this size, judged on the first layout.
        const std::vector<int> best = bestRowStarts();
        if (best != m_rowStarts) {
            m_rowStarts = best;
            compose(result, size, compare);
        }
        layoutPresentation();
    }
    fitLabels();
    m_plot.replot(QCustomPlot::rpImmediateRefresh);
    if (presentation())
        layoutPresentation(); // again for the labels fitLabels kept or turned
    centreSquareCells();
    m_plot.replot(QCustomPlot::rpImmediateRefresh);
    if (m_spec.showValues)
        addCellValues();
    if (presentation())
        addStepFrames();
    // The numbers and frames came after the last layout pass: on screen they need one more
    // paint (exports paint the whole plot themselves).
    m_plot.replot(QCustomPlot::rpQueuedReplot);
}

// Fills the plot with the view's panels and lays them out once at `size`.
void FigureBuilder::compose(const core::AttentionResult& result, QSize size, const core::AttentionResult* compare)
{
    m_plot.clearItems();
    m_plot.clearPlottables();
    m_plot.plotLayout()->clear();
    m_plot.plotLayout()->setRowSpacing(0);
    m_plot.setBackground(m_spec.style.background);
    m_panels.clear();
    m_owned.clear();
    m_presentationRows.clear();
    m_stepFrames.clear();
    m_highlightFrames.clear();
    m_result = &result;
    const bool presentation = this->presentation();

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
            if (m_spec.head < 0 && std::none_of(result.heads.begin(), result.heads.end(),
                                                [](const core::HeadResult& h) { return h.enabled; }))
                title = headName(m_spec.head) + QStringLiteral(" · every head is off");
            break;
        case FigureView::Heads: title = QStringLiteral("All heads · ") + summary; break;
        case FigureView::Pipeline:
            title = headName(m_spec.head) + QStringLiteral(", step by step · ") + summary;
            break;
        case FigureView::Difference: break; // named in buildDifference
        }
    }
    // Row 0 the title, row 1 the body: the panels grid and the colour bar beside it. Spare
    // room becomes the body's margins, so the title keeps the full width.
    m_body = new QCPLayoutGrid;
    m_plot.plotLayout()->addElement(presentation ? 0 : 1, 0, m_body); // a presentation's caption is the window's
    m_body->setAutoMargins(QCP::msNone);
    m_body->setColumnSpacing(int(std::lround(8 * m_spec.pixelsPerPoint())));
    m_content = new QCPLayoutGrid;
    m_body->addElement(0, 0, m_content);
    // A presentation frames panels a little outside their cells: the gaps keep frames apart.
    const int gap = int(std::lround(presentation ? 2 * frameClearance() : 8 * m_spec.pixelsPerPoint()));
    m_content->setRowSpacing(gap);
    m_content->setColumnSpacing(gap);
    m_squareCells = m_spec.view != FigureView::Pipeline;

    switch (m_spec.view) {
    case FigureView::Head: buildHead(result); break;
    case FigureView::Heads: buildHeads(result); break;
    case FigureView::Pipeline: presentation ? buildPresentation(result) : buildPipeline(result, size.width()); break;
    case FigureView::Difference:
        if (!compare)
            throw core::Error("the difference view needs a second result to compare with");
        buildDifference(result, *compare);
        if (title.isEmpty())
            title = QStringLiteral("%1 · %2 minus %3")
                        .arg(headName(m_spec.head), settingsSummary(problem), settingsSummary(*compare->problem));
        break;
    }
    if (!presentation) {
        // A title wider than the figure (a small window) is cut with an ellipsis, not at both
        // ends by the plot's edges.
        const QFontMetricsF metrics(font(m_spec.fontPoints * 1.2, true));
        addTitle(metrics.elidedText(title, Qt::ElideRight, std::max(1.0, size.width() - 8 * m_spec.pixelsPerPoint())));
    }

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

void FigureBuilder::addTitle(const QString& text)
{
    auto* title = new QCPTextElement(&m_plot, text, font(m_spec.fontPoints * 1.2, true));
    title->setTextColor(m_spec.style.text);
    title->setMargins(QMargins(0, 0, 0, int(std::lround(6 * m_spec.pixelsPerPoint()))));
    m_plot.plotLayout()->addElement(0, 0, title);
}

QCPLayoutGrid* FigureBuilder::addPanel(QCPLayoutGrid* parent, int row, int column, Panel panel)
{
    // A panel is a small grid: its title above its axis rect, so each title stays centred
    // over its own matrix. (A grid joins the plot before it is filled: QCustomPlot only
    // initialises children added to a grid that already has its plot.)
    auto* cell = new QCPLayoutGrid;
    parent->addElement(row, column, cell);
    cell->setRowSpacing(0);
    auto* rect = new QCPAxisRect(&m_plot, true);
    if (presentation())
        rect->setMinimumMargins(QMargins()); // not QCustomPlot's 15 px: layoutPresentation places the cells
    if (!panel.title.isEmpty()) {
        auto* title = new QCPTextElement(&m_plot, panel.title, font(m_spec.fontPoints, panel.framed));
        title->setTextColor(panel.filled ? m_spec.style.text : m_spec.style.mutedText);
        if (presentation())
            title->setMargins(QMargins(0, 0, 0, int(std::lround(frameClearance()))));
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
        axis->setTickLabelPadding(int(std::lround(presentation() ? frameClearance() : 3 * m_spec.pixelsPerPoint())));
    }
    x->setRange(-0.5, cols - 0.5);
    y->setRange(-0.5, rows - 0.5);
    y->setRangeReversed(true); // query 1 at the top, as a matrix is written
    setTickLabels(x, panel.columnLabels, 1);
    setTickLabels(y, panel.rowLabels, 1);

    auto* map = new QCPColorMap(x, y);
    map->setInterpolate(false); // cells, not a blur
    map->setTightBoundary(false);
    map->data()->setSize(cols, rows);
    map->data()->setRange(QCPRange(0, std::max(0, cols - 1)), QCPRange(0, std::max(0, rows - 1)));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const core::Mask* mask = panel.masked ? m_mask.get() : nullptr;
    const bool hatch = m_spec.style.hatchMasked && mask && panel.filled && m.size() <= kMaxValueCells;
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            const double value = double(m(i, j));
            const bool masked = mask && mask->isMasked(i, j);
            const bool grey = !panel.filled || masked || !std::isfinite(value);
            map->data()->setCell(j, i, grey ? nan : value);
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
    QCPColorGradient g = gradient(panel.map);
    if (!panel.filled) // an empty block of the matrix's shape, to be filled at its step
        g.setNanColor(m_spec.style.placeholder);
    map->setGradient(g);
    map->setDataRange(QCPRange(panel.low, panel.high));
    if (presentation()) { // the matrix's edge, also where its cells are empty or white
        auto* outline = new QCPItemRect(&m_plot);
        outline->setClipToAxisRect(false); // its right and bottom edges lie on the rect's
        for (QCPItemPosition* corner : {outline->topLeft, outline->bottomRight})
            corner->setAxes(x, y);
        outline->topLeft->setCoords(-0.5, -0.5);
        outline->bottomRight->setCoords(cols - 0.5, rows - 0.5);
        outline->setPen(QPen(m_spec.style.mutedText, m_spec.style.lineScale * m_spec.pixelsPerPoint() * 0.5));
        outline->setSelectable(false);
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
    return host;
}

void FigureBuilder::addColorScale(QCPLayoutGrid* host, Colormap map, double low, double high, const QString& label)
{
    if (!m_spec.colorBar || !host)
        return;
    auto* scale = new QCPColorScale(&m_plot);
    host->addElement(std::max(0, host->rowCount() - 1), host->columnCount(), scale); // beside a panel's matrix
    scale->setType(QCPAxis::atRight);
    scale->setGradient(gradient(map));
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
    // The bar spans exactly the matrix beside it.
    auto* group = new QCPMarginGroup(&m_plot);
    scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    for (const Panel& panel : m_panels)
        if (panel.rect && panel.rect->layout() == host)
            panel.rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
}

void FigureBuilder::buildHead(const core::AttentionResult& result)
{
    const Matrix& weights = headWeights(result, m_spec.head);
    Panel panel;
    panel.matrix = &weights;
    panel.rowLabels = tokenLabels(result.problem->queryTokens, result.pooling.rowBlock);
    panel.columnLabels = tokenLabels(result.problem->keyTokens, result.pooling.colBlock);
    panel.name = QStringLiteral("weights");
    panel.head = m_spec.head;
    panel.map = m_spec.colormap;
    panel.high = weightRangeTop(maxAbs(weights, nullptr));
    panel.masked = true;
    const double high = panel.high;
    QCPLayoutGrid* cell = addPanel(m_content, 0, 0, std::move(panel));
    addColorScale(cell, m_spec.colormap, 0.0, high, QStringLiteral("attention weight"));
}

void FigureBuilder::buildHeads(const core::AttentionResult& result)
{
    const int count = int(result.heads.size());
    const int columns = int(std::ceil(std::sqrt(double(count))));
    const int rows = (count + columns - 1) / columns;
    double top = 0.0;
    for (const core::HeadResult& head : result.heads)
        top = std::max(top, maxAbs(head.weights, nullptr));
    top = weightRangeTop(top);
    const QStringList rowLabels = tokenLabels(result.problem->queryTokens, result.pooling.rowBlock);
    const QStringList columnLabels = tokenLabels(result.problem->keyTokens, result.pooling.colBlock);
    auto* margins = new QCPMarginGroup(&m_plot); // identical margins: aligned, equal cells
    for (int h = 0; h < count; ++h) {
        Panel panel;
        panel.matrix = &result.heads[std::size_t(h)].weights;
        // Labels on the outer edges only, as a grid of small multiples is read.
        if (h % columns == 0)
            panel.rowLabels = rowLabels;
        if (h / columns == rows - 1 || h + columns >= count)
            panel.columnLabels = columnLabels;
        panel.title = headName(h) + (result.heads[std::size_t(h)].enabled ? QString() : QStringLiteral(" (off)"));
        panel.name = QStringLiteral("weights");
        panel.head = h;
        panel.map = m_spec.colormap;
        panel.high = top;
        panel.masked = true;
        addPanel(m_content, h / columns, h % columns, std::move(panel));
        m_panels.back().rect->setMarginGroup(QCP::msAll, margins);
    }
    // One scale for all heads, beside the grid.
    addColorScale(sideHost(), m_spec.colormap, 0.0, top, QStringLiteral("attention weight"));
}

const core::HeadResult& FigureBuilder::pipelineHead(const core::AttentionResult& result) const
{
    if (m_spec.head < 0 || m_spec.head >= int(result.heads.size()))
        throw core::Error(QStringLiteral("the pipeline view shows one head, 1 to %1").arg(result.heads.size()).toStdString());
    if (!result.intermediatesKept || result.pooling.pooled)
        throw core::Error("the pipeline view needs every intermediate at full size (the input is pooled or "
                          "intermediates were not kept)");
    return result.heads[std::size_t(m_spec.head)];
}

void FigureBuilder::buildPipeline(const core::AttentionResult& result, int width)
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
    const std::vector<Stage> stages = {
        // Short titles: they set the columns' minimum widths, and the T x T panels below
        // share those columns.
        {&result.queryInput, QStringLiteral("X = E + P"), QStringLiteral("X"), &queries, &none, false, false},
        {&head.Q, QStringLiteral("Q"), QStringLiteral("Q"), &queries, &none, false, false},
        {&head.K, QStringLiteral("K"), QStringLiteral("K"), &keys, &none, false, false},
        {&head.V, QStringLiteral("V"), QStringLiteral("V"), &keys, &none, false, false},
        {&head.rawScores, QStringLiteral("scores"), QStringLiteral("scores"), &queries, &keys, false, false},
        {&head.maskedScores, QStringLiteral("scaled, masked"), QStringLiteral("masked scores"), &queries, &keys, false, true},
        {&head.weights, QStringLiteral("weights α"), QStringLiteral("weights"), &queries, &keys, true, true},
        {&head.output, QStringLiteral("output αV"), QStringLiteral("output"), &queries, &none, false, false},
    };
    // Signed panels give their colour range in the title where the titles fit the figure's
    // width (with room for the row labels and the colour bar); else the name alone.
    // The four columns are about equally wide, so the widest title decides.
    const QFontMetricsF titleMetrics(font(m_spec.fontPoints));
    double widestTitle = 0.0;
    for (const Stage& stage : stages)
        widestTitle = std::max(widestTitle, titleMetrics.horizontalAdvance(stage.title + QStringLiteral("  ±0.00")));
    const bool showRanges = 4 * widestTitle + 20 * titleMetrics.averageCharWidth() < width;
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
        panel.name = stage.name;
        panel.head = m_spec.head;
        panel.masked = stage.masked;
        if (stage.weights) {
            panel.map = m_spec.colormap;
            panel.high = weightRangeTop(maxAbs(*stage.matrix, nullptr));
            panel.title = stage.title;
        } else {
            // Signed matrices: a diverging map centred on 0, each panel to its own range,
            // which the title states (one shared scale would flatten the small ones).
            const double top = signedRangeTop(maxAbs(*stage.matrix, stage.masked ? m_mask.get() : nullptr));
            panel.map = m_spec.style.signedColormap;
            panel.low = -top;
            panel.high = top;
            panel.title = showRanges ? stage.title + QStringLiteral("  ±%1").arg(formatValue(top, top < 10 ? 2 : 0))
                                     : stage.title;
        }
        addPanel(m_content, int(s / 4), int(s % 4), std::move(panel));
        m_panels.back().rect->setMarginGroup(QCP::msTop | QCP::msBottom, rowGroups[s / 4]);
    }
    addColorScale(sideHost(), m_spec.colormap, 0.0, m_panels[6].high, QStringLiteral("attention weight"));
}

void FigureBuilder::buildDifference(const core::AttentionResult& result, const core::AttentionResult& compare)
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
    panel.name = QStringLiteral("difference");
    panel.head = m_spec.head;
    panel.map = m_spec.style.signedColormap;
    panel.masked = true; // the two differ in their score only: a cell masked in one is in both
    const double top = signedRangeTop(maxAbs(difference, nullptr));
    panel.low = -top;
    panel.high = top;
    QCPLayoutGrid* cell = addPanel(m_content, 0, 0, std::move(panel));
    addColorScale(cell, m_spec.style.signedColormap, -top, top, QStringLiteral("difference of weights"));
}

// Every matrix of the computation, in rows that keep their places from step to step (by
// default E P X Q K V / scores, scaled, masked, weights / head output, each head's weights,
// concatenation, output; bestRowStarts may regroup them). Panels of later steps are empty
// blocks of their shape.
void FigureBuilder::buildPresentation(const core::AttentionResult& result)
{
    using S = PresentationStep;
    const core::HeadResult& head = pipelineHead(result);
    const core::Problem& problem = *result.problem;
    const int h = m_spec.head;
    const QStringList queries = tokenLabels(problem.queryTokens, 1);
    const QStringList keys = tokenLabels(problem.keyTokens, 1);
    double weightTop = 0.0; // one colour range for every head's weights, as in the Heads view
    for (const core::HeadResult& each : result.heads)
        weightTop = std::max(weightTop, maxAbs(each.weights, nullptr));
    weightTop = weightRangeTop(weightTop);

    struct Entry
    {
        const Matrix* matrix;
        QString title;
        QString name;
        int head;
        S step;
        bool keyRows = false;    // rows are keys (K, V): labelled in cross-attention
        bool keyColumns = false; // a queries x keys matrix
        bool weights = false;
        bool masked = false;
    };
    // In groups that stay together on a row (kPresentationGroups of them).
    std::vector<std::vector<Entry>> groups(kPresentationGroups);
    groups[0] = {{&problem.queryEmbedding, QStringLiteral("E"), QStringLiteral("E"), h, S::Embeddings},
                 {&problem.queryPosition, QStringLiteral("P"), QStringLiteral("P"), h, S::Embeddings},
                 {&result.queryInput, QStringLiteral("X = E + P"), QStringLiteral("X"), h, S::Embeddings}};
    groups[1] = {{&head.Q, QStringLiteral("Q"), QStringLiteral("Q"), h, S::Projections},
                 {&head.K, QStringLiteral("K"), QStringLiteral("K"), h, S::Projections, true},
                 {&head.V, QStringLiteral("V"), QStringLiteral("V"), h, S::Projections, true}};
    groups[2] = {{&head.rawScores, QStringLiteral("scores"), QStringLiteral("scores"), h, S::Scores, false, true},
                 {&head.scaledScores, QStringLiteral("scaled"), QStringLiteral("scaled scores"), h, S::Scaled, false, true},
                 {&head.maskedScores, QStringLiteral("masked"), QStringLiteral("masked scores"), h, S::Masked, false, true, false, true},
                 {&head.weights, QStringLiteral("weights α"), QStringLiteral("weights"), h, S::Normalized, false, true, true, true}};
    groups[3] = {{&head.output, QStringLiteral("αV"), QStringLiteral("output"), h, S::WeightedSum}};
    for (int g = 0; g < int(result.heads.size()); ++g)
        groups[4].push_back({&result.heads[std::size_t(g)].weights,
                             headName(g).toLower() + (result.heads[std::size_t(g)].enabled ? QString() : QStringLiteral(" (off)")),
                             QStringLiteral("weights"), g, S::Heads, false, true, true, true});
    groups[5] = {{&result.concat, QStringLiteral("concat"), QStringLiteral("concat"), h, S::Concat},
                 {&result.output, QStringLiteral("output"), QStringLiteral("multi-head output"), h, S::Output}};

    const int step = m_spec.presentationStep;
    const QStringList none;
    QCPLayoutGrid* grid = nullptr;
    int column = 0;
    for (int g = 0; g < kPresentationGroups; ++g) {
        if (std::find(m_rowStarts.begin(), m_rowStarts.end(), g) != m_rowStarts.end()) {
            grid = new QCPLayoutGrid;
            m_content->addElement(int(m_presentationRows.size()), 0, grid);
            grid->setAutoMargins(QCP::msNone);
            grid->setColumnSpacing(m_content->columnSpacing());
            m_presentationRows.push_back(grid);
            column = 0;
        }
        for (const Entry& entry : groups[std::size_t(g)]) {
            Panel panel;
            panel.matrix = entry.matrix;
            // Rows line up across a row of panels, so the first names them; K and V name
            // theirs where keys differ from queries.
            panel.ownRowLabels = entry.keyRows && problem.cross;
            if (column == 0 || panel.ownRowLabels)
                panel.rowLabels = entry.keyRows ? keys : queries;
            panel.columnLabels = entry.keyColumns ? keys : none;
            panel.title = entry.title;
            panel.name = entry.name;
            panel.head = entry.head;
            panel.group = g;
            panel.masked = entry.masked;
            panel.filled = int(entry.step) <= step;
            panel.framed = int(entry.step) == step;
            if (entry.weights) {
                panel.map = m_spec.colormap;
                panel.high = weightTop;
            } else {
                const double top = signedRangeTop(maxAbs(*entry.matrix, entry.masked ? m_mask.get() : nullptr));
                panel.map = m_spec.style.signedColormap;
                panel.low = -top;
                panel.high = top;
            }
            addPanel(grid, 0, column++, std::move(panel));
        }
    }
}

// One cell size for the whole figure, so every matrix is drawn to the same scale and the
// panels of a row line up: the largest that fits every row's width and all rows' height.
// Strips (isStrip) narrow their columns first. Leftover room centres the figure.
void FigureBuilder::fitCells(std::vector<RowFit>& rows) const
{
    // Room for the gaps between panels and one more around them all, for the step's frames.
    const QRect area = m_content->rect();
    const double gap = m_content->columnSpacing();
    double height = area.height() - m_content->rowSpacing() * double(rows.size());
    int cells = 0;
    for (const RowFit& row : rows) {
        height -= row.chromeY;
        cells += row.cells;
    }
    // A 2-token example would otherwise get cells a third of the screen high.
    double cell = std::min(4.5 * QFontMetricsF(font(m_spec.fontPoints)).height(), height / std::max(1, cells));
    for (const RowFit& row : rows)
        if (row.columns > 0)
            cell = std::min(cell, (area.width() - gap * double(row.panels + 1) - row.chromeX - row.stripColumns) / row.columns);
    cell = std::max(1.0, cell);
    for (RowFit& row : rows) {
        row.cell = cell;
        const double room = area.width() - gap * double(row.panels + 1) - row.chromeX - row.columns * cell;
        row.stripCellWidth = row.stripColumns > 0 ? std::clamp(room / row.stripColumns, 1.0, cell) : cell;
    }
}

// Which groups of panels start a row: the arrangement with the largest cells, judged from
// the margins, titles and labels of the layout on screen. The three rows of the
// computation's stages (inputs, scores, outputs) read best and stay unless another
// arrangement's cells are clearly larger (many heads, a wide model).
std::vector<int> FigureBuilder::bestRowStarts() const
{
    struct Measure
    {
        int group, columns, rows, chromeX, chromeY;
        bool movesLabels; // gains the row labels when first in a row
        bool strip;
    };
    int baseLeft = std::numeric_limits<int>::max();
    for (const Panel& panel : m_panels)
        baseLeft = std::min(baseLeft, panel.rect->margins().left());
    const int labelWidth = m_panels.front().rect->margins().left() - baseLeft; // the first panel has them
    std::vector<Measure> measures;
    for (const Panel& panel : m_panels) {
        const QMargins m = panel.rect->margins();
        const bool labelled = !panel.rowLabels.isEmpty() && !panel.ownRowLabels;
        const int title = panel.rect->layout()->outerRect().height() - panel.rect->outerRect().height();
        measures.push_back({panel.group, int(panel.matrix->cols()), int(panel.matrix->rows()),
                            m.left() + m.right() - (labelled ? labelWidth : 0), title + m.top() + m.bottom(),
                            !panel.ownRowLabels, isStrip(panel)});
    }
    auto score = [&](const std::vector<int>& starts) {
        std::vector<RowFit> rows;
        int group = -1;
        for (const Measure& m : measures) {
            const bool first = m.group != group && std::find(starts.begin(), starts.end(), m.group) != starts.end();
            group = m.group;
            if (first)
                rows.emplace_back();
            RowFit& row = rows.back();
            row.cells = std::max(row.cells, m.rows);
            (m.strip ? row.stripColumns : row.columns) += m.columns;
            row.chromeX += m.chromeX + (first && m.movesLabels ? labelWidth : 0);
            row.chromeY = std::max(row.chromeY, m.chromeY);
            ++row.panels;
        }
        fitCells(rows);
        return rows.empty() ? 0.0 : rows.front().cell;
    };
    std::vector<int> best = m_rowStarts;
    double bestScore = score(m_rowStarts) * 1.08;
    for (unsigned bits = 0; bits < (1u << (kPresentationGroups - 1)); ++bits) {
        std::vector<int> starts{0};
        for (int g = 1; g < kPresentationGroups; ++g)
            if (bits & (1u << (g - 1)))
                starts.push_back(g);
        const double s = score(starts);
        if (s > bestScore) {
            bestScore = s;
            best = starts;
        }
    }
    return best;
}

// A matrix of more dimensions than can be read one by one (d_model = 256) is drawn as a strip
// whose columns narrow before any other cell does.
bool FigureBuilder::isStrip(const Panel& panel) { return panel.columnLabels.isEmpty() && panel.matrix->cols() > 32; }

double FigureBuilder::cellWidth(const Panel& panel, const RowFit& row) { return isStrip(panel) ? row.stripCellWidth : row.cell; }

// Sizes the rows and panels for fitCells' cells; leftover room centres the rows.
void FigureBuilder::layoutPresentation()
{
    // What each panel needs around its cells (labels, title), measured with no extra room.
    m_content->setMargins(QMargins());
    for (QCPLayoutGrid* row : m_presentationRows)
        row->setMargins(QMargins());
    for (Panel& panel : m_panels)
        panel.rect->setMinimumMargins(QMargins());
    m_plot.replot(QCustomPlot::rpImmediateRefresh);

    std::vector<RowFit> rows(m_presentationRows.size());
    std::vector<std::vector<std::pair<Panel*, int>>> members(rows.size()); // and its margins' width
    for (Panel& panel : m_panels) {
        const auto* cell = panel.rect->layout();
        const auto at = std::find(m_presentationRows.begin(), m_presentationRows.end(), cell->layout());
        const std::size_t r = std::size_t(at - m_presentationRows.begin());
        RowFit& row = rows[r];
        const QMargins m = panel.rect->margins();
        const int title = cell->outerRect().height() - panel.rect->outerRect().height();
        members[r].emplace_back(&panel, m.left() + m.right());
        row.cells = std::max(row.cells, int(panel.matrix->rows()));
        (isStrip(panel) ? row.stripColumns : row.columns) += int(panel.matrix->cols());
        row.chromeX += m.left() + m.right();
        row.chromeY = std::max(row.chromeY, title + m.top() + m.bottom());
        ++row.panels;
    }
    fitCells(rows);

    const QRect area = m_content->rect();
    const int spacing = m_content->columnSpacing();
    double used = 0.0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const double rowHeight = rows[r].cells * rows[r].cell + rows[r].chromeY;
        m_content->setRowStretchFactor(int(r), rowHeight);
        used += rowHeight;
        double width = 0.0;
        for (std::size_t c = 0; c < members[r].size(); ++c) {
            const auto [panel, chrome] = members[r][c];
            const double w = double(panel->matrix->cols()) * cellWidth(*panel, rows[r]) + chrome;
            m_presentationRows[r]->setColumnStretchFactor(int(c), w);
            width += w;
        }
        const int spareX = std::max(0, int(area.width() - spacing * double(members[r].size() - 1) - width)); // >= 2 spacings
        m_presentationRows[r]->setMargins(QMargins(spareX / 2, 0, spareX - spareX / 2, 0));
    }
    const int spareY = std::max(0, int(area.height() - m_content->rowSpacing() * double(rows.size() - 1) - used));
    m_content->setMargins(QMargins(0, spareY / 2, 0, spareY - spareY / 2));
    m_plot.replot(QCustomPlot::rpImmediateRefresh);

    // Each matrix exactly its cells' size: centred across its box, at the top under its title.
    for (std::size_t r = 0; r < rows.size(); ++r)
        for (const auto& [panel, chrome] : members[r]) {
            const QRect box = panel->rect->outerRect();
            const QMargins m = panel->rect->margins();
            const int w = int(std::lround(double(panel->matrix->cols()) * cellWidth(*panel, rows[r])));
            const int h = int(std::lround(double(panel->matrix->rows()) * rows[r].cell));
            const int extraX = std::max(0, box.width() - m.left() - m.right() - w);
            const int extraY = std::max(0, box.height() - m.top() - m.bottom() - h);
            panel->rect->setMinimumMargins(
                QMargins(m.left() + extraX / 2, m.top(), m.right() + extraX - extraX / 2, m.bottom() + extraY));
        }
    m_plot.replot(QCustomPlot::rpImmediateRefresh);
}

double FigureBuilder::frameWidth() const { return 2.5 * m_spec.pixelsPerPoint() * m_spec.style.lineScale; }

double FigureBuilder::framePad() const { return 2.0 * m_spec.pixelsPerPoint() + frameWidth(); }

double FigureBuilder::frameClearance() const { return framePad() + frameWidth() / 2 + 2.0 * m_spec.pixelsPerPoint(); }

QCPItemRect* FigureBuilder::addFrame(const Panel& panel, QRectF cells, double padPixels, const QPen& pen)
{
    QCPAxis* x = panel.rect->axis(QCPAxis::atBottom);
    QCPAxis* y = panel.rect->axis(QCPAxis::atLeft);
    const double padX = padPixels / std::max(1e-6, std::abs(x->coordToPixel(1) - x->coordToPixel(0)));
    const double padY = padPixels / std::max(1e-6, std::abs(y->coordToPixel(1) - y->coordToPixel(0)));
    auto* frame = new QCPItemRect(&m_plot);
    frame->setClipToAxisRect(false); // a frame may stand just outside the cells
    for (QCPItemPosition* corner : {frame->topLeft, frame->bottomRight})
        corner->setAxes(x, y);
    frame->topLeft->setCoords(cells.left() - padX, cells.top() - padY);
    frame->bottomRight->setCoords(cells.right() + padX, cells.bottom() + padY);
    frame->setPen(pen);
    frame->setBrush(Qt::NoBrush);
    frame->setSelectable(false);
    return frame;
}

// Frames what the presentation's step creates, a gap outside the cells so the colours stay
// readable. The tokens step frames the first panel's row labels: they are the tokens.
void FigureBuilder::addStepFrames()
{
    const double width = frameWidth();
    QPen pen(m_spec.style.accent, width);
    pen.setJoinStyle(Qt::MiterJoin);
    const double pad = framePad();
    if (m_spec.presentationStep == int(PresentationStep::Tokens) && !m_panels.empty()) {
        const Panel& first = m_panels.front();
        const QCPAxis* y = first.rect->axis(QCPAxis::atLeft);
        const QFontMetricsF metrics(y->tickLabelFont());
        double widest = 0.0;
        for (const QString& label : first.rowLabels)
            widest = std::max(widest, metrics.horizontalAdvance(label));
        const QRect r = first.rect->rect();
        const double right = r.left() - y->tickLabelPadding() / 2.0;
        auto* frame = new QCPItemRect(&m_plot);
        frame->setClipToAxisRect(false);
        for (QCPItemPosition* corner : {frame->topLeft, frame->bottomRight})
            corner->setType(QCPItemPosition::ptAbsolute);
        frame->topLeft->setCoords(right - widest - y->tickLabelPadding() - pad, r.top() - pad);
        frame->bottomRight->setCoords(right, r.bottom() + pad);
        frame->setPen(pen);
        frame->setSelectable(false);
        m_stepFrames.push_back(frame);
    }
    for (const Panel& panel : m_panels)
        if (panel.framed)
            m_stepFrames.push_back(addFrame(panel, QRectF(-0.5, -0.5, double(panel.matrix->cols()), double(panel.matrix->rows())), pad, pen));
}

void FigureBuilder::highlightCell(const std::optional<Cell>& cell)
{
    for (QCPItemRect* frame : m_highlightFrames)
        m_plot.removeItem(frame);
    m_highlightFrames.clear();
    if (!cell)
        return;
    auto find = [this](const QString& name, int head) -> const Panel* {
        for (const Panel& panel : m_panels)
            if (panel.filled && panel.name == name && panel.head == head)
                return &panel;
        return nullptr;
    };
    const Panel* hovered = cell->panel >= 0 && cell->panel < int(m_panels.size()) ? &m_panels[std::size_t(cell->panel)]
                                                                                    : find(cell->matrix, cell->head);
    if (!hovered || cell->row >= hovered->matrix->rows() || cell->column >= hovered->matrix->cols())
        return;
    // A dark line on a light halo (or the reverse in a dark theme) reads on every colour of a map.
    const double line = 2.0 * m_spec.pixelsPerPoint() * m_spec.style.lineScale;
    QPen halo(m_spec.style.background, 3 * line);
    QPen pen(m_spec.style.text, line);
    halo.setJoinStyle(Qt::MiterJoin);
    pen.setJoinStyle(Qt::MiterJoin);
    auto frame = [&](const Panel* panel, QRectF cells) {
        if (!panel)
            return;
        m_highlightFrames.push_back(addFrame(*panel, cells, 0.0, halo));
        m_highlightFrames.push_back(addFrame(*panel, cells, 0.0, pen));
    };
    auto rowOf = [](const Panel* panel, int row) {
        return QRectF(-0.5, row - 0.5, panel ? double(panel->matrix->cols()) : 0.0, 1.0);
    };
    const int i = cell->row;
    const int j = cell->column;
    static const QStringList scores{QStringLiteral("scores"), QStringLiteral("scaled scores"),
                                    QStringLiteral("masked scores"), QStringLiteral("weights")};
    if (!scores.contains(hovered->name) || m_result->pooling.pooled) {
        frame(hovered, rowOf(hovered, i)); // the vector the cell belongs to
        return;
    }
    frame(hovered, rowOf(hovered, i));                                            // query i
    frame(hovered, QRectF(j - 0.5, -0.5, 1.0, double(hovered->matrix->rows()))); // key j
    for (const Panel& panel : m_panels)
        if (&panel != hovered && panel.filled && panel.head == cell->head && scores.contains(panel.name))
            frame(&panel, QRectF(j - 0.5, i - 0.5, 1.0, 1.0));
    const Panel* q = find(QStringLiteral("Q"), cell->head);
    const Panel* k = find(QStringLiteral("K"), cell->head);
    frame(q, rowOf(q, i)); // q_i
    frame(k, rowOf(k, j)); // k_j
}

QCPAxisRect* FigureBuilder::panelRect(const QString& matrix, int head) const
{
    for (const Panel& panel : m_panels)
        if (panel.name == matrix && panel.head == head)
            return panel.rect;
    return nullptr;
}

QStringList FigureBuilder::filledPanels() const
{
    QStringList names;
    for (const Panel& panel : m_panels)
        if (panel.filled)
            names.append(panel.name);
    return names;
}

double FigureBuilder::cellPixels(const Panel& panel) const
{
    const QRect r = panel.rect->rect();
    return std::min(double(r.width()) / double(panel.matrix->cols()), double(r.height()) / double(panel.matrix->rows()));
}

void FigureBuilder::fitLabels()
{
    // Square cells end up the size of the smallest panel's, whatever the rect's aspect:
    // thin the labels for that size, or a wide rect leaves its row labels overlapping.
    double square = std::numeric_limits<double>::max();
    if (m_squareCells)
        for (const Panel& panel : m_panels)
            square = std::min(square, cellPixels(panel));
    for (Panel& panel : m_panels) {
        const QRect r = panel.rect->rect();
        const double rowPixels = std::min(square, double(r.height()) / double(panel.matrix->rows()));
        const double cell = std::min(square, double(r.width()) / double(panel.matrix->cols())); // a column's width
        QCPAxis* x = panel.rect->axis(QCPAxis::atBottom);
        QCPAxis* y = panel.rect->axis(QCPAxis::atLeft);
        const QFontMetricsF metrics(x->tickLabelFont());
        const double line = metrics.height();
        // Rows: one line of text per shown label.
        const int rowStep = std::max(1, int(std::ceil(line * 1.05 / std::max(rowPixels, 1e-3))));
        setTickLabels(y, panel.rowLabels, rowStep);
        double widest = 0.0;
        for (const QString& label : panel.columnLabels)
            widest = std::max(widest, metrics.horizontalAdvance(label));
        int columnStep = 1;
        if (widest + line * 0.5 <= cell)
            x->setTickLabelRotation(0);
        else {
            // Upright text no longer fits: turn it, and thin it if even that is too dense.
            x->setTickLabelRotation(cell >= line * 1.6 ? -45 : -90);
            columnStep = std::max(1, int(std::ceil(line * 1.05 / std::max(cell, 1e-3))));
        }
        setTickLabels(x, panel.columnLabels, columnStep);
        panel.labelStep = std::max(rowStep, columnStep);
    }
}

void FigureBuilder::centreSquareCells()
{
    if (m_panels.empty())
        return;
    if (!m_squareCells) // panels of different shapes fill their boxes: rows stay tall enough for labels
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
    const double spareX = (r.width() - cell * double(m_panels.front().matrix->cols())) * gridColumns;
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
    QFont valueFont = font(m_spec.fontPoints * 0.85);
    QString widest = formatValue(-maxAbs(m, nullptr), m_spec.precision);
    if (presentation()) {
        // The longest number the panel shows, not a minus sign it may not have: a
        // presentation sets all its numbers in the size the tightest panel allows.
        const QFontMetricsF metrics(valueFont);
        const core::Mask* mask = panel.masked ? m_mask.get() : nullptr;
        widest.clear();
        for (int i = 0; i < int(m.rows()); ++i)
            for (int j = 0; j < int(m.cols()); ++j)
                if (std::isfinite(m(i, j)) && !(mask && mask->isMasked(i, j))) {
                    const QString text = formatValue(m(i, j), m_spec.precision);
                    if (metrics.horizontalAdvance(text) > metrics.horizontalAdvance(widest))
                        widest = text;
                }
    }
    // Shrink to fit down to 70% of the figure's size; below that numbers are noise. A
    // presentation's white cells have no borders, so its numbers keep more room apart.
    const double room = presentation() ? 1.3 : 1.15;
    auto fits = [&](const QFont& f) {
        const QFontMetricsF metrics(f);
        return metrics.horizontalAdvance(widest) * room <= cell && metrics.height() * 1.2 <= cell;
    };
    for (int attempt = 0; attempt < 4 && !fits(valueFont); ++attempt)
        valueFont.setPixelSize(std::max(1, int(valueFont.pixelSize() * 0.9)));
    if (!fits(valueFont))
        return std::nullopt;
    return valueFont;
}

void FigureBuilder::addCellValues()
{
    std::vector<std::optional<QFont>> fonts;
    for (const Panel& panel : m_panels)
        fonts.push_back(valueFont(panel));
    if (presentation()) {
        // A presentation sets every number in one size, the panels not reached included,
        // so numbers keep their size from step to step.
        int smallest = std::numeric_limits<int>::max();
        for (const auto& f : fonts)
            if (f)
                smallest = std::min(smallest, f->pixelSize());
        for (auto& f : fonts)
            if (f)
                f->setPixelSize(smallest);
    }
    for (std::size_t p = 0; p < m_panels.size(); ++p) {
        const Panel& panel = m_panels[p];
        if (!fonts[p] || !panel.filled)
            continue;
        const Matrix& m = *panel.matrix;
        QCPAxis* x = panel.rect->axis(QCPAxis::atBottom);
        QCPAxis* y = panel.rect->axis(QCPAxis::atLeft);
        const core::Mask* mask = panel.masked ? m_mask.get() : nullptr;
        for (int i = 0; i < int(m.rows()); ++i)
            for (int j = 0; j < int(m.cols()); ++j) {
                const double value = double(m(i, j));
                if ((mask && mask->isMasked(i, j)) || !std::isfinite(value))
                    continue;
                const double t = (value - panel.low) / (panel.high - panel.low);
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
        if (!panel.filled || !panel.rect->rect().contains(pixel.toPoint()))
            continue;
        const int column = int(std::lround(panel.rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
        const int row = int(std::lround(panel.rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y())));
        if (row < 0 || column < 0 || row >= panel.matrix->rows() || column >= panel.matrix->cols())
            return std::nullopt;
        return Cell{panel.head, panel.name, row, column, int(&panel - m_panels.data())};
    }
    return std::nullopt;
}

} // namespace attn::ui
