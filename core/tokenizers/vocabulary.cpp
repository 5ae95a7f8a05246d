#include "core/tokenizers/vocabulary.h"

#include <algorithm>

namespace attn::core::hf {

Vocabulary::Vocabulary(QHash<QString, int> ids) : m_ids(std::move(ids))
{
    int largest = -1;
    for (auto it = m_ids.constBegin(); it != m_ids.constEnd(); ++it) {
        largest = std::max(largest, it.value());
        m_longest = std::max(m_longest, it.key().size());
    }
    m_pieces.resize(std::size_t(largest + 1));
    for (auto it = m_ids.constBegin(); it != m_ids.constEnd(); ++it) {
        // A piece is never null, so that a null QString can mean "no piece" (an empty piece
        // is stored as a non-null empty string).
        QString piece = it.key();
        if (piece.isNull())
            piece = QStringLiteral("");
        m_pieces[std::size_t(it.value())] = piece;
    }
}

} // namespace attn::core::hf
