#include "tokenizer.h"

#include "error.h"

#include <QTextBoundaryFinder>
#include <algorithm>
#include <array>
#include <mutex>
#include <optional>

namespace attn::core {

namespace {

constexpr std::array<QStringView, 9> kSpecialTokens = {
    u"[CLS]", u"[SEP]", u"[PAD]", u"[MASK]", u"[UNK]", u"<s>", u"</s>", u"<pad>", u"<unk>",
};

// The text is segmented in chunks of about this many UTF-16 units, cut at white space
// (always a word and grapheme boundary), so that a huge paste stops being scanned once the
// token limit is reached.
constexpr qsizetype kChunkSize = 8192;

// Scripts written without spaces between words: Unicode word boundaries would give whole
// runs (Katakana) or dictionary words (Thai, via libthai), so they go per grapheme instead.
bool isUnspacedScript(char32_t c)
{
    switch (QChar::script(c)) {
    case QChar::Script_Han:
    case QChar::Script_Hiragana:
    case QChar::Script_Katakana:
    case QChar::Script_Thai:
    case QChar::Script_Lao:
    case QChar::Script_Khmer:
    case QChar::Script_Myanmar:
        return true;
    default:
        return false;
    }
}

bool hasUnspacedScript(QStringView s)
{
    for (qsizetype i = 0; i < s.size(); ++i) {
        char32_t c = s[i].unicode();
        if (s[i].isHighSurrogate() && i + 1 < s.size() && s[i + 1].isLowSurrogate()) {
            c = QChar::surrogateToUcs4(s[i], s[i + 1]);
            ++i;
        }
        if (isUnspacedScript(c))
            return true;
    }
    return false;
}

// The special token spelled at position i of s, or an empty view.
QStringView specialAt(QStringView s, qsizetype i)
{
    if (s[i] != u'[' && s[i] != u'<')
        return {};
    for (const QStringView special : kSpecialTokens) {
        if (s.sliced(i).startsWith(special))
            return special;
    }
    return {};
}

// Collects tokens with offsets into the original text and enforces the token limit.
class TokenCollector
{
public:
    TokenCollector(const QString& text, const TokenizerSettings& settings, int maxTokens)
        : m_text(text), m_settings(settings), m_maxTokens(maxTokens),
          m_addedSpecials(settings.special == SpecialTokens::None ? 0 : 2)
    {
    }

    void run()
    {
        qsizetype pos = 0;
        while (pos < m_text.size()) {
            const qsizetype end = chunkEnd(pos);
            chunk(pos, end);
            pos = end;
        }
    }

    std::vector<Token> take() { return std::move(m_tokens); }

private:
    qsizetype chunkEnd(qsizetype pos) const
    {
        qsizetype end = pos + kChunkSize;
        if (end >= m_text.size())
            return m_text.size();
        while (end < m_text.size() && !m_text[end].isSpace())
            ++end;
        return end;
    }

    // Literal special tokens are cut out first, in every mode, so "[CLS]" never becomes
    // "[", "CLS", "]"; the plain text between them goes to the mode's segmentation.
    void chunk(qsizetype begin, qsizetype end)
    {
        const QStringView text(m_text);
        qsizetype plainBegin = begin;
        for (qsizetype i = begin; i < end; ++i) {
            const QStringView special = specialAt(text.first(end), i);
            if (special.isEmpty())
                continue;
            plain(plainBegin, i);
            add(i, special.size(), true);
            i += special.size() - 1;
            plainBegin = i + 1;
        }
        plain(plainBegin, end);
    }

    void plain(qsizetype begin, qsizetype end)
    {
        if (begin >= end)
            return;
        switch (m_settings.mode) {
        case TokenizerMode::Word:
            segments(QTextBoundaryFinder::Word, begin, end);
            break;
        case TokenizerMode::Character:
            segments(QTextBoundaryFinder::Grapheme, begin, end);
            break;
        case TokenizerMode::Whitespace:
            whitespaceRuns(begin, end);
            break;
        }
    }

    void whitespaceRuns(qsizetype begin, qsizetype end)
    {
        qsizetype i = begin;
        while (i < end) {
            while (i < end && m_text[i].isSpace())
                ++i;
            const qsizetype start = i;
            while (i < end && !m_text[i].isSpace())
                ++i;
            if (i > start)
                add(start, i - start, false);
        }
    }

    void segments(QTextBoundaryFinder::BoundaryType type, qsizetype begin, qsizetype end)
    {
        QTextBoundaryFinder finder(type, QStringView(m_text).sliced(begin, end - begin));
        qsizetype previous = 0;
        for (qsizetype next = finder.toNextBoundary(); next != -1; next = finder.toNextBoundary()) {
            if (type == QTextBoundaryFinder::Word)
                word(begin + previous, begin + next);
            else
                grapheme(begin + previous, begin + next);
            previous = next;
        }
    }

