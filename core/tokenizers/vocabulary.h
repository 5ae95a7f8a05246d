#pragma once

#include <QHash>
#include <QString>

#include <optional>

namespace attn::core::hf {

// A model's vocabulary: pieces and ids both ways. Ids need not be contiguous, and the pieces are
// kept by id in a hash rather than an array indexed by id, so that a file naming one id of two
// billion costs one entry, not 48 GB.
class Vocabulary
{
public:
    Vocabulary() = default;
    explicit Vocabulary(QHash<QString, int> ids);

    std::optional<int> idOf(const QString& piece) const
    {
        const auto it = m_ids.constFind(piece);
        if (it == m_ids.constEnd())
            return std::nullopt;
        return *it;
    }
    // Null when the id has no piece.
    QString pieceOf(int id) const { return m_pieces.value(id); }
    int size() const { return m_size; }                  // largest id + 1
    qsizetype longestPiece() const { return m_longest; } // in UTF-16 units
    const QHash<QString, int>& ids() const { return m_ids; }

private:
    QHash<QString, int> m_ids;
    QHash<int, QString> m_pieces;
    int m_size = 0;
    qsizetype m_longest = 0;
};

} // namespace attn::core::hf
