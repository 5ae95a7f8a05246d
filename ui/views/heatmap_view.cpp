#include "ui/views/heatmap_view.h"

#include "core/mask.h"
#include "core/token_display.h"

#include <qcustomplot.h>

#include <QAccessible>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QLabel>
#include <QStackedLayout>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QToolTip>
#include <charconv>
#include <cmath>

namespace attn::ui {

namespace {

// The shortest text that reads back as the same float: the exact weight.
QString exact(float value)
{
    if (std::isinf(value))
        return value < 0 ? QStringLiteral("−∞") : QStringLiteral("∞");
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
    QString text = QString::fromLatin1(buffer, int(end - buffer));
    if (text.startsWith(QLatin1Char('-')))
        text.replace(0, 1, QChar(0x2212));
    return text;
}

QString quoted(const std::vector<core::Token>& tokens, int index)
{
    if (index < 0 || index >= int(tokens.size()))
        return QString::number(index);
    return QStringLiteral("“%1” (%2)")
        .arg(core::tokenDisplayText(tokens[std::size_t(index)].text).toHtmlEscaped())
        .arg(index + 1);
}

QString scoreFormula(core::ScoreKind kind)
{
    switch (kind) {
    case core::ScoreKind::Dot:
    case core::ScoreKind::ScaledDot:
        return QStringLiteral("q<sub>i</sub>·k<sub>j</sub>");
    case core::ScoreKind::Additive:
        return QStringLiteral("w<sup>T</sup> tanh(q<sub>i</sub> + k<sub>j</sub>)");
    case core::ScoreKind::Bilinear:
        return QStringLiteral("q<sub>i</sub><sup>T</sup> M k<sub>j</sub>");
    case core::ScoreKind::Cosine:
        return QStringLiteral("cos(q<sub>i</sub>, k<sub>j</sub>)");
    }
    return {};
}

// Which rules mask cell (i, j), each asked of the core's own Mask with only that rule on.
QStringList maskReasons(const core::Problem& p, int i, int j)
{
    const core::MaskRules rules =
        core::maskRulesAt(p.mask, p.keyIsPadding, p.queryCount(), p.keyCount(), i, j);
    QStringList reasons;
    if (rules.causal)
        reasons.append(QStringLiteral("causal"));
    if (rules.window)
        reasons.append(QStringLiteral("window"));
    if (rules.padding)
        reasons.append(QStringLiteral("padding"));
    if (rules.custom)
        reasons.append(QStringLiteral("custom cell"));
    return reasons;
}

} // namespace

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent)
{
    m_stack = new QStackedLayout(this);
    m_stack->setContentsMargins(0, 0, 0, 0);
    m_plot = new QCustomPlot(this);
    // QCustomPlot's minimum size hint is its layout's (every panel title side by side): it
    // would widen the window past a 1280-pixel screen. The figure fits whatever room it gets.
    m_plot->setMinimumSize(160, 120); // down to a projector at a 1.5 scale factor
    m_plot->setMouseTracking(true);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->installEventFilter(this);
    m_message = new QLabel(this);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setMargin(24);
    m_message->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(m_plot);
    m_stack->addWidget(m_message);
    showMessage(tr("Computing…"));

    // The heatmap takes focus (Tab or a click) for its keyboard cell cursor.
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Attention heatmap"));
    setAccessibleDescription(tr("Arrow keys move a cell cursor; Space masks or unmasks the cell."));

    connect(m_plot, &QCustomPlot::mousePress, this, &HeatmapView::onPress);
    connect(m_plot, &QCustomPlot::mouseMove, this, &HeatmapView::onMove);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &HeatmapView::onRelease);
    connect(m_plot, &QCustomPlot::mouseWheel, this, &HeatmapView::onWheel);
}

HeatmapView::~HeatmapView() = default;

void HeatmapView::setSpec(const FigureSpec& spec)
{
    const bool viewChanged = spec.view != m_spec.view || spec.head != m_spec.head;
    m_spec = spec;
    if (viewChanged)
        m_zoom.reset();
    m_rebuild.schedule();
}

void HeatmapView::setResult(std::shared_ptr<const core::AttentionResult> result,
                            std::shared_ptr<const core::AttentionResult> compare)
{
    m_result = std::move(result);
    m_compare = std::move(compare);
    // Drawn at once, not queued: during a drag every result is one frame.
    rebuild();
}

