#pragma once

#include "core/embedding.h"

#include <QString>

namespace attn::ui {

// How tokens become vectors, in the window's words: the Embedding and Positions choices,
// their tooltips and the Edit menu's "Change embedding to one-hot".
QString embeddingKindLabel(core::EmbeddingKind kind);
QString embeddingKindToolTip(core::EmbeddingKind kind);
QString positionalKindLabel(core::PositionalKind kind);
QString positionalKindToolTip(core::PositionalKind kind);

} // namespace attn::ui
