#include "ui/figures/figure_export.h"

#include "ui/figures/figure_builder.h"
#include "ui/figures/lines_figure.h"

#include "core/error.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <cmath>

namespace attn::ui {

std::optional<FigureFormat> figureFormatForPath(const QString& path)
{
    const QString lower = path.toLower();
    if (lower.endsWith(QLatin1String(".png")))
        return FigureFormat::Png;
    if (lower.endsWith(QLatin1String(".svg")))
        return FigureFormat::Svg;
    if (lower.endsWith(QLatin1String(".pdf")))
        return FigureFormat::Pdf;
    return std::nullopt;
}

namespace {

void paintPlot(QCustomPlot& plot, QPaintDevice& device, QSize size, bool vector)
{
    QCPPainter painter(&device);
    if (vector) {
        // No pixmap caches and cosmetic pens kept thin: what a PDF or SVG viewer scales.
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        painter.setMode(QCPPainter::pmNonCosmetic);
    }
    plot.toPainter(&painter, size.width(), size.height());
}

// Every PDF this program writes: its creator, a page of exactly `size` pixels at `dpi` and no
// margins.
void setUpPdf(QPdfWriter& pdf, QSize size, double dpi)
{
    pdf.setCreator(QStringLiteral("Attention Explorer"));
    pdf.setResolution(int(std::lround(dpi)));
    const QSizeF points(size.width() * 72.0 / dpi, size.height() * 72.0 / dpi);
    pdf.setPageSize(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
}

} // namespace

QByteArray writeFigureFile(QSize size, double dpi, FigureFormat format,
                           const std::function<void(QPaintDevice& device, bool vector)>& paint)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    switch (format) {
    case FigureFormat::Png: {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        const int dotsPerMeter = int(std::lround(dpi / 0.0254));
        image.setDotsPerMeterX(dotsPerMeter);
        image.setDotsPerMeterY(dotsPerMeter);
        paint(image, false);
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
        paint(svg, true);
        break;
    }
    case FigureFormat::Pdf: {
        QPdfWriter pdf(&buffer);
        setUpPdf(pdf, size, dpi);
        paint(pdf, true);
        break;
    }
    }
    return bytes;
}

QByteArray writePdfPages(QSize size, double dpi, int pages, const QString& title,
                         const std::function<void(QPainter& painter, int page)>& paintPage)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    setUpPdf(pdf, size, dpi);
    pdf.setTitle(title);
    QPainter painter(&pdf);
    if (!painter.isActive())
        throw core::Error("cannot start the PDF");
    // The writer's page in its own pixels, for a layout made for `size`.
    const double scale = double(pdf.width()) / size.width();
    for (int page = 0; page < pages; ++page) {
        if (page > 0)
            pdf.newPage();
        painter.save();
        painter.scale(scale, scale);
        paintPage(painter, page);
        painter.restore();
    }
    painter.end();
    return bytes;
}

QByteArray renderFigure(QCustomPlot& plot, QSize size, double dpi, FigureFormat format)
{
    return writeFigureFile(size, dpi, format, [&](QPaintDevice& device, bool vector) {
        paintPlot(plot, device, size, vector);
    });
}

QByteArray figureBytes(const core::AttentionResult& result, const FigureSpec& spec, QSize size,
                       FigureFormat format, const core::AttentionResult* compare,
                       bool* valuesLeftOut)
{
    if (valuesLeftOut)
        *valuesLeftOut = false;
    QCustomPlot plot;
    plot.setAttribute(Qt::WA_DontShowOnScreen);
    plot.resize(size);
    if (spec.view == FigureView::Lines) {
        buildLinesFigure(plot, result, spec);
        return renderFigure(plot, size, spec.dpi, format);
    }
    FigureBuilder builder(plot, spec);
    builder.build(result, size, compare);
    if (valuesLeftOut)
        *valuesLeftOut = builder.valuesLeftOut();
    return renderFigure(plot, size, spec.dpi, format);
}

} // namespace attn::ui
