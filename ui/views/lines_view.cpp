#include "ui/views/lines_view.h"

#include "core/token_display.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintDevice>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn::ui {
namespace {

using core::Matrix;

QFont scaledFont(const QFont& font, double scale)
{
    QFont f = font;
    if (font.pointSizeF() > 0)
        f.setPointSizeF(font.pointSizeF() * scale);
    else
        f.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * scale))));
    return f;
}

QString headingText(LinesView::Side side, bool cross)
{
    if (side == LinesView::Side::Query)
        return cross ? LinesView::tr("Queries (target)") : LinesView::tr("Queries");
    return cross ? LinesView::tr("Keys (source)") : LinesView::tr("Keys");
}

// The drawing itself, shared by render() and the widget (which caches the geometry and the
// weights it is given).
void draw(QPainter& painter, const LinesView::Geometry& g, const core::AttentionResult& result,
          const Matrix& weights, const QFont& headingFont, const QColor& color,
          LinesView::Highlight highlight)
{
    painter.save();
    const QColor textColor = painter.pen().color();
    QColor muted = textColor;
    muted.setAlphaF(0.6f);
    const QPaintDevice* device = painter.device();
    const double unit = device ? device->logicalDpiX() / 96.0 : 1.0; // one screen pixel

    if (!g.message.isEmpty()) {
        painter.setFont(headingFont);
        painter.setPen(muted);
        painter.drawText(g.queryHeading, Qt::AlignCenter | Qt::TextWordWrap, g.message);
        painter.restore();
        return;
    }

    const core::Problem& problem = *result.problem;
    const int tq = problem.queryCount();
    const int tk = problem.keyCount();
    const bool hq =
        highlight.side == LinesView::Side::Query && highlight.index >= 0 && highlight.index < tq;
    const bool hk =
        highlight.side == LinesView::Side::Key && highlight.index >= 0 && highlight.index < tk;

    // Lines, grouped by weight level so that each group is one pen and one drawLines call.
    // Opacity and width both follow the weight, as in BertViz's head view.
    constexpr int kLevels = 40;
    std::vector<std::vector<QLineF>> levels(kLevels + 1);
    auto add = [&](int i, int j) {
        const double w = std::clamp(double(weights(i, j)), 0.0, 1.0);
        const int level = int(std::lround(w * kLevels));
        if (level > 0) // below 1/80 a line is invisible
            levels[std::size_t(level)].emplace_back(g.queryAnchors[std::size_t(i)],
                                                    g.keyAnchors[std::size_t(j)]);
    };
    if (hq)
        for (int j = 0; j < tk; ++j)
            add(highlight.index, j);
    else if (hk)
        for (int i = 0; i < tq; ++i)
            add(i, highlight.index);
    else
        for (int i = 0; i < tq; ++i)
            for (int j = 0; j < tk; ++j)
                add(i, j);
    // Every line costs its length in blended pixels; past kMaxLines the faintest levels are
    // left out (they are near-transparent), but the strongest level is always drawn whole.
    int lowest = 1;
    for (int level = kLevels, drawn = 0; level >= 1; --level) {
        const int count = int(levels[std::size_t(level)].size());
        if (drawn > 0 && drawn + count > LinesView::kMaxLines) {
            lowest = level + 1;
            break;
        }
        drawn += count;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    const double maxWidth = std::clamp(g.rowHeight * 0.3, 0.8 * unit, 3.5 * unit);
    const double minWidth = std::min(0.6 * unit, maxWidth);
    for (int level = lowest; level <= kLevels; ++level) {
        const auto& lines = levels[std::size_t(level)];
        if (lines.empty())
            continue;
        const double t = double(level) / kLevels;
        QColor c = color;
        c.setAlphaF(float(t));
        // Flat caps: round ones cost the raster engine several times more per line.
        painter.setPen(QPen(c, minWidth + (maxWidth - minWidth) * t, Qt::SolidLine, Qt::FlatCap));
        painter.drawLines(lines.data(), int(lines.size()));
    }

    // Headings and tokens. A highlighted token gets a tinted box; the tokens on the other
    // side are tinted by their weight to it.
    painter.setFont(headingFont);
    painter.setPen(muted);
    const bool cross = problem.cross;
    painter.drawText(g.queryHeading, Qt::AlignRight | Qt::AlignBottom,
                     headingText(LinesView::Side::Query, cross));
    painter.drawText(g.keyHeading, Qt::AlignLeft | Qt::AlignBottom,
                     headingText(LinesView::Side::Key, cross));

    const QFontMetricsF fm(g.font, const_cast<QPaintDevice*>(device));
    painter.setFont(g.font);
    const double boxPad = fm.height() * 0.25;
    auto label = [&](const core::Token& token, const QRectF& rect, bool right, double tint,
                     bool dim) {
        const QString text =
            fm.elidedText(core::tokenDisplayText(token.text), Qt::ElideMiddle, rect.width());
        if (tint > 0.0) {
            const double w = fm.horizontalAdvance(text);
            const QRectF box(right ? rect.right() - w - boxPad : rect.left() - boxPad,
                             rect.top() + 0.5, w + 2 * boxPad, rect.height() - 1.0);
            QColor fill = color;
            fill.setAlphaF(float(std::clamp(tint, 0.0, 1.0) * 0.45));
            painter.setPen(Qt::NoPen);
            painter.setBrush(fill);
            painter.drawRoundedRect(box, boxPad, boxPad);
        }
        QColor pen = textColor;
        if (dim)
            pen.setAlphaF(0.45f);
        painter.setPen(pen);
        painter.drawText(rect, (right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter, text);
    };
    for (int i = 0; i < tq; ++i) {
        const bool self = hq && i == highlight.index;
        if (i % g.labelStep != 0 && !self)
            continue;
        const double tint = self ? 1.0 : hk ? double(weights(i, highlight.index)) : 0.0;
        label(problem.queryTokens[std::size_t(i)], g.queryLabels[std::size_t(i)], true, tint,
              false);
    }
    for (int j = 0; j < tk; ++j) {
        const bool self = hk && j == highlight.index;
        if (j % g.labelStep != 0 && !self)
            continue;
        const double tint = self ? 1.0 : hq ? double(weights(highlight.index, j)) : 0.0;
        const bool padding =
            j < int(problem.keyIsPadding.size()) && problem.keyIsPadding[std::size_t(j)];
        label(problem.keyTokens[std::size_t(j)], g.keyLabels[std::size_t(j)], false, tint, padding);
    }
    painter.restore();
}

} // namespace

LinesView::LinesView(QWidget* parent) : QWidget(parent), m_color(0x1f, 0x77, 0xb4)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

LinesView::~LinesView() = default;

void LinesView::setResult(std::shared_ptr<const core::AttentionResult> result, int head)
{
    m_result = std::move(result);
    m_head = head;
    m_highlight = {};
    invalidate();
    updateGeometry();
}

void LinesView::setColor(const QColor& color)
{
    m_color = color;
    m_cache = QPixmap();
    update();
}

void LinesView::setHighlight(Highlight highlight)
{
    if (highlight.side == Side::Neither)
        highlight.index = -1;
    if (highlight.side == m_highlight.side && highlight.index == m_highlight.index)
        return;
    m_highlight = highlight;
    update();
}

void LinesView::render(QPainter& painter, const QRectF& target, const core::AttentionResult& result,
                       int head, const QFont& font, const QColor& color)
{
    render(painter, target, result, head, font, color, Highlight{});
}

void LinesView::render(QPainter& painter, const QRectF& target, const core::AttentionResult& result,
                       int head, const QFont& font, const QColor& color, Highlight highlight)
{
    const Geometry g = layout(target, result, head, font, painter.device());
    const Matrix weights = g.message.isEmpty() ? headWeights(result, head) : Matrix();
    draw(painter, g, result, weights, font, color, highlight);
}

QString LinesView::unavailableReason(const core::AttentionResult& result, int head)
{
    if (!result.problem || result.heads.empty())
        return tr("No attention weights to draw.");
    const int heads = int(result.heads.size());
    if (head < -1 || head >= heads)
        return tr("There is no head %1; this result has %2.").arg(head + 1).arg(heads);
    if (result.pooling.pooled)
        return tr("These weights are pooled into blocks of %1 \u00d7 %2 cells, so their rows are "
                  "no "
                  "longer tokens. The lines view needs one row per token: shorten the input, or "
                  "use "
                  "the heatmap.")
            .arg(result.pooling.rowBlock)
            .arg(result.pooling.colBlock);
    const int tq = result.problem->queryCount();
    const int tk = result.problem->keyCount();
    if (tq == 0 || tk == 0)
        return tr("No tokens.");
    if (tq > kMaxTokens || tk > kMaxTokens)
        return tr("%1 queries and %2 keys are too many to draw as lines (at most %3 a side). The "
                  "heatmap shows every weight.")
            .arg(tq)
            .arg(tk)
            .arg(kMaxTokens);
    for (const core::HeadResult& h : result.heads)
        if (h.weights.rows() != tq || h.weights.cols() != tk)
            return tr("The weights (%1 \u00d7 %2) do not match the tokens (%3 \u00d7 %4).")
                .arg(h.weights.rows())
                .arg(h.weights.cols())
                .arg(tq)
                .arg(tk);
    return {};
}

Matrix LinesView::headWeights(const core::AttentionResult& result, int head)
{
    if (head >= 0)
        return result.heads.at(std::size_t(head)).weights;
    return core::meanOfEnabledHeads(result);
}

LinesView::Geometry LinesView::layout(const QRectF& target, const core::AttentionResult& result,
                                      int head, const QFont& font, const QPaintDevice* device)
{
    Geometry g;
    g.font = font;
    auto* dev = const_cast<QPaintDevice*>(device);
    const QFontMetricsF fm = dev ? QFontMetricsF(font, dev) : QFontMetricsF(font);
    const double line = fm.height();
    const double pad = line * 0.5;
    g.message = unavailableReason(result, head);
    if (!g.message.isEmpty()) {
        g.queryHeading = target.adjusted(pad, pad, -pad, -pad); // where the message goes
        return g;
    }

    const core::Problem& problem = *result.problem;
    const int tq = problem.queryCount();
    const int tk = problem.keyCount();
    const int n = std::max(tq, tk);
    const double headingHeight = line * 1.5;
    const double available = std::max(1.0, target.height() - 2 * pad - headingHeight);
    g.rowHeight = std::min(line * 1.45, available / n);
    // Tight rows take a smaller font, down to 60 %; tighter still, only every k-th label.
    const double scale = std::clamp(g.rowHeight / (line * 1.15), 0.6, 1.0);
    g.font = scaledFont(font, scale);
    const QFontMetricsF small = dev ? QFontMetricsF(g.font, dev) : QFontMetricsF(g.font);
    g.labelStep = std::max(1, int(std::ceil(small.height() * 1.02 / g.rowHeight)));

    const bool cross = problem.cross;
    auto widest = [&](const std::vector<core::Token>& tokens, Side side) {
        double w = fm.horizontalAdvance(headingText(side, cross));
        for (std::size_t i = 0; i < tokens.size(); i += std::size_t(g.labelStep))
            w = std::max(w, small.horizontalAdvance(core::tokenDisplayText(tokens[i].text)));
        return std::min(w, std::max(line, target.width() * 0.3));
    };
    const double leftWidth = widest(problem.queryTokens, Side::Query);
    const double rightWidth = widest(problem.keyTokens, Side::Key);
    const double gap = line * 0.6;
    const double room = target.width() - 2 * pad - leftWidth - rightWidth - 2 * gap;
    // Past about twelve lines of text the lines only get flatter: centre the group instead.
    const double span = std::clamp(room, line, line * 12.0);
    const double total = leftWidth + rightWidth + 2 * gap + span;
    const double x0 = target.left() + std::max(pad, (target.width() - total) / 2.0);
    const double block = n * g.rowHeight;
    const double top =
        target.top() + pad + headingHeight + std::max(0.0, (available - block) / 2.0);

    g.queryHeading = QRectF(x0, top - headingHeight, leftWidth, headingHeight - line * 0.3);
    const double qx = x0 + leftWidth + gap;
    const double kx = qx + span;
    g.keyHeading = QRectF(kx + gap, top - headingHeight, rightWidth, headingHeight - line * 0.3);
    for (int i = 0; i < tq; ++i) {
        const double y = top + i * g.rowHeight;
        g.queryLabels.emplace_back(x0, y, leftWidth, g.rowHeight);
        g.queryAnchors.emplace_back(qx, y + g.rowHeight / 2.0);
    }
    for (int j = 0; j < tk; ++j) {
        const double y = top + j * g.rowHeight;
        g.keyLabels.emplace_back(kx + gap, y, rightWidth, g.rowHeight);
        g.keyAnchors.emplace_back(kx, y + g.rowHeight / 2.0);
    }
    return g;
}

void LinesView::invalidate()
{
    m_geometry.reset();
    m_weights.reset();
    m_cache = QPixmap();
    update();
}

const LinesView::Geometry& LinesView::geometry() const
{
    if (!m_geometry)
        m_geometry =
            std::make_unique<Geometry>(layout(QRectF(rect()), *m_result, m_head, font(), this));
    return *m_geometry;
}

const Matrix& LinesView::weights() const
{
    if (!m_weights)
        m_weights = std::make_unique<Matrix>(
            geometry().message.isEmpty() ? headWeights(*m_result, m_head) : Matrix());
    return *m_weights;
}

LinesView::Highlight LinesView::tokenAt(QPointF point) const
{
    if (!m_result || !geometry().message.isEmpty())
        return {};
    const Geometry& g = geometry();
    // A row is hit anywhere between the column's edge and its anchor, not only on the glyphs.
    for (std::size_t i = 0; i < g.queryLabels.size(); ++i)
        if (g.queryLabels[i]
                .adjusted(0, 0, g.queryAnchors[i].x() - g.queryLabels[i].right(), 0)
                .contains(point))
            return {Side::Query, int(i)};
    for (std::size_t j = 0; j < g.keyLabels.size(); ++j)
        if (g.keyLabels[j]
                .adjusted(g.keyAnchors[j].x() - g.keyLabels[j].left(), 0, 0, 0)
                .contains(point))
            return {Side::Key, int(j)};
    return {};
}

QString LinesView::describe(Highlight highlight) const
{
    if (!m_result || highlight.side == Side::Neither)
        return {};
    const core::Problem& problem = *m_result->problem;
    const Matrix& w = weights();
    const bool query = highlight.side == Side::Query;
    const int count = query ? problem.keyCount() : problem.queryCount();
    std::vector<int> order(static_cast<std::size_t>(count));
    std::iota(order.begin(), order.end(), 0);
    auto weight = [&](int other) {
        return query ? w(highlight.index, other) : w(other, highlight.index);
    };
    const std::size_t shown = std::min<std::size_t>(3, order.size());
    std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(shown), order.end(),
                      [&](int a, int b) { return weight(a) > weight(b); });
    const auto& self = query ? problem.queryTokens : problem.keyTokens;
    const auto& others = query ? problem.keyTokens : problem.queryTokens;
    QString text = tr("<b>%1</b> (%2 %3)")
                       .arg(self[std::size_t(highlight.index)].text.toHtmlEscaped(),
                            query ? tr("query") : tr("key"))
                       .arg(highlight.index);
    text += query ? tr("<br>attends most to:") : tr("<br>attended most by:");
    for (std::size_t k = 0; k < shown; ++k)
        text += QStringLiteral("<br>&nbsp;&nbsp;%1 &nbsp;%2")
                    .arg(others[std::size_t(order[k])].text.toHtmlEscaped())
                    .arg(double(weight(order[k])), 0, 'f', 3);
    return text;
}

