#pragma once

#include "ui/figures/figure_export.h"
#include "ui/figures/figure_spec.h"

#include <QByteArray>
#include <QFont>
#include <QRectF>
#include <QSize>

#include <functional>

class QPainter;

namespace attn::ui {

// Paints a figure into `target` with `font` (in points) and the style's colours; `vector` for
// SVG and PDF (cells as rectangles, text as text).
using FigurePainter = std::function<void(QPainter& painter, const QRectF& target, const QFont& font,
                                         const FigureStyle& style, bool vector)>;

// The file of a painted figure (the model's figures, the sequence-to-sequence figures), written
// by writeFigureFile as the plotted ones are.
QByteArray paintedFigureBytes(const FigurePainter& paint, QSize size, double dpi,
                              FigureFormat format, double fontPoints = 10.0);

} // namespace attn::ui
