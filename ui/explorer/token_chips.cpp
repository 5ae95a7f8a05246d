#include "ui/explorer/token_chips.h"

#include "core/token_display.h"

#include <QApplication>
#include <QFocusEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QStyle>
#include <QToolTip>
#include <algorithm>
#include <optional>

namespace attn::ui {
namespace {

constexpr int kMargin = 4;  // around the chips
constexpr int kSpacing = 6; // between chips, both ways
constexpr int kPadX = 8;    // text to chip edge
constexpr int kPadY = 3;
constexpr int kMaxChipWidth = 240; // a pasted URL is one chip, not a row

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

// Okabe-Ito orange and reddish purple: distinct from the palette's highlight and from each
// other for colour-blind readers.
const QColor kFallbackMark(0xe6, 0x9f, 0x00);
const QColor kSpecialAccent(0xcc, 0x79, 0xa7);

} // namespace

TokenChips::TokenChips(QWidget* parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    m_scroll = new QScrollBar(Qt::Vertical, this);
    m_scroll->setFocusPolicy(Qt::NoFocus);
    m_scroll->hide();
    connect(m_scroll, &QScrollBar::valueChanged, this, [this] {
        if (!m_inLayout && measureVisible())
            relayout();
        update();
    });
}

TokenChips::~TokenChips() = default;

void TokenChips::setTokens(const std::vector<core::Token>& tokens, const std::vector<bool>& padding,
                           const std::vector<bool>& fallback)
{
    // Toggling padding keeps the texts and the layout.
    const bool sameTexts =
        tokens.size() == m_tokens.size() &&
        std::equal(tokens.begin(), tokens.end(), m_tokens.begin(),
                   [](const core::Token& a, const core::Token& b) { return a.text == b.text; });
    m_tokens = tokens;
    m_chips.resize(m_tokens.size());
    if (!sameTexts)
        prepareChips();
    for (std::size_t i = 0; i < m_chips.size(); ++i) {
        Chip& chip = m_chips[i];
        chip.padding = i < padding.size() && padding[i];
        chip.fallback = i < fallback.size() && fallback[i];
        chip.special = m_tokens[i].special;
    }
    if (m_current >= chipCount())
        m_current = chipCount() - 1;
    if (m_hover >= chipCount())
        m_hover = -1;
    if (!sameTexts) {
        m_laidOutWidth = -1;
        relayout();
        updateGeometry();
    }
    update();
}

void TokenChips::prepareChips()
{
    // An estimate from the text's length; exact once measured. Only a chip's own width
    // depends on it, and chips are measured before they are seen.
    const QFontMetrics fm(font());
    const int perCharacter = fm.averageCharWidth();
    for (std::size_t i = 0; i < m_tokens.size(); ++i) {
        Chip& chip = m_chips[i];
        chip.text = core::tokenDisplayText(m_tokens[i].text);
        const auto known = m_widths.constFind(chip.text);
        chip.measured = known != m_widths.constEnd();
        chip.width = chip.measured ? *known
                                   : std::min(kMaxChipWidth,
                                              int(chip.text.size()) * perCharacter + 2 * kPadX);
    }
}

bool TokenChips::measureVisible()
{
    const int top = m_scroll->value();
    const int bottom = top + std::max(height(), rowHeight());
    const auto first = std::partition_point(m_chips.begin(), m_chips.end(),
                                            [&](const Chip& c) { return c.rect.bottom() < top; });
    std::optional<QFontMetrics> fm;
    bool measured = false;
    for (auto it = first; it != m_chips.end() && it->rect.top() <= bottom; ++it) {
        if (it->measured)
            continue;
        auto known = m_widths.constFind(it->text);
        if (known == m_widths.constEnd()) {
            if (!fm)
                fm.emplace(font());
            ++m_measuredTexts;
            known = m_widths.insert(
                it->text, std::min(kMaxChipWidth, fm->horizontalAdvance(it->text) + 2 * kPadX));
        }
        it->width = *known;
        it->measured = true;
        measured = true;
    }
    return measured;
}

int TokenChips::rowHeight() const
{
    return QFontMetrics(font()).height() + 2 * kPadY;
}

int TokenChips::layoutChips(int width, std::vector<Chip>* chips, int stopAfter) const
{
    const int h = rowHeight();
    const int right = std::max(width - kMargin, kMargin + 1);
    int x = kMargin;
    int y = kMargin;
    for (std::size_t i = 0; i < m_chips.size(); ++i) {
        const int w = std::min(m_chips[i].width, right - kMargin);
        if (x > kMargin && x + w > right) {
            x = kMargin;
            y += h + kSpacing;
            if (y > stopAfter)
                return y + h + kMargin;
        }
        if (chips)
            (*chips)[i].rect = QRect(x, y, w, h);
        x += w + kSpacing;
    }
    return m_chips.empty() ? 2 * kMargin + h : y + h + kMargin;
}

int TokenChips::contentWidth() const
{
    return width() - (m_scroll->isVisible() ? m_scroll->width() : 0);
}

void TokenChips::relayout()
{
    m_inLayout = true;
    // Measuring the chips in view can move them (an estimate was off): again, a few times.
    for (int pass = 0;; ++pass) {
        // Lay out for the full width; if that overflows, again beside the scroll bar.
        const int full = width();
        m_contentHeight = layoutChips(full, &m_chips);
        const bool overflow = m_contentHeight > height();
        const int barWidth = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
        if (overflow)
            m_contentHeight = layoutChips(full - barWidth, &m_chips);
        m_scroll->setVisible(overflow);
        m_scroll->setGeometry(full - barWidth, 0, barWidth, height());
        m_laidOutWidth = full;
        updateScrollBar();
        if (pass == 3 || !measureVisible())
            break;
    }
    m_inLayout = false;
}

void TokenChips::updateScrollBar()
{
    m_scroll->setRange(0, std::max(0, m_contentHeight - height()));
    m_scroll->setPageStep(std::max(1, height()));
    m_scroll->setSingleStep(rowHeight() + kSpacing);
}

int TokenChips::heightForWidth(int width) const
{
    const int rows = std::max(1, m_maxRows);
    const int cap = 2 * kMargin + rows * rowHeight() + (rows - 1) * kSpacing;
    return std::min(layoutChips(width, nullptr, cap), cap);
}

QSize TokenChips::sizeHint() const
{
    const int w = width() > 0 ? width() : 480;
    return {w, heightForWidth(w)};
}

QSize TokenChips::minimumSizeHint() const
{
    return {4 * kMargin + 40, 2 * kMargin + rowHeight()};
}

QRect TokenChips::chipRect(int index) const
{
    if (index < 0 || index >= chipCount())
        return {};
    return m_chips[std::size_t(index)].rect.translated(0, -m_scroll->value());
}

int TokenChips::chipAt(QPoint point) const
{
    const QPoint p = point + QPoint(0, m_scroll->value());
    // Rows run top to bottom, so the first chip whose bottom is below p starts the search.
    const auto first = std::partition_point(m_chips.begin(), m_chips.end(),
                                            [&](const Chip& c) { return c.rect.bottom() < p.y(); });
    for (auto it = first; it != m_chips.end() && it->rect.top() <= p.y(); ++it)
        if (it->rect.contains(p))
            return int(it - m_chips.begin());
    return -1;
}

void TokenChips::setCurrentChip(int index)
{
    index = chipCount() == 0 ? -1 : std::clamp(index, 0, chipCount() - 1);
    if (index == m_current)
        return;
    m_current = index;
    ensureVisible(index);
    update();
}

bool TokenChips::isPadding(int index) const
{
    return index >= 0 && index < chipCount() && m_chips[std::size_t(index)].padding;
}

QString TokenChips::chipToolTip(int index) const
{
    if (index < 0 || index >= chipCount())
        return {};
    const core::Token& token = m_tokens[std::size_t(index)];
    const Chip& chip = m_chips[std::size_t(index)];
    QStringList lines;
    lines << tr("Token %1: \u201c%2\u201d")
                 .arg(index)
                 .arg(core::tokenDisplayText(token.text).toHtmlEscaped());
    if (token.begin >= 0)
        lines << tr("characters %1\u2013%2 of the text")
                     .arg(token.begin)
                     .arg(token.begin + token.length);
    else
        lines << tr("added by the tokenizer");
    if (chip.special)
        lines << tr("special token");
    if (chip.fallback)
        lines << tr("no word vector: a hashed vector stands in");
    lines << (chip.padding ? tr("<b>padding</b> (masked as a key) \u00b7 click to unmark")
                           : tr("click to mark as padding"));
    return lines.join(QStringLiteral("<br>"));
}

void TokenChips::ensureVisible(int index)
{
    // Scrolling measures the chips that come into view, which can move this one: again.
    for (int pass = 0; pass < 3; ++pass) {
        if (index < 0 || index >= chipCount() || !m_scroll->isVisible())
            return;
        const QRect r = m_chips[std::size_t(index)].rect;
        const int top = m_scroll->value();
        int wanted = top;
        if (r.top() - kMargin < top)
            wanted = r.top() - kMargin;
        else if (r.bottom() + kMargin > top + height())
            wanted = r.bottom() + kMargin - height();
        if (wanted == top)
            return;
        m_scroll->setValue(wanted);
    }
}

void TokenChips::toggle(int index)
{
    if (index >= 0 && index < chipCount())
        emit paddingToggled(index);
}

QPalette::ColorGroup TokenChips::group() const
{
    return isEnabled() ? (isActiveWindow() ? QPalette::Active : QPalette::Inactive)
                       : QPalette::Disabled;
}

void TokenChips::paintEvent(QPaintEvent* event)
{
    QPainter painter(this);
    const QPalette& pal = palette();
    const QPalette::ColorGroup g = group();
    const QColor base = pal.color(g, QPalette::Base);
    const QColor text = pal.color(g, QPalette::Text);
    const QColor highlight = pal.color(g, QPalette::Highlight);
    painter.fillRect(rect(), base);
    if (m_chips.empty()) {
        painter.setPen(pal.color(g, QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(kMargin + kPadX, kMargin, 0, 0),
                         Qt::AlignLeft | Qt::AlignTop, tr("No tokens"));
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setClipRect(QRect(0, 0, contentWidth(), height()));
    const int scroll = m_scroll->value();
    const QRect visible = event->rect().translated(0, scroll);
    const QFontMetrics fm(font());
    QFont italic = font();
    italic.setItalic(true);
    const double radius = std::min(6.0, rowHeight() / 2.0);

    const QColor normalFill = mix(base, highlight, 0.13);
    const QColor normalEdge = mix(base, highlight, 0.45);
    const QColor specialFill = mix(base, kSpecialAccent, 0.18);
    const QColor specialEdge = mix(base, kSpecialAccent, 0.75);
    const QColor paddingEdge = mix(base, text, 0.35);
    const QColor hatch = mix(base, text, 0.16);
    const QColor dimText = pal.color(g, QPalette::PlaceholderText);

    const auto first = std::partition_point(m_chips.begin(), m_chips.end(), [&](const Chip& c) {
        return c.rect.bottom() < visible.top();
    });
    for (auto it = first; it != m_chips.end() && it->rect.top() <= visible.bottom(); ++it) {
        const Chip& chip = *it;
        const int index = int(it - m_chips.begin());
        const QRectF r = QRectF(chip.rect.translated(0, -scroll)).adjusted(0.5, 0.5, -0.5, -0.5);
        QPainterPath shape;
        shape.addRoundedRect(r, radius, radius);

        QColor edge = chip.special ? specialEdge : normalEdge;
        if (chip.padding) {
            // Dimmed and hatched: present in the sentence, absent as a key.
            painter.fillPath(shape, base);
            painter.fillPath(shape, QBrush(hatch, Qt::BDiagPattern));
            edge = paddingEdge;
        } else {
            painter.fillPath(shape, chip.special ? specialFill : normalFill);
        }
        if (index == m_hover)
            edge = highlight;
        QPen pen(edge, index == m_hover ? 1.5 : 1.0);
        if (chip.padding)
            pen.setStyle(Qt::DashLine);
        painter.strokePath(shape, pen);

        if (chip.fallback) { // a corner mark: the vector is a stand-in
            const double s = std::max(5.0, rowHeight() / 3.0);
            QPainterPath mark;
            mark.moveTo(r.right() - s - radius / 2, r.top());
            mark.lineTo(r.right() - radius / 2, r.top());
            mark.lineTo(r.right(), r.top() + radius / 2);
            mark.lineTo(r.right(), r.top() + s + radius / 2);
            mark.closeSubpath();
            painter.save();
            painter.setClipPath(shape, Qt::IntersectClip);
            painter.fillPath(mark, kFallbackMark);
            painter.restore();
        }

        painter.setFont(chip.special ? italic : font());
        painter.setPen(chip.padding ? dimText : text);
        const QRectF textRect = r.adjusted(kPadX - 0.5, 0, -(kPadX - 0.5), 0);
        painter.drawText(textRect, Qt::AlignCenter,
                         fm.elidedText(chip.text, Qt::ElideMiddle, int(textRect.width()) + 1));

        if (hasFocus() && index == m_current) {
            painter.setPen(QPen(highlight, 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawRoundedRect(r.adjusted(-2.0, -2.0, 2.0, 2.0), radius + 2, radius + 2);
        }
    }
}

void TokenChips::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

bool TokenChips::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int index = chipAt(help->pos());
        if (index >= 0)
            QToolTip::showText(help->globalPos(), chipToolTip(index), this, chipRect(index));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void TokenChips::mousePressEvent(QMouseEvent* event)
{
    const int index = chipAt(event->position().toPoint());
    if (event->button() != Qt::LeftButton || index < 0) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_current = index;
    update();
    toggle(index);
}

void TokenChips::mouseMoveEvent(QMouseEvent* event)
{
    const int index = chipAt(event->position().toPoint());
    if (index != m_hover) {
        const QRect old = chipRect(m_hover);
        m_hover = index;
        update(old.adjusted(-3, -3, 3, 3));
        update(chipRect(index).adjusted(-3, -3, 3, 3));
        setCursor(index >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    }
    QWidget::mouseMoveEvent(event);
}

void TokenChips::leaveEvent(QEvent* event)
{
    if (m_hover >= 0) {
        update(chipRect(m_hover).adjusted(-3, -3, 3, 3));
        m_hover = -1;
    }
    QWidget::leaveEvent(event);
}

void TokenChips::wheelEvent(QWheelEvent* event)
{
    if (m_scroll->isVisible())
        QApplication::sendEvent(m_scroll, event);
    else
        QWidget::wheelEvent(event);
}

void TokenChips::keyPressEvent(QKeyEvent* event)
{
    if (m_chips.empty()) {
        QWidget::keyPressEvent(event);
        return;
    }
    const int current = std::max(m_current, 0);
    // The chip in the next row up or down nearest to the current chip's centre.
    auto vertical = [&](int direction) {
        const QRect r = m_chips[std::size_t(current)].rect;
        const int targetY = r.center().y() + direction * (rowHeight() + kSpacing);
        int best = current;
        int bestDistance = INT_MAX;
        for (int i = current + direction; i >= 0 && i < chipCount(); i += direction) {
            const QRect c = m_chips[std::size_t(i)].rect;
            if (c.center().y() == r.center().y())
                continue;
            if (c.center().y() != targetY)
                break;
            const int distance = std::abs(c.center().x() - r.center().x());
            if (distance < bestDistance) {
                bestDistance = distance;
                best = i;
            }
        }
        return best;
    };
    switch (event->key()) {
    case Qt::Key_Left:
        setCurrentChip(current - 1);
        break;
    case Qt::Key_Right:
        setCurrentChip(current + 1);
        break;
    case Qt::Key_Up:
        setCurrentChip(vertical(-1));
        break;
    case Qt::Key_Down:
        setCurrentChip(vertical(+1));
        break;
    case Qt::Key_Home:
        setCurrentChip(0);
        break;
    case Qt::Key_End:
        setCurrentChip(chipCount() - 1);
        break;
    case Qt::Key_Space:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        toggle(current);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TokenChips::focusInEvent(QFocusEvent* event)
{
    if (!m_chips.empty()) {
        if (event->reason() == Qt::TabFocusReason)
            setCurrentChip(0);
        else if (event->reason() == Qt::BacktabFocusReason)
            setCurrentChip(chipCount() - 1);
        else if (m_current < 0)
            setCurrentChip(0);
    }
    update();
    QWidget::focusInEvent(event);
}

void TokenChips::focusOutEvent(QFocusEvent* event)
{
    update();
    QWidget::focusOutEvent(event);
}

bool TokenChips::focusNextPrevChild(bool next)
{
    // Tab walks the chips, then leaves the widget after the last one.
    if (hasFocus() && next && m_current + 1 < chipCount()) {
        setCurrentChip(m_current + 1);
        return true;
    }
    if (hasFocus() && !next && m_current > 0) {
        setCurrentChip(m_current - 1);
        return true;
    }
    return QWidget::focusNextPrevChild(next);
}

void TokenChips::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        m_widths.clear();
        prepareChips();
        relayout();
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

} // namespace attn::ui
