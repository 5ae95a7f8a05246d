// The pre-tokenizers of tokenizer.json (tokenizers/src/pre_tokenizers/*.rs) and the
// PreTokenizedString they work on (tokenizers/src/tokenizer/pre_tokenizer.rs).
#include "core/tokenizers/pipeline.h"

namespace attn::core::hf {

void PreTokenizedString::split(const std::function<std::vector<Split>(NormalizedString&&)>& cut)
{
    std::vector<Split> result;
    result.reserve(m_splits.size());
    for (Split& split : m_splits) {
        if (split.addedId) {
            result.push_back(std::move(split));
            continue;
        }
        for (Split& piece : cut(std::move(split.normalized)))
            if (!piece.normalized.isEmpty())
                result.push_back(std::move(piece));
    }
    m_splits = std::move(result);
}

void PreTokenizedString::splitNormalized(
    const std::function<std::vector<NormalizedString>(NormalizedString&&)>& cut)
{
    split([&](NormalizedString&& text) {
        std::vector<Split> pieces;
        for (NormalizedString& piece : cut(std::move(text)))
            pieces.push_back({std::move(piece), {}});
        return pieces;
    });
}

void PreTokenizedString::normalizeEach(const std::function<void(NormalizedString&)>& normalize)
{
    for (Split& split : m_splits)
        if (!split.addedId)
            normalize(split.normalized);
}

SplitBehavior parseSplitBehavior(const JsonReader& reader, const QJsonValue& value,
                                 const QString& path)
{
    const QString name = reader.string(value, path);
    if (name == u"Removed")
        return SplitBehavior::Removed;
    if (name == u"Isolated")
        return SplitBehavior::Isolated;
    if (name == u"MergedWithPrevious")
        return SplitBehavior::MergedWithPrevious;
    if (name == u"MergedWithNext")
        return SplitBehavior::MergedWithNext;
    if (name == u"Contiguous")
        return SplitBehavior::Contiguous;
    reader.fail(path, QStringLiteral("unknown split behavior '") + name +
                          QStringLiteral("' (expected Removed, Isolated, MergedWithPrevious, "
                                         "MergedWithNext or Contiguous)"));
}

namespace {

class SequencePreTokenizer final : public PreTokenizer
{
public:
    explicit SequencePreTokenizer(std::vector<std::unique_ptr<PreTokenizer>> parts)
        : m_parts(std::move(parts))
    {
    }
    void preTokenize(PreTokenizedString& text) const override
    {
        for (const auto& part : m_parts)
            part->preTokenize(text);
    }
    bool isByteLevel() const override
    {
        for (const auto& part : m_parts)
            if (part->isByteLevel())
                return true;
        return false;
    }

private:
    std::vector<std::unique_ptr<PreTokenizer>> m_parts;
};

// GPT-2's pattern (byte_level.rs): contractions, letters, numbers, other symbols, each with
// at most one leading space; white space not followed by a non-space; other white space.
const PatternRegex& gpt2Pattern()
{
    static const PatternRegex pattern = PatternRegex::fromOniguruma(QStringLiteral(
        "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+"));
    return pattern;
}

class ByteLevelPreTokenizer final : public PreTokenizer
{
public:
    ByteLevelPreTokenizer(bool addPrefixSpace, bool useRegex)
        : m_addPrefixSpace(addPrefixSpace), m_useRegex(useRegex)
    {
    }
    void preTokenize(PreTokenizedString& text) const override
    {
        text.splitNormalized([this](NormalizedString&& piece) {
            if (m_addPrefixSpace && !piece.get().startsWith(u' '))
                piece.prepend(QStringLiteral(" "));
            if (!m_useRegex)
                return std::vector<NormalizedString>{std::move(piece)};
            return piece.split(gpt2Pattern().findMatches(piece.get()), SplitBehavior::Isolated);
        });
        text.normalizeEach(byteLevelTransform);
    }
    bool isByteLevel() const override { return true; }

private:
    bool m_addPrefixSpace;
    bool m_useRegex;
};

enum class PrependScheme { First, Never, Always };

// metaspace.rs: spaces become the replacement character (SentencePiece's "▁"), one is put in
// front (of every word, of the first one only, or never), and words split before each.
class MetaspacePreTokenizer final : public PreTokenizer
{
public:
    MetaspacePreTokenizer(char32_t replacement, PrependScheme scheme, bool split)
        : m_replacement(replacement), m_scheme(scheme), m_split(split)
    {
        appendCodePoint(m_text, replacement);
    }
    void preTokenize(PreTokenizedString& text) const override
    {
        text.splitNormalized([this](NormalizedString&& piece) {
            piece.replace(matchEachChar(piece.get(), [](char32_t c) { return c == U' '; }), m_text);
            const bool startsWithReplacement =
                !piece.isEmpty() && codePointAt(piece.get(), 0) == m_replacement;
            if (!startsWithReplacement &&
                (m_scheme == PrependScheme::Always ||
                 (m_scheme == PrependScheme::First && piece.originalBegin() == 0)))
                piece.prepend(m_text);
            if (!m_split)
                return std::vector<NormalizedString>{std::move(piece)};
            const char32_t replacement = m_replacement;
            return piece.split(
                matchEachChar(piece.get(), [replacement](char32_t c) { return c == replacement; }),
                SplitBehavior::MergedWithNext);
        });
    }

private:
    char32_t m_replacement;
    PrependScheme m_scheme;
    bool m_split;
    QString m_text;
};

// A split of every word on a character test (BertPreTokenizer, WhitespaceSplit, Digits,
// Punctuation, CharDelimiterSplit): each chained step is one pass over the words.
class CharTestPreTokenizer final : public PreTokenizer
{
public:
    struct Step
    {
        std::function<bool(char32_t)> test;
        SplitBehavior behavior;
    };
    explicit CharTestPreTokenizer(std::vector<Step> steps) : m_steps(std::move(steps)) {}
    void preTokenize(PreTokenizedString& text) const override
    {
        for (const Step& step : m_steps)
            text.splitNormalized([&step](NormalizedString&& piece) {
                return piece.split(matchEachChar(piece.get(), step.test), step.behavior);
            });
    }

private:
    std::vector<Step> m_steps;
};

class RegexPreTokenizer final : public PreTokenizer
{
public:
    RegexPreTokenizer(PatternRegex pattern, SplitBehavior behavior, bool invert)
        : m_pattern(std::move(pattern)), m_behavior(behavior), m_invert(invert)
    {
    }
    void preTokenize(PreTokenizedString& text) const override
    {
        text.splitNormalized([this](NormalizedString&& piece) {
            std::vector<MatchSpan> matches = m_pattern.findMatches(piece.get());
            if (m_invert)
                invertMatches(matches);
            return piece.split(matches, m_behavior);
        });
    }

private:
    PatternRegex m_pattern;
    SplitBehavior m_behavior;
    bool m_invert;
};

// whitespace.rs uses the Rust regex crate's \w (Alphabetic, M, Nd, Pc, Join_Control) and \s
// (White_Space); written out for PCRE2 to match isRustWordChar and isWhitespace.
const QString kRustWord = QStringLiteral(
    "\\p{L}\\p{M}\\p{Nd}\\p{Nl}\\p{Pc}\\x{200C}\\x{200D}\\x{24B6}-\\x{24E9}\\x{1F130}-\\x{1F149}"
    "\\x{1F150}-\\x{1F169}\\x{1F170}-\\x{1F189}");
const QString kRustSpace = QStringLiteral("\\t\\n\\x0B\\f\\r\\x{85}\\p{Z}");

bool isBertPunctuationTest(char32_t c)
{
    return isBertPunctuation(c);
}
bool isWhitespaceTest(char32_t c)
{
    return isWhitespace(c);
}
bool isNumericTest(char32_t c)
{
    return isNumeric(c);
}

// Every type but Sequence (parseStep's).
std::unique_ptr<PreTokenizer> preTokenizerOfType(const JsonReader& reader,
                                                 const QJsonObject& object, const QString& type,
                                                 const QString& path)
{
    using Step = CharTestPreTokenizer::Step;
    if (type == u"ByteLevel")
        return std::make_unique<ByteLevelPreTokenizer>(
            reader.boolean(object, QStringLiteral("add_prefix_space"), path, true),
            reader.boolean(object, QStringLiteral("use_regex"), path, true));
    if (type == u"Metaspace") {
        const QString replacement = reader.string(object, QStringLiteral("replacement"), path);
        const std::u32string chars = toCodePoints(replacement);
        if (chars.size() != 1)
            reader.fail(JsonReader::child(path, QStringLiteral("replacement")),
                        QStringLiteral("expected a single character, found '") + replacement +
                            u'\'');
        PrependScheme scheme = PrependScheme::Always;
        if (const auto name =
                reader.optionalString(object, QStringLiteral("prepend_scheme"), path)) {
            if (*name == u"first")
                scheme = PrependScheme::First;
            else if (*name == u"never")
                scheme = PrependScheme::Never;
            else if (*name == u"always")
                scheme = PrependScheme::Always;
            else
                reader.fail(JsonReader::child(path, QStringLiteral("prepend_scheme")),
                            QStringLiteral("expected first, always or never, found '") + *name +
                                u'\'');
        }
        // Files from before prepend_scheme say add_prefix_space instead (metaspace.rs).
        const QJsonValue legacy = object.value(QStringLiteral("add_prefix_space"));
        if (legacy.isBool() && !legacy.toBool()) {
            if (scheme != PrependScheme::Never)
                reader.fail(JsonReader::child(path, QStringLiteral("add_prefix_space")),
                            QStringLiteral("false does not match prepend_scheme"));
            scheme = PrependScheme::Never;
        }
        return std::make_unique<MetaspacePreTokenizer>(
            chars.front(), scheme, reader.boolean(object, QStringLiteral("split"), path, true));
    }
    if (type == u"BertPreTokenizer")
        return std::make_unique<CharTestPreTokenizer>(
            std::vector<Step>{{isWhitespaceTest, SplitBehavior::Removed},
                              {isBertPunctuationTest, SplitBehavior::Isolated}});
    if (type == u"WhitespaceSplit")
        return std::make_unique<CharTestPreTokenizer>(
            std::vector<Step>{{isWhitespaceTest, SplitBehavior::Removed}});
    if (type == u"Whitespace") {
        PatternRegex pattern =
            PatternRegex::fromPcre(QStringLiteral("[%1]+|[^%1%2]+").arg(kRustWord, kRustSpace));
        return std::make_unique<RegexPreTokenizer>(std::move(pattern), SplitBehavior::Removed,
                                                   true);
    }
    if (type == u"Digits") {
        const bool individual =
            reader.boolean(object, QStringLiteral("individual_digits"), path, false);
        return std::make_unique<CharTestPreTokenizer>(std::vector<Step>{
            {isNumericTest, individual ? SplitBehavior::Isolated : SplitBehavior::Contiguous}});
    }
    if (type == u"Punctuation") {
        SplitBehavior behavior = SplitBehavior::Isolated;
        if (object.contains(QStringLiteral("behavior")))
            behavior = parseSplitBehavior(reader, object.value(QStringLiteral("behavior")),
                                          JsonReader::child(path, QStringLiteral("behavior")));
        return std::make_unique<CharTestPreTokenizer>(
            std::vector<Step>{{isBertPunctuationTest, behavior}});
    }
    if (type == u"CharDelimiterSplit") {
        const QString delimiter = reader.string(object, QStringLiteral("delimiter"), path);
        const std::u32string chars = toCodePoints(delimiter);
        if (chars.size() != 1)
            reader.fail(JsonReader::child(path, QStringLiteral("delimiter")),
                        QStringLiteral("expected a single character"));
        const char32_t d = chars.front();
        return std::make_unique<CharTestPreTokenizer>(
            std::vector<Step>{{[d](char32_t c) { return c == d; }, SplitBehavior::Removed}});
    }
    if (type == u"Split") {
        PatternRegex pattern =
            parsePattern(reader, reader.member(object, QStringLiteral("pattern"), path),
                         JsonReader::child(path, QStringLiteral("pattern")));
        const SplitBehavior behavior =
            parseSplitBehavior(reader, reader.member(object, QStringLiteral("behavior"), path),
                               JsonReader::child(path, QStringLiteral("behavior")));
        return std::make_unique<RegexPreTokenizer>(
            std::move(pattern), behavior,
            reader.boolean(object, QStringLiteral("invert"), path, false));
    }
    reader.fail(JsonReader::child(path, QStringLiteral("type")),
                QStringLiteral("unsupported pre-tokenizer '") + type + u'\'');
}

} // namespace

std::unique_ptr<PreTokenizer> parsePreTokenizer(const JsonReader& reader, const QJsonValue& value,
                                                const QString& path)
{
    return parseStep<SequencePreTokenizer>(reader, value, path, QStringLiteral("pretokenizers"),
                                           parsePreTokenizer, preTokenizerOfType);
}

} // namespace attn::core::hf