void HeatmapView::showMessage(const QString& text)
{
    m_message->setText(text);
    m_stack->setCurrentWidget(m_message);
}

QString HeatmapView::message() const
{
    return m_stack->currentWidget() == m_message ? m_message->text() : QString();
}

QCPColorMap* HeatmapView::colorMap() const
{
    for (int i = 0; i < m_plot->plottableCount(); ++i)
        if (auto* map = qobject_cast<QCPColorMap*>(m_plot->plottable(i)))
            return map;
    return nullptr;
}

std::optional<FigureBuilder::Cell> HeatmapView::cellAt(QPointF pixel) const
{
    if (!m_builder || m_stack->currentWidget() != m_plot)
        return std::nullopt;
    return m_builder->cellAt(pixel);
}

QSize HeatmapView::devicePixelSize() const
{
    const qreal ratio = devicePixelRatioF();
    return QSize(int(std::ceil(width() * ratio)), int(std::ceil(height() * ratio)));
}

void HeatmapView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        m_rebuild.schedule();
}

bool HeatmapView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_plot && event->type() == QEvent::Resize)
        m_rebuild.schedule(); // labels and square cells depend on the size
    if (watched == m_plot && event->type() == QEvent::Leave)
        QToolTip::hideText();
    return QWidget::eventFilter(watched, event);
}

void HeatmapView::rebuild()
{
    m_rebuild.markDone();
    if (!m_result)
        return;
    if (!isVisible() || m_plot->width() < 8 || m_plot->height() < 8) {
        m_dirty = true;
        m_builder.reset(); // it points into the result being replaced
        return;
    }
    m_dirty = false;
    QElapsedTimer timer;
    timer.start();
    m_highlight = nullptr; // the builder clears every item
    m_cursorItem = nullptr;
    m_stack->setCurrentWidget(m_plot);
    try {
        auto builder = std::make_unique<FigureBuilder>(*m_plot, m_spec);
        builder->build(*m_result, m_plot->size(), m_compare.get());
        m_builder = std::move(builder);
    } catch (const std::exception& error) {
        m_builder.reset();
        m_plot->clearItems();
        m_plot->clearPlottables();
        m_plot->plotLayout()->clear();
        showMessage(QString::fromUtf8(error.what()));
        return;
    }
    const QSize shape = matrixSize();
    if (shape != m_builtMatrix || !zoomable())
        m_zoom.reset();
    m_builtMatrix = shape;
    if (m_zoom)
        applyZoom();
    updateHighlight();
    updateCursor(false);
    m_buildMs = double(timer.nsecsElapsed()) / 1e6;
    emit figureBuilt();
}

bool HeatmapView::zoomable() const
{
    return (m_spec.view == FigureView::Head || m_spec.view == FigureView::Difference) &&
           m_plot->axisRectCount() >= 1;
}

QSize HeatmapView::matrixSize() const
{
    const QCPColorMap* map = colorMap();
    return map ? QSize(map->data()->keySize(), map->data()->valueSize()) : QSize();
}

void HeatmapView::resetZoom()
{
    if (!m_zoom)
        return;
    m_zoom.reset();
    rebuild(); // the builder's own labels for the whole matrix
}

void HeatmapView::zoomBy(double factor)
{
    if (!zoomable())
        return;
    const QRect r = m_plot->axisRect(0)->rect();
    zoomAt(QPointF(r.center()), factor);
}

void HeatmapView::zoomAt(QPointF pixel, double factor)
{
    const QSize n = matrixSize();
    if (!zoomable() || n.isEmpty())
        return;
    QCPAxis* x = m_plot->axisRect(0)->axis(QCPAxis::atBottom);
    QCPAxis* y = m_plot->axisRect(0)->axis(QCPAxis::atLeft);
    Zoom z = m_zoom.value_or(
        Zoom{x->range().lower, x->range().upper, y->range().lower, y->range().upper});
    // At least one whole cell stays in view; at most the whole matrix.
    const double w = z.x1 - z.x0;
    const double h = z.y1 - z.y0;
    factor = std::clamp(factor, 1.0 / std::min(w, h),
                        std::max(double(n.width()) / w, double(n.height()) / h));
    const double cx = x->pixelToCoord(pixel.x());
    const double cy = y->pixelToCoord(pixel.y());
    z = {cx - (cx - z.x0) * factor, cx + (z.x1 - cx) * factor, cy - (cy - z.y0) * factor,
         cy + (z.y1 - cy) * factor};
    if (z.x1 - z.x0 >= n.width() - 1e-9 && z.y1 - z.y0 >= n.height() - 1e-9) {
        resetZoom();
        return;
    }
    m_zoom = z;
    applyZoom();
}

