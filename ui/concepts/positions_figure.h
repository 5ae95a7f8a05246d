#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_spec.h"

class QCustomPlot;

namespace attn::core {
struct Model;
}

namespace attn::ui {

// Positional encodings (seeds 001 and 003; Vaswani et al. 2017, 3.5): P (positions x
// dimensions), P Pᵀ (how alike two positions are), E and X = E + P of the scene's sentence,
// and, for source.result's head, the rotary score R(m) q · R(n) k against m − n (Su et al.
// 2021) with the problem's rotary frequencies or the default 10000^(−2i/d_k). Throws
// core::Error when the scene cannot be resolved.
void buildPositionsFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec);

// A real model's positions: learned ones (GPT-2, BERT) as the first `positions` rows of the
// position table and their cosine similarity; rotary ones (the Llama family) as the angle of
// each frequency at each position and the score of q = k = (1, ..., 1) turned to positions m
// and n against m − n, RoFormer's long-term decay (Su et al. 2021, 3.4.3) for the model's own
// frequencies.
void buildModelPositionsFigure(QCustomPlot& plot, const core::Model& model, int positions,
                               const FigureSpec& spec);

} // namespace attn::ui
