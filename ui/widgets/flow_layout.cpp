#include "ui/widgets/flow_layout.h"

#include <QSpacerItem>
#include <QWidget>
#include <algorithm>

namespace attn::ui {

FlowLayout::FlowLayout(QWidget* parent, int horizontalSpacing, int verticalSpacing)
    : QLayout(parent), m_hSpace(horizontalSpacing), m_vSpace(verticalSpacing)
{
    setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout()
{
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void FlowLayout::addItem(QLayoutItem* item)
{
    m_items.append(item);
}

void FlowLayout::addStretch()
{
    addItem(new QSpacerItem(0, 0, QSizePolicy::Expanding, QSizePolicy::Minimum));
}

int FlowLayout::count() const
{
    return int(m_items.size());
}

QLayoutItem* FlowLayout::itemAt(int index) const
{
    return m_items.value(index);
}

QLayoutItem* FlowLayout::takeAt(int index)
{
    return index >= 0 && index < m_items.size() ? m_items.takeAt(index) : nullptr;
}

Qt::Orientations FlowLayout::expandingDirections() const
{
    return {};
}

bool FlowLayout::hasHeightForWidth() const
{
    return true;
}

int FlowLayout::heightForWidth(int width) const
{
    return doLayout(QRect(0, 0, width, 0), true);
}

QSize FlowLayout::sizeHint() const
{
    // All on one line.
    QSize size;
    for (const QLayoutItem* item : m_items) {
        const QSize hint = item->sizeHint();
        size.setWidth(size.width() + hint.width() + (size.width() > 0 ? m_hSpace : 0));
        size.setHeight(std::max(size.height(), hint.height()));
    }
    const QMargins margins = contentsMargins();
    return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom());
}

QSize FlowLayout::minimumSize() const
{
    QSize size;
    for (const QLayoutItem* item : m_items)
        size = size.expandedTo(item->minimumSize());
    const QMargins margins = contentsMargins();
    return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom());
}

void FlowLayout::setGeometry(const QRect& rect)
{
    QLayout::setGeometry(rect);
    doLayout(rect, false);
    // Docks and scroll areas ask for minimum sizes, not heights for a width: the host's
    // minimum height follows the lines the items take at this width, so wrapped lines are
    // never cut off. (Heights do not change widths, so this settles at once.)
    QWidget* host = parentWidget();
    const int needed = heightForWidth(rect.width());
    if (host && host->layout() == this && rect.width() > 0 && host->minimumHeight() != needed)
        host->setMinimumHeight(needed);
}

// Places the items line by line; returns the height used. A stretch takes what is left of
// its line, pushing the items after it to the right end.
int FlowLayout::doLayout(const QRect& rect, bool testOnly) const
{
    const QMargins margins = contentsMargins();
    const QRect area =
        rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom());
    int x = area.x();
    int y = area.y();
    int lineHeight = 0;
    // First split into lines, then place each line (a stretch needs its line's width).
    QList<QList<QLayoutItem*>> lines(1);
    for (QLayoutItem* item : m_items) {
        if (item->isEmpty())
            continue;
        const int width = item->spacerItem() ? 0 : item->sizeHint().width();
        if (x > area.x() && x + width > area.right() + 1) {
            lines.append(QList<QLayoutItem*>());
            x = area.x();
        }
        lines.last().append(item);
        x += width + m_hSpace;
    }
    for (const QList<QLayoutItem*>& line : lines) {
        int used = 0;
        int stretches = 0;
        lineHeight = 0;
        for (QLayoutItem* item : line) {
            if (item->spacerItem()) {
                ++stretches;
                continue;
            }
            used += item->sizeHint().width() + (used > 0 ? m_hSpace : 0);
            lineHeight = std::max(lineHeight, item->sizeHint().height());
        }
        const int spare = std::max(0, area.width() - used);
        x = area.x();
        for (QLayoutItem* item : line) {
            if (item->spacerItem()) {
                x += spare / std::max(1, stretches);
                continue;
            }
            const QSize hint = item->sizeHint();
            const int width = std::min(hint.width(), area.width());
            if (!testOnly)
                item->setGeometry(QRect(QPoint(x, y + (lineHeight - hint.height()) / 2),
                                        QSize(width, hint.height())));
            x += width + m_hSpace;
        }
        if (!line.isEmpty())
            y += lineHeight + m_vSpace;
    }
    return std::max(0, y - m_vSpace - rect.y()) + margins.bottom();
}

} // namespace attn::ui
