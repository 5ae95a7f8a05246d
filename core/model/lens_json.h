#pragma once

#include "core/model/activation_patching.h"
#include "core/model/logit_attribution.h"
#include "core/model/logit_lens.h"

#include <QJsonArray>
#include <QJsonObject>

namespace attn::core {

// The --dump keys of the lens, patching and attribution (docs/DUMP_FORMAT.md, "Real models").
// One object per layer, bottom first: `layer` (from 1), `top` (the top token id at each
// position), `rank` (the followed token's rank there, 1 = top), `probability`.
QJsonArray logitLensToJson(const LogitLens& lens);
// `heads` (layers x heads) and `positions` (layers x positions): the fraction of the metric
// restored; `metric`, `position`, `clean`, `corrupt` and the patched metrics themselves.
QJsonObject patchingToJson(const ActivationPatching& patching);
// `token`, `position`, `heads` (layers x heads) and every other term, with `logit`.
QJsonObject attributionToJson(const LogitAttribution& attribution);

} // namespace attn::core
