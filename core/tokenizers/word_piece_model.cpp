#include "core/tokenizers/word_piece_model.h"

#include "core/error.h"

#include <QList>

namespace attn::core::hf {

WordPieceModel::WordPieceModel(Vocabulary vocabulary, QString unkToken,
                               QString continuingSubwordPrefix, int maxInputCharsPerWord)
    : m_vocabulary(std::move(vocabulary)), m_unkToken(std::move(unkToken)),
      m_prefix(std::move(continuingSubwordPrefix)), m_maxInputChars(maxInputCharsPerWord)
{
}

int WordPieceModel::unkId() const
{
    const auto id = m_vocabulary.idOf(m_unkToken);
    if (!id)
        throw Error("tokenizer", "the unknown token '" + m_unkToken.toStdString() +
                                     "' is not in the vocabulary");
    return *id;
}

void WordPieceModel::tokenize(const QString& word, std::vector<ModelToken>& out, WordCache&) const
{
    qsizetype chars = 0;
    for (qsizetype i = 0; i < word.size(); i += utf16Length(codePointAt(word, i)))
        ++chars;
    if (chars > m_maxInputChars) {
        out.push_back({unkId(), 0, word.size()});
        return;
    }
    const std::size_t first = out.size();
    const qsizetype longest = m_vocabulary.longestPiece();
    QString candidate;
    for (qsizetype start = 0; start < word.size();) {
        // No piece is longer than the longest one, so shorter candidates are all that can match.
        qsizetype end = std::min(word.size(), start + longest);
        if (end < word.size() && end > start && word.at(end - 1).isHighSurrogate())
            --end;
        std::optional<ModelToken> found;
        while (start < end) {
            candidate = QStringView(word).mid(start, end - start).toString();
            if (start > 0)
                candidate.prepend(m_prefix);
            if (const auto id = m_vocabulary.idOf(candidate)) {
                found = ModelToken{*id, start, end};
                break;
            }
            end -= utf16Length(codePointBefore(word, end));
        }
        if (!found) {
            out.resize(first);
            out.push_back({unkId(), 0, word.size()});
            return;
        }
        out.push_back(*found);
        start = end;
    }
}

Vocabulary WordPieceModel::readVocabTxt(const QByteArray& contents)
{
    QHash<QString, int> ids;
    const QList<QByteArray> lines = contents.split('\n');
    // A final newline ends the last line rather than starting an empty one.
    const qsizetype count =
        (!lines.isEmpty() && lines.back().isEmpty()) ? lines.size() - 1 : lines.size();
    for (qsizetype i = 0; i < count; ++i) {
        QString line = QString::fromUtf8(lines[i]);
        qsizetype end = line.size();
        while (end > 0 && isWhitespace(codePointBefore(line, end)))
            end -= utf16Length(codePointBefore(line, end));
        line.truncate(end);
        ids.insert(line, int(i));
    }
    return Vocabulary(std::move(ids));
}

} // namespace attn::core::hf