    // One Unicode word segment (UAX #29): punctuation and spaces are segments of their own.
    void word(qsizetype begin, qsizetype end)
    {
        // A combining mark after a space forms one segment with it; trim the space.
        while (begin < end && m_text[begin].isSpace())
            ++begin;
        while (end > begin && m_text[end - 1].isSpace())
            --end;
        if (begin == end)
            return;
        // Word boundaries must not split a base letter from its vowel signs (Devanagari,
        // Kannada, Tamil, ...); should the finder do so, the marks rejoin their letter.
        if (m_text[begin].isMark() && !m_tokens.empty()) {
            Token& last = m_tokens.back();
            if (!last.special && last.begin + last.length == begin) {
                last.length = end - last.begin;
                last.text = m_text.sliced(last.begin, last.length);
                return;
            }
        }
        const QStringView segment = QStringView(m_text).sliced(begin, end - begin);
        if (hasUnspacedScript(segment))
            segments(QTextBoundaryFinder::Grapheme, begin, end);
        else
            add(begin, end - begin, false);
    }

    void grapheme(qsizetype begin, qsizetype end)
    {
        for (qsizetype i = begin; i < end; ++i) {
            if (!m_text[i].isSpace()) {
                add(begin, end - begin, false);
                return;
            }
        }
    }

    void add(qsizetype begin, qsizetype length, bool special)
    {
        if (qsizetype(m_tokens.size()) + m_addedSpecials >= m_maxTokens) {
            const std::string limit = std::to_string(m_maxTokens);
            throw Error("the text has more than " + limit + " tokens; the limit is " + limit);
        }
        m_tokens.push_back({m_text.sliced(begin, length), begin, length, special});
    }

    const QString& m_text;
    const TokenizerSettings& m_settings;
    const int m_maxTokens;
    const qsizetype m_addedSpecials;
    std::vector<Token> m_tokens;
};

Token addedSpecial(QStringView text)
{
    return {text.toString(), -1, 0, true};
}

} // namespace

namespace {

std::vector<Token> tokenizeOnce(const QString& text, const TokenizerSettings& settings,
                                int maxTokens)
{
    TokenCollector collector(text, settings, maxTokens);
    collector.run();
    std::vector<Token> tokens = collector.take();
    if (tokens.empty())
        return tokens;

    if (settings.lowercase) {
        for (Token& token : tokens) {
            if (!token.special)
                token.text = token.text.toLower();
        }
    }

    switch (settings.special) {
    case SpecialTokens::None:
        break;
    case SpecialTokens::Bert:
        tokens.insert(tokens.begin(), addedSpecial(u"[CLS]"));
        tokens.push_back(addedSpecial(u"[SEP]"));
        break;
    case SpecialTokens::Sentence:
        tokens.insert(tokens.begin(), addedSpecial(u"<s>"));
        tokens.push_back(addedSpecial(u"</s>"));
        break;
    }
    return tokens;
}

// The sentences tokenized last. One edit asks for the same sentence in several places (the
// input panel's chips, the document's vocabulary and hand-marked positions, resolveProblem on
// the compute thread); tokenizing is a pure function of its arguments, so they share one run.
// A text over the limit throws each time (the error is not kept).
class RecentTokens
{
public:
    std::optional<std::vector<Token>> find(const QString& text, const TokenizerSettings& settings,
                                           int maxTokens)
    {
        std::lock_guard lock(m_mutex);
        for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
            if (it->maxTokens == maxTokens && it->settings == settings && it->text == text) {
                std::rotate(m_entries.begin(), it, std::next(it)); // most recent first
                return m_entries.front().tokens;
            }
        }
        return std::nullopt;
    }

    void add(const QString& text, const TokenizerSettings& settings, int maxTokens,
             const std::vector<Token>& tokens)
    {
        std::lock_guard lock(m_mutex);
        m_entries.insert(m_entries.begin(), Entry{text, settings, maxTokens, tokens});
        if (m_entries.size() > kEntries)
            m_entries.pop_back();
    }

private:
    // A scene's two sentences, before and after an edit.
    static constexpr std::size_t kEntries = 4;
    struct Entry
    {
        QString text;
        TokenizerSettings settings;
        int maxTokens = 0;
        std::vector<Token> tokens;
    };
    std::mutex m_mutex;
    std::vector<Entry> m_entries;
};

RecentTokens& recentTokens()
{
    static RecentTokens recent;
    return recent;
}

} // namespace

std::vector<Token> tokenize(const QString& text, const TokenizerSettings& settings, int maxTokens)
{
    if (std::optional<std::vector<Token>> known = recentTokens().find(text, settings, maxTokens))
        return std::move(*known);
    std::vector<Token> tokens = tokenizeOnce(text, settings, maxTokens);
    recentTokens().add(text, settings, maxTokens, tokens);
    return tokens;
}

} // namespace attn::core
