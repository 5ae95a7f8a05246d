#pragma once

#include "core/tokenizers/pipeline.h"

#include <QHash>
#include <QString>

#include <array>
#include <optional>
#include <vector>

namespace attn::core::hf {

struct UnigramPiece
{
    QString piece;
    double score = 0; // the piece's log probability
};

// Unigram (Kudo 2018, "Subword Regularization"; tokenizers/src/models/unigram/model.rs): the
// segmentation of a word whose pieces' log probabilities add up to the most (Viterbi). A
// character no piece starts with becomes the unknown token, scored 10 below the lowest piece;
// unknown characters next to each other fuse into one token, which byte fallback, where the
// file asks for it, spells as <0xAB> byte pieces instead.
class UnigramModel final : public Model
{
public:
    // Without an unknown token, encoding a character no piece covers fails, as in the library,
    // with an Error naming the file and `unkIdPath` ("tokenizer.json: model.unk_id: ...").
    UnigramModel(std::vector<UnigramPiece> pieces, std::optional<int> unkId, bool byteFallback,
                 JsonReader file, QString unkIdPath);

    void tokenize(const QString& word, std::vector<ModelToken>& out,
                  WordCache& cache) const override;
    qsizetype minimumTokens(qsizetype units) const override { return units > 0 ? 1 : 0; }
    std::optional<int> idOf(const QString& piece) const override;
    QString pieceOf(int id) const override;
    int vocabSize() const override { return int(m_pieces.size()); }
    int pieceCount() const override { return int(m_pieces.size()); }
    QString kind() const override
    {
        return m_byteFallback ? QStringLiteral("Unigram (byte fallback)")
                              : QStringLiteral("Unigram");
    }
    bool byteFallback() const override { return m_byteFallback; }
    std::optional<int> unkId() const { return m_unkId; }

private:
    void segment(const QString& word, std::vector<ModelToken>& out) const;
    [[noreturn]] void missingUnkId(const QString& word, qsizetype begin, qsizetype end) const;

    std::vector<UnigramPiece> m_pieces; // by id
    QHash<QString, int> m_ids;          // a piece listed twice has the later id
    std::vector<int> m_sorted;          // ids of the distinct pieces, the pieces in code-unit order
    std::array<int, 256> m_byteIds{};   // the <0xAB> pieces, -1 where missing
    qsizetype m_longest = 0;            // in UTF-16 units
    double m_unkScore = 0;
    std::optional<int> m_unkId;
    bool m_byteFallback = false;
    JsonReader m_file;
    QString m_unkIdPath;
};

} // namespace attn::core::hf
