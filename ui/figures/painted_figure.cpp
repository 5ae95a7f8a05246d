#include "ui/figures/painted_figure.h"

#include <QBuffer>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <cmath>

namespace attn::ui {

QByteArray paintedFigureBytes(const FigurePainter& paint, QSize size, double dpi,
                              FigureFormat format, double fontPoints)
{
    QFont font;
    font.setPointSizeF(fontPoints);
    const FigureStyle style;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const QRectF target(QPointF(0, 0), QSizeF(size));
    switch (format) {
    case FigureFormat::Png: {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(style.background);
        const int dotsPerMeter = int(std::lround(dpi / 0.0254));
        image.setDotsPerMeterX(dotsPerMeter);
        image.setDotsPerMeterY(dotsPerMeter);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setRenderHint(QPainter::TextAntialiasing);
            paint(painter, target, font, style, false);
        }
        image.convertToFormat(QImage::Format_RGB32).save(&buffer, "PNG");
        break;
    }
    case FigureFormat::Svg: {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setResolution(int(std::lround(dpi)));
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(QStringLiteral("Attention Explorer figure"));
        QPainter painter(&svg);
        painter.fillRect(target, style.background);
        paint(painter, target, font, style, true);
        break;
    }
    case FigureFormat::Pdf: {
        QPdfWriter pdf(&buffer);
        pdf.setCreator(QStringLiteral("Attention Explorer"));
        pdf.setResolution(int(std::lround(dpi)));
        const QSizeF points(size.width() * 72.0 / dpi, size.height() * 72.0 / dpi);
        pdf.setPageSize(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter painter(&pdf);
        paint(painter, target, font, style, true);
        break;
    }
    }
    return bytes;
}

} // namespace attn::ui
