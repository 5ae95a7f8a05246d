#pragma once

#include "ui/figures/figure_spec.h"

#include <QPointF>
#include <QRect>
#include <QString>
#include <functional>

class QEvent;
class QPainter;
class QWidget;

namespace attn::ui {

// What the widgets of painted figures (the model window's grid and panels) share.

// A tooltip event answered with describe(position), or the tooltip hidden where that is empty.
// False for any other event (the widget passes it on).
bool showFigureToolTip(QWidget& widget, QEvent* event,
                       const std::function<QString(QPointF)>& describe);

// Fills `rect` with the figure's background; where `message` is not empty, sets it in the
// figure's place (muted, centred, wrapped) and returns false: there is no figure to draw.
bool paintFigureBackground(QPainter& painter, const QRect& rect, const FigureStyle& style,
                           const QString& message);

} // namespace attn::ui
