#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_spec.h"

class QCustomPlot;

namespace attn::ui {

// Stacked blocks (seed 001: self-attention, then a fully connected layer, used again): one row
// per block, X -> attention -> + X -> LayerNorm -> FFN -> + H -> LayerNorm = Y, every panel
// with the same token rows, and each row's X the row above's Y (core/scene_layers.h, computed
// on the CPU). Throws core::Error for a scene of one attention layer.
void buildLayersFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec);

} // namespace attn::ui
