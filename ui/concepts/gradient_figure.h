#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_spec.h"

class QCustomPlot;

namespace attn::ui {

// The gradient view (seeds 000 and 002): for source.head and source.query of source.result,
// the histogram of the head's scores and the query's Jacobian dw/ds side by side without and
// with 1/sqrt(d_k) (core::compareScaling), on one colour scale so the two compare, with the
// Jacobian's norm, the largest weight and the entropy under each. Throws core::Error when the
// result is missing, pooled or has no intermediates.
void buildGradientFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec);

} // namespace attn::ui
