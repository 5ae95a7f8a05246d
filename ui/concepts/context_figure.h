#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_spec.h"

class QCustomPlot;

namespace attn::ui {

// The context view (seed 000): one word of the scene's sentence and of a second sentence, the
// scene's view "context:WORD:SENTENCE", through the same layer: its input vector (the same in
// both) above its two outputs (core/analysis/context_vectors.h). Throws core::Error when the
// view names no word and sentence or the word is missing from one.
void buildContextFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec);
// The same for `word` in the scene's sentence and in `sentence`.
void buildContextFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec,
                        const QString& word, const QString& sentence);

} // namespace attn::ui
