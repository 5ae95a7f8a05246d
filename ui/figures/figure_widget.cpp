#include "ui/figures/figure_widget.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <QWidget>

namespace attn::ui {

bool showFigureToolTip(QWidget& widget, QEvent* event,
                       const std::function<QString(QPointF)>& describe)
{
    if (event->type() != QEvent::ToolTip)
        return false;
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = describe(help->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, &widget);
    return true;
}

bool paintFigureBackground(QPainter& painter, const QRect& rect, const FigureStyle& style,
                           const QString& message)
{
    painter.fillRect(rect, style.background);
    if (message.isEmpty())
        return true;
    painter.setPen(style.mutedText);
    painter.drawText(rect.adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, message);
    return false;
}

} // namespace attn::ui
