#pragma once

#include <QHash>
#include <QString>

#include <optional>
#include <vector>

namespace attn::core::hf {

// A model's vocabulary: pieces and ids both ways. Ids need not be contiguous.
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
    QString pieceOf(int id) const
    {
        return id >= 0 && std::size_t(id) < m_pieces.size() ? m_pieces[std::size_t(id)] : QString();
    }
    int size() const { return int(m_pieces.size()); } // largest id + 1
    qsizetype longestPiece() const { return m_longest; } // in UTF-16 units
    const QHash<QString, int>& ids() const { return m_ids; }

private:
    QHash<QString, int> m_ids;
    std::vector<QString> m_pieces;
    qsizetype m_longest = 0;
};

} // namespace attn::core::hf
