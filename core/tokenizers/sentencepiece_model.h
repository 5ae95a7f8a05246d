#pragma once

#include "core/limits.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace attn::core {

// A SentencePiece model file (spiece.model, Marian's source.spm and target.spm), encoded by
// libsentencepiece itself, so ids and pieces are the library's: its normalizer (nmt_nfkc and
// the like), its Unigram or BPE model, byte fallback and unknown pieces. Immutable once built;
// encode() may run on several threads at once, as the library's const Encode may.
class SentencePieceModel
{
public:
    // One piece of an encoding; [begin, end) is the span of the input it came from, in UTF-16
    // units (empty for a piece the normalizer inserted, such as the "⁄" of "½" -> "1⁄2").
    struct Piece
    {
        int id = 0;
        QString piece;
        qsizetype begin = 0;
        qsizetype end = 0;
    };

    // Throws Error naming the file when it cannot be read or is not a SentencePiece model.
    static std::shared_ptr<const SentencePieceModel> load(const QString& path);
    static std::shared_ptr<const SentencePieceModel> fromBytes(const QByteArray& bytes,
                                                               const QString& nameForMessages);

    ~SentencePieceModel();
    SentencePieceModel(const SentencePieceModel&) = delete;
    SentencePieceModel& operator=(const SentencePieceModel&) = delete;

    // The pieces of `text` (no BOS or EOS: the model's users add their own). Throws Error when
    // there are more than maxTokens.
    std::vector<Piece> encode(const QString& text, int maxTokens = kMaxTokens) const;
    QString decode(const std::vector<int>& ids) const;

    int size() const;                                    // the number of pieces, ids 0..size-1
    QString pieceOf(int id) const;                       // empty when id is out of range
    std::optional<int> idOf(const QString& piece) const; // nullopt for a piece not in the model
    std::optional<int> unkId() const;
    const QString& name() const { return m_name; }

private:
    SentencePieceModel();

    std::unique_ptr<sentencepiece::SentencePieceProcessor> m_processor;
    QString m_name;
};

} // namespace attn::core
