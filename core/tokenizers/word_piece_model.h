#pragma once

#include "core/tokenizers/pipeline.h"
#include "core/tokenizers/vocabulary.h"

namespace attn::core::hf {

// WordPiece (tokenizers/src/models/wordpiece/mod.rs): the longest vocabulary piece at the
// start of the word, then the longest "##" piece at each following position; a word with a
// position no piece covers, or longer than max_input_chars_per_word characters, is one
// unknown token.
class WordPieceModel final : public Model
{
public:
    WordPieceModel(Vocabulary vocabulary, QString unkToken, QString continuingSubwordPrefix,
                   int maxInputCharsPerWord);

    void tokenize(const QString& word, std::vector<ModelToken>& out,
                  WordCache& cache) const override;
    qsizetype minimumTokens(qsizetype units) const override { return units > 0 ? 1 : 0; }
    std::optional<int> idOf(const QString& piece) const override
    {
        return m_vocabulary.idOf(piece);
    }
    QString pieceOf(int id) const override { return m_vocabulary.pieceOf(id); }
    int vocabSize() const override { return m_vocabulary.size(); }
    int pieceCount() const override { return int(m_vocabulary.ids().size()); }
    QString kind() const override { return QStringLiteral("WordPiece"); }
    QString continuingSubwordPrefix() const override { return m_prefix; }

    // vocab.txt: one piece a line, the line number its id (trailing white space trimmed).
    static Vocabulary readVocabTxt(const QByteArray& contents);

private:
    int unkId() const;

    Vocabulary m_vocabulary;
    QString m_unkToken;
    QString m_prefix;
    int m_maxInputChars;
};

} // namespace attn::core::hf
