#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_spec.h"

class QCustomPlot;

namespace attn::ui {

// The hard attention view (seed 000): for source.head, the softmax of the head's scores beside
// their argmax (the kept cell framed in both), the soft weight each query's argmax drops, and
// why the argmax cannot be trained directly (core/analysis/hard_attention.h). Throws
// core::Error when the result is missing, pooled or has no scores.
void buildHardFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec);

} // namespace attn::ui
