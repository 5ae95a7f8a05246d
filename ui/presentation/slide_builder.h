#pragma once

#include "ui/figures/figure_spec.h"
#include "ui/presentation/presentation_theme.h"
#include "ui/presentation/slide.h"

#include "core/attention_result.h"

#include <QSizeF>
#include <memory>

namespace attn::ui {

struct PresentationExtras; // presentation_extras.h

// What a slide shows besides the result: the step, the head, the chosen cell, the colours.
struct SlideOptions
{
    int step = 1; // 1 .. the number of presentationSteps(extras) (presentation_steps.h)
    int head = 0;
    int query = -1; // the chosen cell: query row i (-1: defaultQuery) ...
    int key = -1;   // ... and key column j (-1: the key query i weighs most)
    PresentationTheme theme = PresentationTheme::Light;
    WeightScale weightScale = WeightScale::Fixed;
    std::shared_ptr<const PresentationExtras> extras; // the scene's steps after attention's
};

// Every size is set for a page 1080 pixels high and scales with the page's height.
inline constexpr double kSlideReferenceHeight = 1080.0;
// Token labels: as large as this at 1080 pixels (a lecture hall's back row), and never
// smaller than the minimum before they are abbreviated, then thinned.
inline constexpr double kSlideLabelPixels = 32.0;
inline constexpr double kSlideMinLabelPixels = 12.0;
// The most tokens a presentation takes (past 48 at 1080p labels are thinned).
inline constexpr int kMaxPresentationTokens = 512;

// Lays out one step of one head as a page of `size` pixels. Throws core::Error when the
// result cannot be presented (pooled, or without its intermediates).
Slide buildSlide(const core::AttentionResult& result, const SlideOptions& options, QSizeF size);

// The query a presentation opens on: the one that attends most sharply, the clearest example
// of a query choosing its keys: the largest weight of its row times the number of keys the mask
// leaves it (so, unmasked, the largest weight of the head). A query left one key (the first
// under a causal mask: its weight of 1 is the mask's doing) is chosen only if every query is.
int defaultQuery(const core::AttentionResult& result, int head);
// The key query i weighs most in `head`.
int defaultKey(const core::AttentionResult& result, int head, int query);

// Throws core::Error when `result` cannot be presented (why, in the window's words).
void checkPresentable(const core::AttentionResult& result);

} // namespace attn::ui
