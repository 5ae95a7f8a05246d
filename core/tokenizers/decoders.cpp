// The decoders of tokenizer.json (tokenizers/src/decoders/*.rs): tokens back to text.
#include "core/tokenizers/byte_level.h"
#include "core/tokenizers/pipeline.h"

namespace attn::core::hf {

namespace {

class SequenceDecoder final : public Decoder
{
public:
    explicit SequenceDecoder(std::vector<std::unique_ptr<Decoder>> parts)
        : m_parts(std::move(parts))
    {
    }
    std::vector<QString> decodeChain(std::vector<QString> tokens) const override
    {
        for (const auto& part : m_parts)
            tokens = part->decodeChain(std::move(tokens));
        return tokens;
    }
    bool isByteLevel() const override
    {
        for (const auto& part : m_parts)
            if (part->isByteLevel())
                return true;
        return false;
    }

private:
    std::vector<std::unique_ptr<Decoder>> m_parts;
};

// All tokens' bytes joined and read as UTF-8, invalid bytes as U+FFFD; a token with a
// character outside the byte alphabet (an added token) contributes its own UTF-8.
class ByteLevelDecoder final : public Decoder
{
public:
    std::vector<QString> decodeChain(std::vector<QString> tokens) const override
    {
        std::string bytes;
        for (const QString& token : tokens)
            if (!fromByteLevel(token, bytes))
                bytes += token.toStdString();
        return {utf8Lossy(bytes)};
    }
    bool isByteLevel() const override { return true; }
};

// Runs of <0xXX> tokens become the text their bytes spell, or one U+FFFD per byte when they
// are not valid UTF-8.
class ByteFallbackDecoder final : public Decoder
{
public:
    std::vector<QString> decodeChain(std::vector<QString> tokens) const override
    {
        std::vector<QString> result;
        std::string pending;
        const auto flush = [&] {
            if (pending.empty())
                return;
            if (isValidUtf8(pending))
                result.push_back(QString::fromStdString(pending));
            else
                for (std::size_t i = 0; i < pending.size(); ++i)
                    result.push_back(QString(QChar(0xFFFD)));
            pending.clear();
        };
        for (QString& token : tokens) {
            bool ok = false;
            if (token.size() == 6 && token.startsWith(QStringLiteral("<0x")) &&
                token.endsWith(u'>')) {
                const int byte = token.mid(3, 2).toInt(&ok, 16);
                if (ok)
                    pending.push_back(char(byte));
            }
            if (ok)
                continue;
            flush();
            result.push_back(std::move(token));
        }
        flush();
        return result;
    }
};

class FuseDecoder final : public Decoder
{
public:
    std::vector<QString> decodeChain(std::vector<QString> tokens) const override
    {
        QString joined;
        for (const QString& token : tokens)
            joined += token;
        return {joined};
    }
};

class StripDecoder final : public Decoder
{
public:
    StripDecoder(char32_t content, int start, int stop)
        : m_content(content), m_start(start), m_stop(stop)
    {
    }
    std::vector<QString> decodeChain(std::vector<QString> tokens) const override
    {
        for (QString& token : tokens) {
            const std::u32string chars = toCodePoints(token);
            std::size_t startCut = 0;
            for (std::size_t i = 0; i < chars.size() && i < std::size_t(m_start); ++i) {
                if (chars[i] != m_content)
                    break;
                startCut = i + 1;
            }
            std::size_t stopCut = chars.size();
            for (std::size_t i = 0; i < std::size_t(m_stop) && i < chars.size(); ++i) {
                const std::size_t index = chars.size() - i - 1;
                if (chars[index] != m_content)
                    break;
                stopCut = index;
            }
            QString stripped;
            for (std::size_t i = startCut; i < stopCut; ++i)
                appendCodePoint(stripped, chars[i]);
            token = stripped;
        }
        return tokens;
    }

private:
    char32_t m_content;
    int m_start;
    int m_stop;
};

class ReplaceDecoder final : public Decoder
{
public:
    ReplaceDecoder(PatternRegex pattern, QString content)
        : m_pattern(std::move(pattern)), m_content(std::move(content))
    {
    }
    std::vector<QString> decodeChain(std::vector<QString> tokens) const override
    {
        for (QString& token : tokens) {
            QString replaced;
            for (const MatchSpan& span : m_pattern.findMatches(token))
                replaced += span.isMatch ? m_content : token.mid(span.begin, span.end - span.begin);
            token = replaced;
        }
        return tokens;
    }

private:
    PatternRegex m_pattern;
    QString m_content;
};

// The replacement character becomes a space, except at the very start of the first token
// when a prefix was prepended.
class MetaspaceDecoder final : public Decoder
{
public:
    MetaspaceDecoder(char32_t replacement, bool stripFirst)
        : m_replacement(replacement), m_stripFirst(stripFirst)
    {
    }
    std::vector<QString> decodeChain(std::vector<QString> tokens) const override
    {
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            QString decoded;
            for (char32_t c : toCodePoints(tokens[i])) {
                if (c != m_replacement)
                    appendCodePoint(decoded, c);
                else if (!(i == 0 && m_stripFirst))
                    decoded += u' ';
            }
            tokens[i] = decoded;
        }
        return tokens;
    }

private:
    char32_t m_replacement;
    bool m_stripFirst;
};

// wordpiece.rs: "##" pieces join the previous token, others get a space; cleanup undoes the
// spaces BERT's tokenization put before punctuation and contractions.
class WordPieceDecoder final : public Decoder
{
public:
    WordPieceDecoder(QString prefix, bool cleanup) : m_prefix(std::move(prefix)), m_cleanup(cleanup)
    {
    }
    std::vector<QString> decodeChain(std::vector<QString> tokens) const override
    {
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            QString& token = tokens[i];
            if (i != 0) {
                if (token.startsWith(m_prefix))
                    token.remove(0, m_prefix.size());
                else
                    token.prepend(u' ');
            }
            if (m_cleanup)
                token.replace(QStringLiteral(" ."), QStringLiteral("."))
                    .replace(QStringLiteral(" ?"), QStringLiteral("?"))
                    .replace(QStringLiteral(" !"), QStringLiteral("!"))
                    .replace(QStringLiteral(" ,"), QStringLiteral(","))
                    .replace(QStringLiteral(" ' "), QStringLiteral("'"))
                    .replace(QStringLiteral(" n't"), QStringLiteral("n't"))
                    .replace(QStringLiteral(" 'm"), QStringLiteral("'m"))
                    .replace(QStringLiteral(" do not"), QStringLiteral(" don't"))
                    .replace(QStringLiteral(" 's"), QStringLiteral("'s"))
                    .replace(QStringLiteral(" 've"), QStringLiteral("'ve"))
                    .replace(QStringLiteral(" 're"), QStringLiteral("'re"));
        }
        return tokens;
    }

private:
    QString m_prefix;
    bool m_cleanup;
};

