#pragma once

#include "core/scene.h"

#include <QString>
#include <vector>

namespace attn::ui {

// What the Difference view compares the scene with: any one setting changed (the score, the
// causal mask, the normalization, the embedding, the positions) or the scene as it was opened
// (an edited head against the original). The names are ViewSettings::compareScore's words and
// the command line's --compare: the score options' own ("dot", "scaled", ...; scene files
// from before kept only these), then "mask:causal", "mask:no-causal", "normalization:NAME",
// "embedding:NAME", "positions:NAME" and "opened".
struct ComparisonChoice
{
    QString name;
    QString label; // for the menu: "Causal mask off"
};

// Every choice that differs from `scene`, in menu order. "opened" only when `haveOpened`.
std::vector<ComparisonChoice> comparisonChoices(const core::Scene& scene, bool haveOpened);

// `asked` when it is one of the choices; else the default the view has always had: dot
// product against scaled dot product, scaled dot product against anything else.
QString chooseComparison(const QString& asked, const core::Scene& scene, bool haveOpened);

// The scene the Difference view computes as its second result. `opened` is the scene as
// opened (needed for "opened"). Throws core::Error naming the choice when it is unknown, or
// when it cannot apply (no word vectors loaded, nothing opened).
core::Scene comparisonScene(const core::Scene& scene, const QString& name,
                            const core::Scene* opened);

// The words the Difference figure's title uses for the compared scene: "causal mask off";
// empty for another score (FigureSpec::compareLabel: the title then names its settings).
QString comparisonLabel(const core::Scene& scene, const QString& name);

} // namespace attn::ui
