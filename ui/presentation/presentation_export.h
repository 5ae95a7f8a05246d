#pragma once

#include "ui/figures/figure_spec.h"
#include "ui/presentation/presentation_theme.h"
#include "ui/presentation/slide_builder.h"

#include "core/attention_result.h"

#include <QByteArray>
#include <QSize>

namespace attn::ui {

// A presentation as a handout or as slides: every step one page, drawn by the same code as
// the screen (buildSlide, paintSlide), with its text kept as text.
struct DeckOptions
{
    int head = 0;
    int query = -1; // the chosen cell of every page (-1: as the presentation opens)
    int key = -1;
    PresentationTheme theme = PresentationTheme::Light;
    WeightScale weightScale = WeightScale::Fixed;
    std::shared_ptr<const PresentationExtras> extras; // the scene's steps after attention's
    // Laid out as a 1920 x 1080 screen; the page is 16:9, 960 x 540 points (13.33 x 7.5 in,
    // the widescreen slide size).
    QSize pixels{1920, 1080};
};

// The PDF's bytes. Throws core::Error when the result cannot be presented.
QByteArray presentationPdf(const core::AttentionResult& result, const DeckOptions& options);

} // namespace attn::ui
