#include "ui/presentation/presentation_export.h"

#include "ui/presentation/presentation_steps.h"
#include "ui/presentation/slide.h"

#include "core/error.h"

#include <QBuffer>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>

namespace attn::ui {

QByteArray presentationPdf(const core::AttentionResult& result, const DeckOptions& options)
{
    checkPresentable(result);
    const QSize pixels = options.pixels.isValid() ? options.pixels : QSize(1920, 1080);
    // 144 DPI: a 1920-pixel-wide layout is a 13.33-inch page, and one layout pixel is one
    // device pixel of the writer.
    constexpr int kDpi = 144;
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setCreator(QStringLiteral("Attention Explorer"));
    pdf.setTitle(QStringLiteral("Attention, step by step"));
    pdf.setResolution(kDpi);
    pdf.setPageSize(QPageSize(QSizeF(pixels.width() * 72.0 / kDpi, pixels.height() * 72.0 / kDpi),
                              QPageSize::Point, QString(), QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter painter(&pdf);
    if (!painter.isActive())
        throw core::Error("cannot start the PDF");
    // The writer's page in its own pixels, for a layout made for `pixels`.
    const double scale = double(pdf.width()) / pixels.width();
    const int steps = int(presentationSteps(options.extras.get()).size());
    for (int step = 1; step <= steps; ++step) {
        if (step > 1)
            pdf.newPage();
        SlideOptions slide;
        slide.step = step;
        slide.head = options.head;
        slide.query = options.query;
        slide.key = options.key;
        slide.theme = options.theme;
        slide.weightScale = options.weightScale;
        slide.extras = options.extras;
        painter.save();
        painter.scale(scale, scale);
        paintSlide(painter, buildSlide(result, slide, QSizeF(pixels)));
        painter.restore();
    }
    painter.end();
    return bytes;
}

} // namespace attn::ui
