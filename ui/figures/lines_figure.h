#pragma once

#include "ui/figures/figure_spec.h"

#include "core/attention_result.h"

class QCustomPlot;

namespace attn::ui {

// The lines view (queries to keys, one line per weight, as LinesView draws it) as a figure
// in `plot`: a title and the lines, written by renderFigure like every heatmap (PNG with DPI,
// SVG and PDF with text as text). Uses the spec's head (-1: the mean of the enabled heads),
// title, colormap, font size and DPI. Throws core::Error when the lines cannot be drawn (too
// many tokens, a pooled result).
void buildLinesFigure(QCustomPlot& plot, const core::AttentionResult& result,
                      const FigureSpec& spec);

} // namespace attn::ui