// bpe.rs: the end-of-word suffix becomes a space (nothing after the last token).
class BpeDecoder final : public Decoder
{
public:
    explicit BpeDecoder(QString suffix) : m_suffix(std::move(suffix)) {}
    std::vector<QString> decodeChain(std::vector<QString> tokens) const override
    {
        for (std::size_t i = 0; i < tokens.size(); ++i)
            tokens[i].replace(m_suffix, i + 1 == tokens.size() ? QString() : QStringLiteral(" "));
        return tokens;
    }

private:
    QString m_suffix;
};

char32_t singleChar(const JsonReader& reader, const QJsonObject& object, const QString& key,
                    const QString& path)
{
    const QString text = reader.string(object, key, path);
    const std::u32string chars = toCodePoints(text);
    if (chars.size() != 1)
        reader.fail(JsonReader::child(path, key),
                    QStringLiteral("expected a single character, found '") + text + u'\'');
    return chars.front();
}

// Every type but Sequence (parseStep's).
std::unique_ptr<Decoder> decoderOfType(const JsonReader& reader, const QJsonObject& object,
                                       const QString& type, const QString& path)
{
    if (type == u"ByteLevel")
        return std::make_unique<ByteLevelDecoder>();
    if (type == u"ByteFallback")
        return std::make_unique<ByteFallbackDecoder>();
    if (type == u"Fuse")
        return std::make_unique<FuseDecoder>();
    if (type == u"Strip")
        return std::make_unique<StripDecoder>(
            singleChar(reader, object, QStringLiteral("content"), path),
            int(reader.integer(object, QStringLiteral("start"), path, 0)),
            int(reader.integer(object, QStringLiteral("stop"), path, 0)));
    if (type == u"Replace")
        return std::make_unique<ReplaceDecoder>(
            parsePattern(reader, reader.member(object, QStringLiteral("pattern"), path),
                         JsonReader::child(path, QStringLiteral("pattern"))),
            reader.string(object, QStringLiteral("content"), path));
    if (type == u"Metaspace") {
        bool stripFirst = true;
        if (const auto scheme =
                reader.optionalString(object, QStringLiteral("prepend_scheme"), path))
            stripFirst = *scheme != u"never";
        const QJsonValue legacy = object.value(QStringLiteral("add_prefix_space"));
        if (legacy.isBool() && !legacy.toBool())
            stripFirst = false;
        return std::make_unique<MetaspaceDecoder>(
            singleChar(reader, object, QStringLiteral("replacement"), path), stripFirst);
    }
    if (type == u"WordPiece")
        return std::make_unique<WordPieceDecoder>(
            reader.optionalString(object, QStringLiteral("prefix"), path)
                .value_or(QStringLiteral("##")),
            reader.boolean(object, QStringLiteral("cleanup"), path, true));
    if (type == u"BPEDecoder")
        return std::make_unique<BpeDecoder>(
            reader.optionalString(object, QStringLiteral("suffix"), path)
                .value_or(QStringLiteral("</w>")));
    reader.fail(JsonReader::child(path, QStringLiteral("type")),
                QStringLiteral("unsupported decoder '") + type + u'\'');
}

} // namespace

std::unique_ptr<Decoder> parseDecoder(const JsonReader& reader, const QJsonValue& value,
                                      const QString& path)
{
    return parseStep<SequenceDecoder>(reader, value, path, QStringLiteral("decoders"), parseDecoder,
                                      decoderOfType);
}

} // namespace attn::core::hf