void HeatmapView::panBy(QPointF pixels)
{
    if (!m_zoom)
        return;
    QCPAxis* x = m_plot->axisRect(0)->axis(QCPAxis::atBottom);
    QCPAxis* y = m_plot->axisRect(0)->axis(QCPAxis::atLeft);
    const double dx = x->pixelToCoord(0) - x->pixelToCoord(pixels.x());
    const double dy = y->pixelToCoord(0) - y->pixelToCoord(pixels.y());
    m_zoom->x0 += dx;
    m_zoom->x1 += dx;
    m_zoom->y0 += dy;
    m_zoom->y1 += dy;
    applyZoom();
}

void HeatmapView::applyZoom()
{
    const QSize n = matrixSize();
    Zoom& z = *m_zoom;
    // Keep the view inside the matrix.
    auto clampRange = [](double& a, double& b, int cells) {
        const double width = std::min(b - a, double(cells));
        a = std::clamp(a, -0.5, cells - 0.5 - width);
        b = a + width;
    };
    clampRange(z.x0, z.x1, n.width());
    clampRange(z.y0, z.y1, n.height());
    QCPAxisRect* rect = m_plot->axisRect(0);
    rect->axis(QCPAxis::atBottom)->setRange(z.x0, z.x1);
    rect->axis(QCPAxis::atLeft)->setRange(z.y0, z.y1);
    relabel();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

// Zoomed in, more labels fit: the same rules as FigureBuilder's, for the visible cells.
void HeatmapView::relabel()
{
    if (!m_result || !m_zoom)
        return;
    const core::AttentionResult& r = *m_result;
    QCPAxisRect* rect = m_plot->axisRect(0);
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const double cell = double(rect->width()) / x->range().size();
    const QFontMetricsF metrics(x->tickLabelFont());
    const double line = metrics.height();
    const int step = std::max(1, int(std::ceil(line * 1.05 / std::max(cell, 1e-3))));
    auto label = [&](QCPAxis* axis, const QStringList& labels) {
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        const int first = std::max(0, int(std::ceil(axis->range().lower)));
        const int last = std::min(int(labels.size()) - 1, int(std::floor(axis->range().upper)));
        for (int i = first - first % step; i <= last; i += step)
            if (i >= first)
                ticker->addTick(i, labels[i]);
        axis->setTicker(ticker);
    };
    const QStringList columns = tokenLabels(r.problem->keyTokens, r.pooling.colBlock);
    double widest = 0.0;
    for (const QString& text : columns)
        widest = std::max(widest, metrics.horizontalAdvance(text));
    x->setTickLabelRotation(widest + line * 0.5 <= cell ? 0 : cell >= line * 1.6 ? -45 : -90);
    label(x, columns);
    label(y, tokenLabels(r.problem->queryTokens, r.pooling.rowBlock));
}

void HeatmapView::setHighlightedHead(int head)
{
    if (head == m_highlightHead)
        return;
    m_highlightHead = head;
    updateHighlight();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapView::updateHighlight()
{
    if (m_highlight) {
        m_plot->removeItem(m_highlight);
        m_highlight = nullptr;
    }
    // The head's own panel: QCustomPlot::axisRect(i) walks the layout as a stack, so its
    // order is not the heads' (axisRect(0) was the last head, framed while head 1 was shown).
    if (m_spec.view != FigureView::Heads || m_highlightHead < 0 || !m_builder)
        return;
    QCPAxisRect* rect = m_builder->panelRect(QStringLiteral("weights"), m_highlightHead);
    if (!rect)
        return;
    m_highlight = new QCPItemRect(m_plot);
    m_highlight->setClipToAxisRect(false);
    for (QCPItemPosition* corner : {m_highlight->topLeft, m_highlight->bottomRight}) {
        corner->setType(QCPItemPosition::ptAxisRectRatio);
        corner->setAxisRect(rect);
    }
    const double pad = 4.0 / std::max(1, std::min(rect->width(), rect->height()));
    m_highlight->topLeft->setCoords(-pad, -pad);
    m_highlight->bottomRight->setCoords(1 + pad, 1 + pad);
    m_highlight->setPen(QPen(palette().color(QPalette::Highlight), 3));
    m_highlight->setBrush(Qt::NoBrush);
}

QCPAxisRect* HeatmapView::highlightedRect() const
{
    if (!m_highlight)
        return nullptr;
    return m_highlight->topLeft->axisRect();
}

void HeatmapView::setMaskPainting(bool on)
{
    m_maskPainting = on;
    m_plot->setCursor(on ? Qt::CrossCursor : Qt::ArrowCursor);
}

void HeatmapView::onPress(QMouseEvent* event)
{
    QToolTip::hideText();
    m_lastPos = event->position();
    const auto cell = cellAt(event->position());
    if (m_spec.view == FigureView::Heads) {
        if (cell && event->button() == Qt::LeftButton)
            emit headClicked(cell->head);
        return;
    }
    const bool paintable = m_spec.view == FigureView::Head && m_result && !m_result->pooling.pooled;
    if (event->button() == Qt::LeftButton && m_maskPainting && paintable && cell &&
        cell->matrix == QLatin1String("weights")) {
        m_drag = Drag::Paint;
        m_lastCell = {cell->row, cell->column};
        emit maskPaintStarted(cell->resultRow(), cell->resultColumn());
        return;
    }
    if ((event->button() == Qt::LeftButton || event->button() == Qt::MiddleButton) && m_zoom) {
        m_drag = Drag::Pan;
        m_plot->setCursor(Qt::ClosedHandCursor);
    }
}

void HeatmapView::onMove(QMouseEvent* event)
{
    const QPointF pos = event->position();
    if (m_drag == Drag::Pan) {
        panBy(pos - m_lastPos);
        m_lastPos = pos;
        return;
    }
    const auto cell = cellAt(pos);
    if (m_drag == Drag::Paint) {
        if (cell && cell->matrix == QLatin1String("weights") &&
            std::pair{cell->row, cell->column} != m_lastCell) {
            m_lastCell = {cell->row, cell->column};
            emit maskPaintMoved(cell->resultRow(), cell->resultColumn());
        }
        return;
    }
    if (event->buttons() != Qt::NoButton)
        return;
    if (!cell) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), describeCell(*cell), m_plot);
}

