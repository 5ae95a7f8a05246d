#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_export.h"
#include "ui/figures/figure_spec.h"

#include <QByteArray>
#include <QSize>
#include <functional>

class QCustomPlot;

namespace attn::ui {

// Fills `plot` with the figure of a concept view as the command line draws it: from the scene
// and its result alone (the window's views draw their own state, dragged points and chosen
// words, with the same builders). Throws core::Error when the figure cannot be drawn.
void buildConceptFigure(QCustomPlot& plot, ConceptView view, const ConceptSource& source,
                        const FigureSpec& spec);

// The bytes of a figure file that `draw` fills, drawn off screen at `size` pixels
// (renderFigure), for the figures that need more than a ConceptSource (a real model's
// embedding space).
QByteArray drawnFigureBytes(const std::function<void(QCustomPlot&)>& draw, QSize size, double dpi,
                            FigureFormat format);

// The figure file's bytes, drawn off screen at `size` pixels (renderFigure).
QByteArray conceptFigureBytes(ConceptView view, const ConceptSource& source, const FigureSpec& spec,
                              QSize size, FigureFormat format);

} // namespace attn::ui
