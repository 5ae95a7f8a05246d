#include "core/tokenizers/marian_model.h"

#include <QRegularExpression>

namespace attn::core::hf {

namespace {

// MarianTokenizer's language_code_re, ">>.+<<", with Python's "." (anything but a newline).
const QRegularExpression& languageCode()
{
    static const QRegularExpression pattern(QStringLiteral(">>[^\\n]+<<"));
    return pattern;
}

} // namespace

MarianModel::MarianModel(std::shared_ptr<const SentencePieceModel> source, Vocabulary vocabulary,
                         int unkId)
    : m_source(std::move(source)), m_vocabulary(std::move(vocabulary)), m_unkId(unkId)
{
}

void MarianModel::tokenize(const QString& word, std::vector<ModelToken>& out, WordCache&) const
{
    // remove_language_code: the code matched at the start is kept as a token; every match
    // anywhere is removed (re.sub). `origin` maps the units left to their place in `word`.
    QString text;
    std::vector<qsizetype> origin;
    qsizetype kept = 0;
    QRegularExpressionMatchIterator matches = languageCode().globalMatch(word);
    while (matches.hasNext()) {
        const QRegularExpressionMatch match = matches.next();
        if (match.capturedStart() == 0)
            out.push_back(
                {m_vocabulary.idOf(match.captured()).value_or(m_unkId), 0, match.capturedEnd()});
        for (qsizetype i = kept; i < match.capturedStart(); ++i)
            origin.push_back(i);
        text += QStringView(word).mid(kept, match.capturedStart() - kept);
        kept = match.capturedEnd();
    }
    if (kept == 0) {
        text = word;
    } else {
        for (qsizetype i = kept; i < word.size(); ++i)
            origin.push_back(i);
        text += QStringView(word).mid(kept);
    }
    const auto place = [&](qsizetype at) {
        if (kept == 0)
            return at;
        return at < qsizetype(origin.size()) ? origin[std::size_t(at)] : word.size();
    };
    for (const SentencePieceModel::Piece& piece : m_source->encode(text)) {
        const qsizetype begin = place(piece.begin);
        const qsizetype end = piece.end > piece.begin ? place(piece.end - 1) + 1 : begin;
        out.push_back({m_vocabulary.idOf(piece.piece).value_or(m_unkId), begin, end});
    }
}

} // namespace attn::core::hf
