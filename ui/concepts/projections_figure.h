#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_spec.h"

#include <QString>
#include <optional>

class QCustomPlot;

namespace attn::ui {

// What the projections view shows (core/analysis/projection_algebra.h): seed 002's W^Q as the
// heads' W_i^Q side by side, seed 004's QK and OV circuits of a head, or Bishop's bias as a
// row of the weights (p. 365). The scene's view "projections:PART" names it.
enum class ProjectionsPart { Split, Circuits, Bias };

// "split", "circuits", "bias".
std::optional<ProjectionsPart> parseProjectionsPart(const QString& name);
QString projectionsPartName(ProjectionsPart part);
// The part a scene's view names ("projections:bias"); Split when it names none.
ProjectionsPart projectionsPartOf(const core::Scene& scene);

// The projections figure of source.head: every matrix with its numbers in the cells (the
// identities are checked by eye), and the largest difference of each identity's two sides
// beneath. Throws core::Error when there is no result.
void buildProjectionsFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec,
                            ProjectionsPart part);

} // namespace attn::ui
