#include "ui/presentation/presentation_export.h"

#include "ui/figures/figure_export.h"
#include "ui/presentation/presentation_steps.h"
#include "ui/presentation/slide.h"

#include <QPainter>

namespace attn::ui {

QByteArray presentationPdf(const core::AttentionResult& result, const DeckOptions& options)
{
    checkPresentable(result);
    const QSize pixels = options.pixels.isValid() ? options.pixels : QSize(1920, 1080);
    // 144 DPI: a 1920-pixel-wide layout is a 13.33-inch page, and one layout pixel is one
    // device pixel of the writer.
    constexpr double kDpi = 144.0;
    const int steps = int(presentationSteps(options.extras.get()).size());
    return writePdfPages(pixels, kDpi, steps, QStringLiteral("Attention, step by step"),
                         [&](QPainter& painter, int page) {
                             SlideOptions slide;
                             slide.step = page + 1;
                             slide.head = options.head;
                             slide.query = options.query;
                             slide.key = options.key;
                             slide.theme = options.theme;
                             slide.weightScale = options.weightScale;
                             slide.extras = options.extras;
                             paintSlide(painter, buildSlide(result, slide, QSizeF(pixels)));
                         });
}

} // namespace attn::ui
