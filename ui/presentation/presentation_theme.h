#pragma once

#include "ui/figures/colormap.h"
#include "ui/figures/figure_spec.h"

#include <QString>

namespace attn::ui {

// The colours a presentation is projected in, chosen in the presentation itself.
enum class PresentationTheme {
    Light,
    Dark,
    HighContrast, // projectors: pure black on white, thick lines, large type
    Print,        // greyscale
};

QString presentationThemeName(PresentationTheme theme); // "High contrast"
// The figure colours and colormap of a theme (viridis by default, cividis for projectors,
// grey for print: all readable with colour-blind eyes).
FigureStyle presentationStyle(PresentationTheme theme);
Colormap presentationColormap(PresentationTheme theme);

} // namespace attn::ui