void HeatmapView::onRelease(QMouseEvent*)
{
    if (m_drag == Drag::Paint)
        emit maskPaintFinished();
    if (m_drag == Drag::Pan)
        m_plot->setCursor(m_maskPainting ? Qt::CrossCursor : Qt::ArrowCursor);
    m_drag = Drag::None;
}

void HeatmapView::onWheel(QWheelEvent* event)
{
    if (!zoomable())
        return;
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    zoomAt(event->position(), std::pow(0.8, steps));
    event->accept();
}

QString HeatmapView::describeCell(const FigureBuilder::Cell& cell) const
{
    if (!m_result)
        return {};
    const core::AttentionResult& r = *m_result;
    const core::Problem& p = *r.problem;
    const int i = cell.resultRow();
    const int j = cell.resultColumn();
    QStringList lines;
    const bool attention =
        cell.matrix == QLatin1String("weights") || cell.matrix == QLatin1String("difference") ||
        cell.matrix == QLatin1String("scores") || cell.matrix == QLatin1String("masked scores");
    const QString headName =
        cell.head < 0 ? tr("mean of enabled heads") : tr("head %1").arg(cell.head + 1);

    if (attention && r.pooling.pooled) {
        const int i0 = i * r.pooling.rowBlock;
        const int j0 = j * r.pooling.colBlock;
        const int i1 = std::min(p.queryCount(), i0 + r.pooling.rowBlock);
        const int j1 = std::min(p.keyCount(), j0 + r.pooling.colBlock);
        lines << tr("<b>queries %1–%2 × keys %3–%4</b> (%5)")
                     .arg(i0 + 1)
                     .arg(i1)
                     .arg(j0 + 1)
                     .arg(j1)
                     .arg(headName);
        const float value = cell.head < 0 ? core::meanOfEnabledHeads(r, i, j)
                                          : r.heads[std::size_t(cell.head)].weights(i, j);
        lines << tr("%1 weight of the block: <b>%2</b>")
                     .arg(r.pooling.mode == core::PoolMode::Max ? tr("largest") : tr("mean"),
                          exact(value));
        lines
            << tr("<i>%1 tokens are pooled to fit the screen; fewer tokens show single cells.</i>")
                   .arg(std::max(p.queryCount(), p.keyCount()));
        return lines.join(QStringLiteral("<br>"));
    }

    if (!attention) {
        // A pipeline panel: X, Q, K, V or the output.
        const core::HeadResult& h = r.heads[std::size_t(std::max(0, cell.head))];
        const std::pair<const char*, const core::Matrix*> panels[] = {
            {"X", &r.queryInput()}, {"Q", &h.Q}, {"K", &h.K}, {"V", &h.V}, {"output", &h.output}};
        for (const auto& [name, matrix] : panels)
            if (cell.matrix == QLatin1String(name) && i < matrix->rows() && j < matrix->cols()) {
                const bool keys =
                    cell.matrix == QLatin1String("K") || cell.matrix == QLatin1String("V");
                lines << tr("<b>%1</b>, row %2, column %3")
                             .arg(cell.matrix)
                             .arg(quoted(keys ? p.keyTokens : p.queryTokens, i))
                             .arg(j);
                lines << tr("value: <b>%1</b>").arg(exact((*matrix)(i, j)));
            }
        return lines.join(QStringLiteral("<br>"));
    }

    lines << tr("<b>query %1 → key %2</b> · %3")
                 .arg(quoted(p.queryTokens, i), quoted(p.keyTokens, j), headName);
    if (cell.matrix == QLatin1String("difference") && m_compare) {
        const float a = cell.head < 0 ? core::meanOfEnabledHeads(r, i, j)
                                      : r.heads[std::size_t(cell.head)].weights(i, j);
        const float b = cell.head < 0 ? core::meanOfEnabledHeads(*m_compare, i, j)
                                      : m_compare->heads[std::size_t(cell.head)].weights(i, j);
        lines << tr("this setting: %1").arg(exact(a));
        lines << tr("compared setting: %1").arg(exact(b));
        lines << tr("difference: <b>%1</b>").arg(exact(a - b));
        return lines.join(QStringLiteral("<br>"));
    }
    if (cell.head < 0) {
        lines << tr("weight: <b>%1</b>").arg(exact(core::meanOfEnabledHeads(r, i, j)));
        QStringList perHead;
        for (std::size_t h = 0; h < r.heads.size(); ++h)
            perHead << tr("head %1: %2%3")
                           .arg(h + 1)
                           .arg(exact(r.heads[h].weights(i, j)))
                           .arg(r.heads[h].enabled ? QString() : tr(" (off)"));
        lines << perHead.join(QStringLiteral(" · "));
        return lines.join(QStringLiteral("<br>"));
    }
    const core::HeadResult& h = r.heads[std::size_t(cell.head)];
    if (r.intermediatesKept && h.rawScores.size() > 0) {
        lines << tr("score %1 = %2").arg(scoreFormula(p.score), exact(h.rawScores(i, j)));
        QString scale = tr("× %1").arg(exact(p.scoreScale()));
        QStringList why;
        if (p.score == core::ScoreKind::ScaledDot)
            why << tr("1/√d<sub>k</sub> = 1/√%1").arg(p.weights->dK);
        if (p.temperature != 1.0f)
            why << tr("temperature %1").arg(exact(p.temperature));
        if (!why.isEmpty())
            scale += QStringLiteral(" (") + why.join(QStringLiteral(", ")) + QLatin1Char(')');
        lines << tr("scaled %1 = %2").arg(scale, exact(h.scaledScores(i, j)));
    }
    const QStringList reasons = maskReasons(p, i, j);
    if (reasons.isEmpty())
        lines << tr("not masked");
    else
        lines << tr("masked (%1) → %2")
                     .arg(reasons.join(QStringLiteral(", ")),
                          p.fill == core::MaskFill::NegativeInfinity ? QStringLiteral("−∞")
                                                                     : QStringLiteral("−9e15"));
    if (p.normalization == core::Normalization::None)
        lines << tr("not normalized: the scaled score is the weight (masked: 0) → <b>%1</b>")
                     .arg(exact(h.weights(i, j)));
    else
        lines << tr("%1 over the row → weight <b>%2</b>")
                     .arg(normalizationDisplayName(p.normalization), exact(h.weights(i, j)));
    if (!h.enabled)
        lines << tr("<i>this head is switched off: it adds nothing to the output</i>");
    return lines.join(QStringLiteral("<br>"));
}

