#pragma once

#include "core/attention_settings.h"

#include <QString>
#include <optional>

namespace attn::ui {

// The score choices a user sees. "Hard" is not a score function of its own: it is the
// scaled dot product with hard (argmax) normalization, as seed 000 defines hard attention.
enum class ScoreOption { Dot, Scaled, Additive, Hard, Bilinear, Cosine };

inline constexpr ScoreOption kScoreOptions[] = {ScoreOption::Dot,      ScoreOption::Scaled,
                                                ScoreOption::Additive, ScoreOption::Hard,
                                                ScoreOption::Bilinear, ScoreOption::Cosine};

// "dot", "scaled", "additive", "hard", "bilinear", "cosine" (ViewSettings::compareScore).
QString scoreOptionName(ScoreOption option);
std::optional<ScoreOption> parseScoreOption(const QString& name);
// "Scaled dot product", for menus.
QString scoreOptionLabel(ScoreOption option);
QString scoreOptionToolTip(ScoreOption option);
// The score, normalization and temperature controls' own descriptions (both windows).
QString scoreChoiceToolTip();
QString normalizationChoiceToolTip();
QString temperatureToolTip();
QString typedTemperatureToolTip();

ScoreOption scoreOptionOf(core::ScoreKind score, core::Normalization normalization);
// Sets score and normalization as choosing `option` does: Hard keeps the 1/sqrt(d_k)
// switch (dot or scaled dot) and normalizes by argmax; leaving Hard goes back to softmax.
void applyScoreOption(ScoreOption option, core::ScoreKind& score,
                      core::Normalization& normalization);

// The score the Difference view compares with: `compareScore` (ViewSettings::compareScore)
// unless it is empty, unknown or the option in use (a difference of zeros); then scaled dot
// product against dot product, and dot product against anything else.
ScoreOption comparisonOption(const QString& compareScore, core::ScoreKind score,
                             core::Normalization normalization);

} // namespace attn::ui