void LinesView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QColor base = palette().color(QPalette::Base);
    if (!m_result) {
        painter.fillRect(rect(), base);
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No result yet"));
        return;
    }
    if (m_highlight.side != Side::Neither) { // one token's lines: cheap to draw afresh
        painter.fillRect(rect(), base);
        painter.setPen(palette().color(QPalette::Text));
        draw(painter, geometry(), *m_result, weights(), font(), m_color, m_highlight);
        return;
    }
    const qreal ratio = devicePixelRatioF();
    if (m_cache.isNull() || m_cache.size() != size() * ratio) {
        m_cache = QPixmap(size() * ratio);
        m_cache.setDevicePixelRatio(ratio);
        m_cache.fill(base);
        QPainter cache(&m_cache);
        cache.setPen(palette().color(QPalette::Text));
        cache.setFont(font());
        draw(cache, geometry(), *m_result, weights(), font(), m_color, {});
    }
    painter.drawPixmap(0, 0, m_cache);
}

void LinesView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_geometry.reset();
    m_cache = QPixmap();
}

void LinesView::mouseMoveEvent(QMouseEvent* event)
{
    setHighlight(tokenAt(event->position()));
    QWidget::mouseMoveEvent(event);
}

void LinesView::leaveEvent(QEvent* event)
{
    setHighlight({});
    QWidget::leaveEvent(event);
}

bool LinesView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = describe(tokenAt(help->pos()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void LinesView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange)
        m_geometry.reset();
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        m_cache = QPixmap();
    QWidget::changeEvent(event);
}

QSize LinesView::sizeHint() const
{
    const double line = QFontMetricsF(font()).height();
    int n = 8;
    if (m_result && m_result->problem)
        n = std::max(m_result->problem->queryCount(), m_result->problem->keyCount());
    return {420, int(std::min(line * (2.5 + 1.45 * n), line * 40.0))};
}

QSize LinesView::minimumSizeHint() const
{
    return {200, 120};
}

} // namespace attn::ui
