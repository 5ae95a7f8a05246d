#include "core/tokenizers/hf_tokenizer.h"

#include "core/error.h"
#include "core/token_display.h"
#include "core/tokenizers/added_vocabulary.h"
#include "core/tokenizers/bpe_model.h"
#include "core/tokenizers/byte_level.h"
#include "core/tokenizers/pipeline.h"

namespace attn::core {

using namespace hf;

HfTokenizer::HfTokenizer() : m_added(std::make_unique<AddedVocabulary>()) {}

HfTokenizer::~HfTokenizer() = default;

void HfTokenizer::finish()
{
    m_added->finish(m_normalizer.get());
    m_byteLevel = (m_preTokenizer && m_preTokenizer->isByteLevel()) ||
                  (m_decoder && m_decoder->isByteLevel());
    if (auto* bpe = dynamic_cast<BpeModel*>(m_model.get()))
        bpe->setEveryCharacterKnown(m_preTokenizer && m_preTokenizer->isByteLevel() &&
                                    bpe->hasByteLevelAlphabet());
}

namespace {

[[noreturn]] void tooManyTokens(int maxTokens)
{
    const std::string limit = std::to_string(maxTokens);
    throw Error("the text has more than " + limit + " tokens; the limit is " + limit);
}

} // namespace

std::vector<Token> HfTokenizer::encode(const QString& text, bool addSpecialTokens,
                                       int maxTokens) const
{
    // tokenizer/mod.rs, encode_single_sequence: added tokens and normalization, then
    // pre-tokenization, then the model on each word, then the post-processor.
    PreTokenizedString pieces(text);
    m_added->extractAndNormalize(pieces, m_normalizer.get());
    if (m_preTokenizer)
        m_preTokenizer->preTokenize(pieces);

    const qsizetype reserved =
        (addSpecialTokens && m_postProcessor) ? m_postProcessor->addedTokens() : 0;
    const qsizetype budget = qsizetype(maxTokens) - reserved;
    std::vector<EncodedToken> encoded;
    std::vector<ModelToken> wordTokens;
    WordCache cache;
    for (Split& split : pieces.splits()) {
        if (split.addedId) {
            const AddedToken* added = m_added->byId(*split.addedId);
            EncodedToken token;
            token.id = *split.addedId;
            token.piece = split.normalized.get();
            token.begin = split.normalized.originalBegin();
            token.end = split.normalized.originalEnd();
            token.special = added && added->special;
            encoded.push_back(std::move(token));
        } else {
            const NormalizedString& word = split.normalized;
            if (qsizetype(encoded.size()) + m_model->minimumTokens(word.size()) > budget)
                tooManyTokens(maxTokens);
            wordTokens.clear();
            m_model->tokenize(word.get(), wordTokens, cache);
            for (const ModelToken& modelToken : wordTokens) {
                const Alignment span = word.originalSpan(modelToken.begin, modelToken.end);
                EncodedToken token;
                token.id = modelToken.id;
                token.piece = m_model->pieceOf(modelToken.id);
                token.begin = span.begin;
                token.end = span.end;
                encoded.push_back(std::move(token));
            }
        }
        if (qsizetype(encoded.size()) > budget)
            tooManyTokens(maxTokens);
    }
    if (m_postProcessor)
        m_postProcessor->process(encoded, addSpecialTokens, text);
    if (qsizetype(encoded.size()) > maxTokens)
        tooManyTokens(maxTokens);

    std::vector<Token> result;
    result.reserve(encoded.size());
    for (const EncodedToken& token : encoded) {
        Token out;
        out.text = displayText(token.id);
        out.begin = token.generated ? -1 : token.begin;
        out.length = token.generated ? 0 : token.end - token.begin;
        out.special = token.special;
        out.id = token.id;
        // The vocabulary entry: for an added token its content, not the matched text.
        out.piece = m_added->byId(token.id) && !token.generated ? pieceOf(token.id) : token.piece;
        result.push_back(std::move(out));
    }
    return result;
}

int HfTokenizer::vocabSize() const
{
    return std::max(m_model->vocabSize(), m_added->largestId() + 1);
}

std::optional<int> HfTokenizer::idOf(const QString& piece) const
{
    if (const auto id = m_added->idOf(piece))
        return id;
    return m_model->idOf(piece);
}

QString HfTokenizer::pieceOf(int id) const
{
    if (const AddedToken* added = m_added->byId(id))
        return added->content;
    const QString piece = m_model->pieceOf(id);
    return piece.isNull() ? QString() : piece;
}

namespace {

// Complete UTF-8 characters as text, the bytes of incomplete or invalid ones as "<0xE3>".
QString bytesForReading(const std::string& bytes)
{
    QString result;
    std::size_t i = 0;
    while (i < bytes.size()) {
        std::size_t length = 1;
        const unsigned char lead = static_cast<unsigned char>(bytes[i]);
        if (lead >= 0xC0)
            length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
        if (i + length <= bytes.size() && isValidUtf8(bytes.substr(i, length))) {
            result += QString::fromUtf8(bytes.data() + i, qsizetype(length));
            i += length;
            continue;
        }
        result += byteTokenText(lead);
        ++i;
    }
    return result;
}

} // namespace

QString HfTokenizer::displayText(int id) const
{
    return tokenDisplayText(readableText(id));
}

QString HfTokenizer::readableText(int id) const
{
    if (const AddedToken* added = m_added->byId(id))
        return added->content;
    const QString piece = m_model->pieceOf(id);
    if (piece.isNull())
        return QString();
    if (m_byteLevel) {
        std::string bytes;
        return fromByteLevel(piece, bytes) ? bytesForReading(bytes) : piece;
    }
    if (m_model->kind() == u"WordPiece") {
        const QString prefix = m_model->continuingSubwordPrefix();
        return !prefix.isEmpty() && piece.startsWith(prefix) && piece.size() > prefix.size()
                   ? piece.mid(prefix.size())
                   : piece;
    }
    // SentencePiece-style pieces: "▁" stands for a space, <0x41> for a byte.
    if (piece.size() == 6 && piece.startsWith(QStringLiteral("<0x")) && piece.endsWith(u'>')) {
        bool ok = false;
        const int byte = piece.mid(3, 2).toInt(&ok, 16);
        if (ok)
            return byte < 0x80 ? QString(QChar(byte)) : piece;
    }
    QString text = piece;
    return text.replace(QChar(0x2581), u' ');
}

QString HfTokenizer::decode(const std::vector<int>& ids, bool skipSpecial) const
{
    // tokenizer/mod.rs, decode.
    std::vector<QString> pieces;
    pieces.reserve(ids.size());
    for (int id : ids) {
        QString piece = m_added->byId(id) ? m_added->decodedText(id) : m_model->pieceOf(id);
        if (piece.isNull())
            continue;
        if (skipSpecial && m_added->isSpecialContent(piece))
            continue;
        pieces.push_back(std::move(piece));
    }
    if (!m_decoder) {
        QStringList list;
        for (const QString& piece : pieces)
            list << piece;
        return list.join(u' ');
    }
    QString result;
    for (const QString& part : m_decoder->decodeChain(std::move(pieces)))
        result += part;
    return result;
}

QString HfTokenizer::kind() const
{
    if (m_byteLevel && m_model->kind() == u"BPE")
        return QStringLiteral("BPE (byte-level)");
    return m_model->kind();
}

std::optional<int> HfTokenizer::maskTokenId() const
{
    if (m_maskToken)
        if (const auto id = idOf(*m_maskToken))
            return id;
    for (const QString& name : {QStringLiteral("[MASK]"), QStringLiteral("<mask>")})
        if (const auto id = idOf(name))
            return id;
    return std::nullopt;
}

} // namespace attn::core