int HeatmapView::cursorHead() const
{
    return m_spec.view == FigureView::Heads ? std::max(0, m_highlightHead) : m_spec.head;
}

QSize HeatmapView::cursorMatrixSize() const
{
    QCPAxisRect* rect =
        m_builder ? m_builder->panelRect(QStringLiteral("weights"), cursorHead()) : nullptr;
    if (!rect)
        return {};
    for (int i = 0; i < m_plot->plottableCount(); ++i)
        if (auto* map = qobject_cast<QCPColorMap*>(m_plot->plottable(i));
            map && map->keyAxis()->axisRect() == rect)
            return QSize(map->data()->keySize(), map->data()->valueSize());
    return {};
}

std::optional<FigureBuilder::Cell> HeatmapView::cursorCell() const
{
    const QSize size = cursorMatrixSize();
    if (!m_cursor || size.isEmpty())
        return std::nullopt;
    const int row = std::min(m_cursor->first, size.height() - 1);
    const int column = std::min(m_cursor->second, size.width() - 1);
    return FigureBuilder::Cell{
        cursorHead(), QStringLiteral("weights"),
        row,          column,
        -1,           m_spec.transposed && m_spec.view != FigureView::Pipeline};
}

void HeatmapView::keyPressEvent(QKeyEvent* event)
{
    const QSize size = cursorMatrixSize();
    if (size.isEmpty() || !m_result) {
        QWidget::keyPressEvent(event);
        return;
    }
    auto [row, column] = m_cursor.value_or(std::pair{0, 0});
    const bool first = !m_cursor;
    switch (event->key()) {
    case Qt::Key_Left:
        column -= first ? 0 : 1;
        break;
    case Qt::Key_Right:
        column += first ? 0 : 1;
        break;
    case Qt::Key_Up:
        row -= first ? 0 : 1;
        break;
    case Qt::Key_Down:
        row += first ? 0 : 1;
        break;
    case Qt::Key_Home:
        column = 0;
        break;
    case Qt::Key_End:
        column = size.width() - 1;
        break;
    case Qt::Key_Space: {
        const auto cell = cursorCell();
        if (cell && m_spec.view == FigureView::Head && !m_result->pooling.pooled) {
            emit maskPaintStarted(cell->resultRow(), cell->resultColumn());
            emit maskPaintFinished();
        }
        return;
    }
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    m_cursor =
        std::pair{std::clamp(row, 0, size.height() - 1), std::clamp(column, 0, size.width() - 1)};
    updateCursor(true);
}

void HeatmapView::focusOutEvent(QFocusEvent* event)
{
    QToolTip::hideText();
    QWidget::focusOutEvent(event);
}

// Frames the cursor's cell, and with `announce` shows its tooltip and tells assistive
// technology the cell's description (what hovering shows).
void HeatmapView::updateCursor(bool announce)
{
    if (m_cursorItem) {
        m_plot->removeItem(m_cursorItem);
        m_cursorItem = nullptr;
    }
    const auto cell = cursorCell();
    QCPAxisRect* rect = cell ? m_builder->panelRect(cell->matrix, cell->head) : nullptr;
    if (!cell || !rect)
        return;
    m_cursorItem = new QCPItemRect(m_plot);
    m_cursorItem->setClipAxisRect(rect);
    for (QCPItemPosition* corner : {m_cursorItem->topLeft, m_cursorItem->bottomRight}) {
        corner->setType(QCPItemPosition::ptPlotCoords);
        corner->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    }
    m_cursorItem->topLeft->setCoords(cell->column - 0.5, cell->row - 0.5);
    m_cursorItem->bottomRight->setCoords(cell->column + 0.5, cell->row + 0.5);
    m_cursorItem->setPen(QPen(palette().color(QPalette::Highlight), 3));
    m_cursorItem->setBrush(Qt::NoBrush);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    if (!announce)
        return;
    const QString text = describeCell(*cell);
    setAccessibleDescription(
        QTextDocumentFragment::fromHtml(text).toPlainText()); // read aloud: no markup
    QAccessibleEvent changed(this, QAccessible::DescriptionChanged);
    QAccessible::updateAccessibility(&changed);
    const QPointF centre(rect->axis(QCPAxis::atBottom)->coordToPixel(cell->column),
                         rect->axis(QCPAxis::atLeft)->coordToPixel(cell->row));
    QToolTip::showText(m_plot->mapToGlobal(centre.toPoint()), text, m_plot);
}

} // namespace attn::ui
