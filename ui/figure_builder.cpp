#include "figure_builder.h"

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
constexpr int kMaxLabelCharacters = 18;

QStringList tokenLabels(const std::vector<core::Token>& tokens, int block)
{
    QStringList labels;
    for (std::size_t i = 0; i < tokens.size(); i += std::size_t(std::max(1, block))) {
        QString text = tokens[i].text;
        if (text.size() > kMaxLabelCharacters)
            text = text.left(kMaxLabelCharacters - 1) + QChar(0x2026);
        labels.append(text);
    }
    return labels;
}

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
    m_plot.clearItems();
    m_plot.clearPlottables();
    m_plot.plotLayout()->clear();
    m_plot.plotLayout()->setRowSpacing(0);
    m_plot.setBackground(Qt::white);
    m_panels.clear();
    m_owned.clear();
    m_result = &result;

    const core::Problem& problem = *result.problem;
    m_mask.reset();
    if (!result.pooling.pooled)
        m_mask = std::make_unique<core::Mask>(problem.makeMask());

    // The title row, then the content grid the views fill.
    const QString summary = settingsSummary(problem);
    QString title = m_spec.title;
    if (title.isEmpty()) {
        switch (m_spec.view) {
        case FigureView::Head: title = headName(m_spec.head) + QStringLiteral(" · ") + summary; break;
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
    case FigureView::Head: buildHead(result); break;
    case FigureView::Heads: buildHeads(result); break;
    case FigureView::Pipeline: buildPipeline(result); break;
    case FigureView::Difference:
        if (!compare)
            throw core::Error("the difference view needs a second result to compare with");
        buildDifference(result, *compare);
        if (title.isEmpty())
            title = QStringLiteral("%1 · %2 minus %3")
                        .arg(headName(m_spec.head), settingsSummary(problem), settingsSummary(*compare->problem));
        break;
    }
    addTitle(title);

    // Lay out at the target size, then decide which labels fit, make cells square and
    // centred, and place the numbers; exporting lays out again at the same size.
    m_plot.setViewport(QRect(QPoint(0, 0), size));
    m_plot.replot(QCustomPlot::rpImmediateRefresh);
    fitLabels();
    m_plot.replot(QCustomPlot::rpImmediateRefresh);
    centreSquareCells();
    m_plot.replot(QCustomPlot::rpImmediateRefresh);
    if (m_spec.showValues)
        addCellValues();
}

void FigureBuilder::addTitle(const QString& text)
{
    auto* title = new QCPTextElement(&m_plot, text, font(m_spec.fontPoints * 1.2, true));
    title->setTextColor(QColor(0x20, 0x20, 0x20));
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
    if (!panel.title.isEmpty()) {
        auto* title = new QCPTextElement(&m_plot, panel.title, font(m_spec.fontPoints));
        title->setTextColor(QColor(0x20, 0x20, 0x20));
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
        axis->setTickLabelColor(QColor(0x20, 0x20, 0x20));
        axis->setTickLabelPadding(int(std::lround(3 * m_spec.pixelsPerPoint())));
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
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            const double value = double(m(i, j));
            const bool grey = (mask && mask->isMasked(i, j)) || !std::isfinite(value);
            map->data()->setCell(j, i, grey ? nan : value);
        }
    map->setGradient(colorGradient(panel.map));
    map->setDataRange(QCPRange(panel.low, panel.high));

    panel.rect = rect;
    m_panels.push_back(std::move(panel));
    return cell;
}

void FigureBuilder::addColorScale(QCPLayoutGrid* host, Colormap map, double low, double high, const QString& label)
{
    if (!m_spec.colorBar)
        return;
    auto* scale = new QCPColorScale(&m_plot);
    host->addElement(std::max(0, host->rowCount() - 1), host->columnCount(), scale); // beside a panel's matrix
    scale->setType(QCPAxis::atRight);
    scale->setGradient(colorGradient(map));
    scale->setDataRange(QCPRange(low, high));
    scale->setBarWidth(int(std::lround(10 * m_spec.pixelsPerPoint())));
    scale->setRangeDrag(false);
    scale->setRangeZoom(false);
    QCPAxis* axis = scale->axis();
    axis->setTickLabelFont(font(m_spec.fontPoints * 0.9));
    axis->setLabelFont(font(m_spec.fontPoints * 0.9));
    axis->setLabel(label);
    axis->setBasePen(Qt::NoPen);
    axis->setTickPen(QPen(QColor(0x40, 0x40, 0x40)));
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
    auto* host = new QCPLayoutGrid;
    m_body->addElement(0, 1, host);
    m_body->setColumnStretchFactor(1, 0.01);
    addColorScale(host, m_spec.colormap, 0.0, top, QStringLiteral("attention weight"));
}

