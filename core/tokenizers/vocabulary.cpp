#include "core/tokenizers/vocabulary.h"

#include <algorithm>

namespace attn::core::hf {

Vocabulary::Vocabulary(QHash<QString, int> ids) : m_ids(std::move(ids))
{
    m_pieces.reserve(m_ids.size());
    for (auto it = m_ids.constBegin(); it != m_ids.constEnd(); ++it) {
        // A piece is never null, so that a null QString can mean "no piece" (an empty piece
        // is stored as a non-null empty string).
        QString piece = it.key();
        if (piece.isNull())
            piece = QStringLiteral("");
        m_pieces.insert(it.value(), piece);
        m_size = std::max(m_size, it.value() + 1);
        m_longest = std::max(m_longest, it.key().size());
    }
}

} // namespace attn::core::hf
