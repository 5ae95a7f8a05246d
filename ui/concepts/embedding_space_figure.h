#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_spec.h"

#include "core/analysis/embedding_space.h"

#include <QStringList>
#include <optional>

class QCustomPlot;

namespace attn::ui {

// What the embedding-space figure shows of a space (the view's controls set it).
struct EmbeddingMapOptions
{
    bool tsne = false;       // t-SNE instead of the first two principal components
    QStringList highlighted; // words drawn larger, in the accent colour (the sentence's)
    // a − b + c (seed 003's king − man + woman), drawn as two arrows: a to the answer, b to c.
    std::optional<std::array<QString, 3>> analogy;
};

// The words of `space` as points on a 2-D map (PCA, or a deterministic t-SNE), each labelled,
// with the analogy when asked and its nearest answer by cosine. Throws core::Error for an
// analogy word the space lacks.
void buildEmbeddingSpaceFigure(QCustomPlot& plot, const core::EmbeddingSpace& space,
                               const EmbeddingMapOptions& options, const FigureSpec& spec);

// The command line's figure: the scene's vectors (core::EmbeddingSpace::fromScene) on their
// principal components, the sentence's words highlighted, and king − man + woman where the
// space has those words.
void buildEmbeddingSpaceFigure(QCustomPlot& plot, const ConceptSource& source,
                               const FigureSpec& spec);

} // namespace attn::ui
