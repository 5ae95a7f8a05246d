// The normalizers of tokenizer.json (tokenizers/src/normalizers/*.rs).
#include "core/tokenizers/byte_level.h"
#include "core/tokenizers/pattern_regex.h"
#include "core/tokenizers/pipeline.h"
#include "core/tokenizers/precompiled_charsmap.h"

#include "core/error.h"

#include <QTextBoundaryFinder>

#include <algorithm>

namespace attn::core::hf {

namespace {

class SequenceNormalizer final : public Normalizer
{
public:
    explicit SequenceNormalizer(std::vector<std::unique_ptr<Normalizer>> parts)
        : m_parts(std::move(parts))
    {
    }
    void normalize(NormalizedString& text) const override
    {
        for (const auto& part : m_parts)
            part->normalize(text);
    }

private:
    std::vector<std::unique_ptr<Normalizer>> m_parts;
};

class UnicodeNormalizer final : public Normalizer
{
public:
    explicit UnicodeNormalizer(NormalizationForm form) : m_form(form) {}
    void normalize(NormalizedString& text) const override { text.normalize(m_form); }

private:
    NormalizationForm m_form;
};

class LowercaseNormalizer final : public Normalizer
{
public:
    void normalize(NormalizedString& text) const override { text.lowercase(); }
};

// strip.rs: StripAccents removes every combining mark (Mn, Mc, Me); run after NFD it takes the
// accents off letters.
class StripAccentsNormalizer final : public Normalizer
{
public:
    void normalize(NormalizedString& text) const override
    {
        text.filter([](char32_t c) { return !isCombiningMark(c); });
    }
};

class StripNormalizer final : public Normalizer
{
public:
    StripNormalizer(bool left, bool right) : m_left(left), m_right(right) {}
    void normalize(NormalizedString& text) const override
    {
        if (m_left && m_right) {
            text.strip(true, true);
        } else {
            if (m_left)
                text.strip(true, false);
            if (m_right)
                text.strip(false, true);
        }
    }

private:
    bool m_left;
    bool m_right;
};

bool isChineseChar(char32_t c)
{
    // The CJK Unified Ideographs blocks and their extensions, as BERT's original code lists.
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
           (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

// bert.rs: clean the text (drop NUL, U+FFFD and control characters, turn white space into
// spaces), put spaces around CJK ideographs, strip accents (NFD, then drop Mn only), lowercase.
class BertNormalizer final : public Normalizer
{
public:
    BertNormalizer(bool cleanText, bool chineseChars, std::optional<bool> stripAccents,
                   bool lowercase)
        : m_cleanText(cleanText), m_chineseChars(chineseChars),
          m_stripAccents(stripAccents.value_or(lowercase)), m_lowercase(lowercase)
    {
    }

    void normalize(NormalizedString& text) const override
    {
        if (m_cleanText) {
            text.filter([](char32_t c) {
                const bool control = c != U'\t' && c != U'\n' && c != U'\r' && isOther(c);
                return !(c == 0 || c == 0xFFFD || control);
            });
            text.map([](char32_t c) {
                return (c == U'\t' || c == U'\n' || c == U'\r' || isWhitespace(c)) ? U' ' : c;
            });
        }
        if (m_chineseChars) {
            std::vector<CharChange> dest;
            const std::u32string chars = toCodePoints(text.get());
            bool any = false;
            for (char32_t c : chars) {
                if (isChineseChar(c)) {
                    dest.push_back({U' ', 0});
                    dest.push_back({c, 1});
                    dest.push_back({U' ', 1});
                    any = true;
                } else {
                    dest.push_back({c, 0});
                }
            }
            if (any)
                text.transform(dest, 0);
        }
        if (m_stripAccents) {
            text.normalize(NormalizationForm::NFD);
            text.filter([](char32_t c) { return !isMarkNonspacing(c); });
        }
        if (m_lowercase)
            text.lowercase();
    }

private:
    bool m_cleanText;
    bool m_chineseChars;
    bool m_stripAccents;
    bool m_lowercase;
};

// The most a normalizer may lengthen a text, against the text as given. Unicode's own
// normalizers stay far below it (NFKD's longest decomposition, U+FDFA, is 18 characters; BERT's
// spaces around CJK ideographs triple them); a Replace whose content contains its pattern does
// not: three of them in a row, each putting ten a's for an "a", make "banana" 3003 characters
// long, and a long text gigabytes.
constexpr qsizetype kMaxGrowth = 64;

// Refuses to make `text` `length` characters long when that is more than kMaxGrowth times its
// input (a piece of the text given to the tokenizer); `where` names the normalizer.
void checkGrowth(const NormalizedString& text, qsizetype length, const QString& where,
                 const char* type)
{
    const qsizetype input = text.originalEnd() - text.originalBegin();
    const qsizetype limit = kMaxGrowth * std::max<qsizetype>(input, 1);
    if (length > limit)
        throw Error(
            (where + QStringLiteral(": this ") + QLatin1String(type) +
             QStringLiteral(" would make the text %1 characters long, from %2 in the input; "
                            "normalizers may lengthen a text at most %3 times (here to %4)")
                 .arg(length)
                 .arg(input)
                 .arg(kMaxGrowth)
                 .arg(limit))
                .toStdString());
}

class PrependNormalizer final : public Normalizer
{
public:
    PrependNormalizer(QString prefix, QString where)
        : m_prefix(std::move(prefix)), m_where(std::move(where))
    {
    }
    void normalize(NormalizedString& text) const override
    {
        if (text.isEmpty())
            return;
        checkGrowth(text, text.size() + m_prefix.size(), m_where, "Prepend");
        text.prepend(m_prefix);
    }

private:
    QString m_prefix;
    QString m_where;
};

class ReplaceNormalizer final : public Normalizer
{
public:
    ReplaceNormalizer(PatternRegex pattern, QString content, QString where)
        : m_pattern(std::move(pattern)), m_content(std::move(content)), m_where(std::move(where))
    {
    }
    void normalize(NormalizedString& text) const override
    {
        const std::vector<MatchSpan> matches = m_pattern.findMatches(text.get());
        // The length first: the text is built only when it stays within the bound.
        qsizetype length = text.size();
        for (const MatchSpan& match : matches)
            if (match.isMatch)
                length += m_content.size() - (match.end - match.begin);
        checkGrowth(text, length, m_where, "Replace");
        text.replace(matches, m_content);
    }

private:
    PatternRegex m_pattern;
    QString m_content;
    QString m_where;
};

// unicode.rs, do_nmt: drop ASCII control characters, turn other spacing characters into spaces.
class NmtNormalizer final : public Normalizer
{
public:
    void normalize(NormalizedString& text) const override
    {
        text.filter([](char32_t c) {
            return !((c >= 0x01 && c <= 0x08) || c == 0x0B || (c >= 0x0E && c <= 0x1F) ||
                     c == 0x7F || c == 0x8F || c == 0x9F);
        });
        text.map([](char32_t c) {
            switch (c) {
            case 0x09:
            case 0x0A:
            case 0x0C:
            case 0x0D:
            case 0x1680:
            case 0x2028:
            case 0x2029:
            case 0x2581:
            case 0xFEFF:
            case 0xFFFD:
                return U' ';
            default:
                return (c >= 0x200B && c <= 0x200F) ? U' ' : c;
            }
        });
    }
};

// precompiled.rs: SentencePiece's compiled rules (nmt_nfkc and the like), looked up the way the
// library does, which is not quite SentencePiece's own way: a grapheme cluster under 6 UTF-8
// bytes is replaced by the rule of the shortest key it begins with, if any; otherwise each of
// its characters by its own rule. Offsets follow the library's change counts: added
// characters are inserted after the first, removed ones are taken off the last character.
class PrecompiledNormalizer final : public Normalizer
{
public:
    PrecompiledNormalizer(PrecompiledCharsmap charsmap, QString where)
        : m_charsmap(std::move(charsmap)), m_where(std::move(where))
    {
    }
    void normalize(NormalizedString& text) const override
    {
        const QString& input = text.get();
        std::vector<CharChange> changes;
        changes.reserve(std::size_t(input.size()));
        bool modified = false;
        qsizetype length = 0;
        const auto replace = [&](QStringView old, const QString& replacement) {
            const std::u32string chars = toCodePoints(replacement);
            const int diff = int(chars.size()) - int(toCodePoints(old.toString()).size());
            for (char32_t c : chars)
                changes.push_back({c, 0});
            if (diff > 0)
                for (std::size_t i = changes.size() - std::size_t(diff); i < changes.size(); ++i)
                    changes[i].change = 1;
            else if (diff < 0 && !changes.empty())
                changes.back().change += diff;
            length += replacement.size();
            modified = true;
        };
        QTextBoundaryFinder graphemes(QTextBoundaryFinder::Grapheme, input);
        qsizetype begin = 0;
        for (qsizetype end = graphemes.toNextBoundary(); end > begin;
             begin = end, end = graphemes.toNextBoundary()) {
            const QStringView grapheme = QStringView(input).mid(begin, end - begin);
            const QByteArray utf8 = grapheme.toUtf8();
            const auto whole =
                utf8.size() < 6 ? m_charsmap.shortestMatch(utf8) : std::optional<QString>();
            if (whole) {
                replace(grapheme, *whole);
                continue;
            }
            for (qsizetype i = 0; i < grapheme.size();) {
                const char32_t c = codePointAt(input, begin + i);
                const QStringView part = grapheme.mid(i, utf16Length(c));
                i += part.size();
                if (const auto replacement = m_charsmap.shortestMatch(part.toUtf8())) {
                    replace(part, *replacement);
                } else {
                    changes.push_back({c, 0});
                    length += part.size();
                }
            }
        }
        if (!modified)
            return;
        checkGrowth(text, length, m_where, "Precompiled");
        text.transform(changes, 0);
    }

private:
    PrecompiledCharsmap m_charsmap;
    QString m_where;
};

class ByteLevelNormalizer final : public Normalizer
{
public:
    void normalize(NormalizedString& text) const override { byteLevelTransform(text); }
};

} // namespace

void byteLevelTransform(NormalizedString& text)
{
    std::vector<CharChange> dest;
    dest.reserve(std::size_t(text.size()) * 2);
    const QString& s = text.get();
    for (qsizetype i = 0; i < s.size();) {
        const char32_t c = codePointAt(s, i);
        i += utf16Length(c);
        std::uint8_t bytes[4];
        int count = 0;
        if (c < 0x80) {
            bytes[count++] = std::uint8_t(c);
        } else if (c < 0x800) {
            bytes[count++] = std::uint8_t(0xC0 | (c >> 6));
            bytes[count++] = std::uint8_t(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            bytes[count++] = std::uint8_t(0xE0 | (c >> 12));
            bytes[count++] = std::uint8_t(0x80 | ((c >> 6) & 0x3F));
            bytes[count++] = std::uint8_t(0x80 | (c & 0x3F));
        } else {
            bytes[count++] = std::uint8_t(0xF0 | (c >> 18));
            bytes[count++] = std::uint8_t(0x80 | ((c >> 12) & 0x3F));
            bytes[count++] = std::uint8_t(0x80 | ((c >> 6) & 0x3F));
            bytes[count++] = std::uint8_t(0x80 | (c & 0x3F));
        }
        for (int k = 0; k < count; ++k)
            dest.push_back({byteToChar(bytes[k]), k > 0 ? 1 : 0});
    }
    text.transform(dest, 0);
}

PatternRegex parsePattern(const JsonReader& reader, const QJsonValue& value, const QString& path)
{
    const QJsonObject object = reader.object(value, path);
    PatternRegex pattern;
    if (object.contains(QStringLiteral("String")))
        pattern = PatternRegex::fromLiteral(reader.string(object, QStringLiteral("String"), path));
    else if (object.contains(QStringLiteral("Regex")))
        pattern = PatternRegex::fromOniguruma(reader.string(object, QStringLiteral("Regex"), path));
    else
        reader.fail(path, QStringLiteral("expected {\"String\": ...} or {\"Regex\": ...}"));
    if (const QString error = pattern.error(); !error.isEmpty())
        reader.fail(path, QStringLiteral("invalid regular expression: ") + error);
    return pattern;
}

namespace {

// Every type but Sequence (parseStep's).
std::unique_ptr<Normalizer> normalizerOfType(const JsonReader& reader, const QJsonObject& object,
                                             const QString& type, const QString& path)
{
    if (type == u"NFC")
        return std::make_unique<UnicodeNormalizer>(NormalizationForm::NFC);
    if (type == u"NFD")
        return std::make_unique<UnicodeNormalizer>(NormalizationForm::NFD);
    if (type == u"NFKC")
        return std::make_unique<UnicodeNormalizer>(NormalizationForm::NFKC);
    if (type == u"NFKD")
        return std::make_unique<UnicodeNormalizer>(NormalizationForm::NFKD);
    if (type == u"Lowercase")
        return std::make_unique<LowercaseNormalizer>();
    if (type == u"StripAccents")
        return std::make_unique<StripAccentsNormalizer>();
    if (type == u"Strip")
        return std::make_unique<StripNormalizer>(
            reader.boolean(object, QStringLiteral("strip_left"), path, true),
            reader.boolean(object, QStringLiteral("strip_right"), path, true));
    if (type == u"BertNormalizer") {
        std::optional<bool> stripAccents;
        const QJsonValue strip = object.value(QStringLiteral("strip_accents"));
        if (!strip.isNull() && !strip.isUndefined())
            stripAccents = reader.boolean(object, QStringLiteral("strip_accents"), path, false);
        return std::make_unique<BertNormalizer>(
            reader.boolean(object, QStringLiteral("clean_text"), path, true),
            reader.boolean(object, QStringLiteral("handle_chinese_chars"), path, true),
            stripAccents, reader.boolean(object, QStringLiteral("lowercase"), path, true));
    }
    if (type == u"Prepend")
        return std::make_unique<PrependNormalizer>(
            reader.string(object, QStringLiteral("prepend"), path), reader.where(path));
    if (type == u"Replace")
        return std::make_unique<ReplaceNormalizer>(
            parsePattern(reader, reader.member(object, QStringLiteral("pattern"), path),
                         JsonReader::child(path, QStringLiteral("pattern"))),
            reader.string(object, QStringLiteral("content"), path), reader.where(path));
    if (type == u"Nmt")
        return std::make_unique<NmtNormalizer>();
    if (type == u"ByteLevel")
        return std::make_unique<ByteLevelNormalizer>();
    if (type == u"Precompiled") {
        const QString charsmapPath =
            JsonReader::child(path, QStringLiteral("precompiled_charsmap"));
        const QByteArray base64 =
            reader.string(object, QStringLiteral("precompiled_charsmap"), path).toLatin1();
        auto decoded =
            QByteArray::fromBase64Encoding(base64, QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            reader.fail(charsmapPath, QStringLiteral("not valid base64"));
        return std::make_unique<PrecompiledNormalizer>(
            PrecompiledCharsmap(*decoded, reader, charsmapPath), reader.where(path));
    }
    reader.fail(JsonReader::child(path, QStringLiteral("type")),
                QStringLiteral("unsupported normalizer '") + type + u'\'');
}

} // namespace

std::unique_ptr<Normalizer> parseNormalizer(const JsonReader& reader, const QJsonValue& value,
                                            const QString& path)
{
    return parseStep<SequenceNormalizer>(reader, value, path, QStringLiteral("normalizers"),
                                         parseNormalizer, normalizerOfType);
}

} // namespace attn::core::hf