void FigureBuilder::buildPipeline(const core::AttentionResult& result)
{
    if (m_spec.head < 0 || m_spec.head >= int(result.heads.size()))
        throw core::Error(QStringLiteral("the pipeline view shows one head, 1 to %1").arg(result.heads.size()).toStdString());
    if (!result.intermediatesKept || result.pooling.pooled)
        throw core::Error("the pipeline view needs every intermediate at full size (the input is pooled or "
                          "intermediates were not kept)");
    const core::HeadResult& head = result.heads[std::size_t(m_spec.head)];
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
        {&result.queryInput, QStringLiteral("X: embedding + position"), QStringLiteral("X"), &queries, &none, false, false},
        {&head.Q, QStringLiteral("Q: queries"), QStringLiteral("Q"), &queries, &none, false, false},
        {&head.K, QStringLiteral("K: keys"), QStringLiteral("K"), &keys, &none, false, false},
        {&head.V, QStringLiteral("V: values"), QStringLiteral("V"), &keys, &none, false, false},
        {&head.rawScores, QStringLiteral("scores"), QStringLiteral("scores"), &queries, &keys, false, false},
        {&head.maskedScores, QStringLiteral("scaled, masked"), QStringLiteral("masked scores"), &queries, &keys, false, true},
        {&head.weights, QStringLiteral("weights α"), QStringLiteral("weights"), &queries, &keys, true, true},
        {&head.output, QStringLiteral("output αV"), QStringLiteral("output"), &queries, &none, false, false},
    };
    for (std::size_t s = 0; s < stages.size(); ++s) {
        const Stage& stage = stages[s];
        Panel panel;
        panel.matrix = stage.matrix;
        panel.rowLabels = *stage.rows;
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
            panel.map = Colormap::Diverging;
            panel.low = -top;
            panel.high = top;
            panel.title = stage.title + QStringLiteral("  [±%1]").arg(formatValue(top, top < 10 ? 2 : 0));
        }
        addPanel(m_content, int(s / 4), int(s % 4), std::move(panel));
    }
    auto* host = new QCPLayoutGrid;
    m_body->addElement(0, 1, host);
    m_body->setColumnStretchFactor(1, 0.01);
    addColorScale(host, m_spec.colormap, 0.0, m_panels[6].high, QStringLiteral("attention weight"));
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
    panel.map = Colormap::Diverging;
    const double top = signedRangeTop(maxAbs(difference, nullptr));
    panel.low = -top;
    panel.high = top;
    QCPLayoutGrid* cell = addPanel(m_content, 0, 0, std::move(panel));
    addColorScale(cell, Colormap::Diverging, -top, top, QStringLiteral("difference of weights"));
}

double FigureBuilder::cellPixels(const Panel& panel) const
{
    const QRect r = panel.rect->rect();
    return std::min(double(r.width()) / double(panel.matrix->cols()), double(r.height()) / double(panel.matrix->rows()));
}

void FigureBuilder::fitLabels()
{
    for (Panel& panel : m_panels) {
        const QRect r = panel.rect->rect();
        const double rowPixels = double(r.height()) / double(panel.matrix->rows());
        const double cell = double(r.width()) / double(panel.matrix->cols()); // a column's width
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

void FigureBuilder::addCellValues()
{
    for (const Panel& panel : m_panels) {
        const Matrix& m = *panel.matrix;
        if (m.size() > kMaxValueCells)
            continue;
        const double cell = cellPixels(panel);
        QFont valueFont = font(m_spec.fontPoints * 0.85);
        const QString widest = formatValue(-maxAbs(m, nullptr), m_spec.precision);
        // Shrink to fit down to 70% of the figure's size; below that numbers are noise.
        for (int attempt = 0; attempt < 4; ++attempt) {
            const QFontMetricsF metrics(valueFont);
            if (metrics.horizontalAdvance(widest) * 1.15 <= cell && metrics.height() * 1.2 <= cell)
                break;
            valueFont.setPixelSize(std::max(1, int(valueFont.pixelSize() * 0.9)));
        }
        const QFontMetricsF metrics(valueFont);
        if (metrics.horizontalAdvance(widest) * 1.15 > cell || metrics.height() * 1.2 > cell)
            continue;
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
                text->setFont(valueFont);
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
        const int column = int(std::lround(panel.rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
        const int row = int(std::lround(panel.rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y())));
        if (row < 0 || column < 0 || row >= panel.matrix->rows() || column >= panel.matrix->cols())
            return std::nullopt;
        return Cell{panel.head, panel.name, row, column};
    }
    return std::nullopt;
}

} // namespace attn::ui
