#include "ui/figures/painted_figure.h"

#include <QPainter>

namespace attn::ui {

QByteArray paintedFigureBytes(const FigurePainter& paint, QSize size, double dpi,
                              FigureFormat format, double fontPoints)
{
    QFont font;
    font.setPointSizeF(fontPoints);
    const FigureStyle style;
    const QRectF target(QPointF(0, 0), QSizeF(size));
    return writeFigureFile(size, dpi, format, [&](QPaintDevice& device, bool vector) {
        QPainter painter(&device);
        if (!vector) {
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setRenderHint(QPainter::TextAntialiasing);
        }
        if (format != FigureFormat::Pdf) // the PDF page is white already
            painter.fillRect(target, style.background);
        paint(painter, target, font, style, vector);
    });
}

} // namespace attn::ui
