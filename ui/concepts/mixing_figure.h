#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_spec.h"

class QCustomPlot;

namespace attn::ui {

// The mixing view (seeds 001 and 004): the scene's sentence and a second one with a word
// changed, the scene's view "mixing:SENTENCE", through a fully connected layer, a convolution
// and attention (core/analysis/mixing_weights.h): each layer's mixing matrix before, after and
// their difference. Throws core::Error when the view names no sentence or the sentences'
// token counts differ.
void buildMixingFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec);
// The same with `other` as the second sentence.
void buildMixingFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec,
                       const QString& other);

} // namespace attn::ui
