#include "core/tokenizers/pattern_regex.h"

#include <oniguruma.h>

#include <mutex>

namespace attn::core::hf {

namespace {

// QString's UTF-16 in the machine's order; Oniguruma counts offsets in bytes of it.
OnigEncoding utf16Encoding()
{
    return Q_BYTE_ORDER == Q_LITTLE_ENDIAN ? ONIG_ENCODING_UTF16_LE : ONIG_ENCODING_UTF16_BE;
}

const OnigUChar* bytesOf(const QString& text, qsizetype index)
{
    return reinterpret_cast<const OnigUChar*>(text.utf16() + index);
}

// The text with each unpaired surrogate replaced by U+FFFD (one unit for one, so offsets hold):
// Oniguruma reads a high surrogate as the first half of four bytes and does not check, and the
// library never sees one (a Rust string holds none).
QString withPairedSurrogates(const QString& text)
{
    QString result = text;
    const qsizetype n = result.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = result.at(i);
        if (c.isHighSurrogate() && i + 1 < n && result.at(i + 1).isLowSurrogate())
            ++i;
        else if (c.isSurrogate())
            result[i] = QChar::ReplacementCharacter;
    }
    return result;
}

void initializeOniguruma()
{
    static std::once_flag once;
    std::call_once(once, [] {
        OnigEncoding encodings[] = {utf16Encoding()};
        onig_initialize(encodings, 1);
    });
}

} // namespace

// The onig crate's Regex::new: ONIG_OPTION_CAPTURE_GROUP and the default syntax
// (ONIG_SYNTAX_ONIGURUMA), so ^ and $ match at line breaks and \s, \w, \h mean what the library
// means by them (Oniguruma's doc/RE).
PatternRegex PatternRegex::fromOniguruma(const QString& pattern)
{
    initializeOniguruma();
    PatternRegex result;
    OnigRegex regex = nullptr;
    OnigErrorInfo info{};
    const int code =
        onig_new(&regex, bytesOf(pattern, 0), bytesOf(pattern, pattern.size()),
                 ONIG_OPTION_CAPTURE_GROUP, utf16Encoding(), ONIG_SYNTAX_DEFAULT, &info);
    if (code != ONIG_NORMAL) {
        OnigUChar message[ONIG_MAX_ERROR_MESSAGE_LEN];
        const int length = onig_error_code_to_str(message, code, &info);
        result.m_error = QString::fromUtf8(reinterpret_cast<const char*>(message), length);
        return result;
    }
    result.m_oniguruma.reset(regex, onig_free);
    return result;
}

PatternRegex PatternRegex::fromPcre(const QString& pattern)
{
    PatternRegex result;
    result.m_pcre = QRegularExpression(pattern, QRegularExpression::UseUnicodePropertiesOption |
                                                    QRegularExpression::MultilineOption);
    result.m_pcre.optimize();
    if (!result.m_pcre.isValid())
        result.m_error = result.m_pcre.errorString();
    return result;
}

PatternRegex PatternRegex::fromLiteral(const QString& text)
{
    PatternRegex result;
    result.m_isLiteral = true;
    result.m_literal = text;
    return result;
}

std::vector<std::pair<qsizetype, qsizetype>> PatternRegex::matchRanges(const QString& input) const
{
    std::vector<std::pair<qsizetype, qsizetype>> ranges;
    if (m_isLiteral) {
        // pattern.rs: str::match_indices; an empty string pattern matches nothing.
        if (m_literal.isEmpty())
            return ranges;
        const QString& text = input;
        for (qsizetype at = text.indexOf(m_literal); at >= 0;
             at = text.indexOf(m_literal, at + m_literal.size()))
            ranges.emplace_back(at, at + m_literal.size());
        return ranges;
    }
    if (m_oniguruma) {
        // The onig crate's FindMatches: search on from the last match's end; an empty match
        // right where the last match ended is skipped by one character.
        const QString text = withPairedSurrogates(input);
        std::unique_ptr<OnigRegion, void (*)(OnigRegion*)> region(
            onig_region_new(), [](OnigRegion* r) { onig_region_free(r, 1); });
        const OnigUChar* begin = bytesOf(text, 0);
        const OnigUChar* end = bytesOf(text, text.size());
        qsizetype from = 0;
        qsizetype lastMatchEnd = -1;
        while (from <= text.size()) {
            onig_region_clear(region.get());
            const int found = onig_search(m_oniguruma.get(), begin, end, bytesOf(text, from), end,
                                          region.get(), ONIG_OPTION_NONE);
            if (found < 0)
                break; // ONIG_MISMATCH, or a search error (which the library also treats as none)
            const qsizetype matchBegin = region->beg[0] / qsizetype(sizeof(char16_t));
            const qsizetype matchEnd = region->end[0] / qsizetype(sizeof(char16_t));
            if (matchBegin == matchEnd && matchEnd == lastMatchEnd) {
                from += from < text.size() && text.at(from).isHighSurrogate() ? 2 : 1;
                continue;
            }
            ranges.emplace_back(matchBegin, matchEnd);
            from = matchEnd;
            lastMatchEnd = matchEnd;
        }
        return ranges;
    }
    QRegularExpressionMatchIterator it = m_pcre.globalMatch(input);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        ranges.emplace_back(match.capturedStart(), match.capturedEnd());
    }
    return ranges;
}

std::vector<MatchSpan> PatternRegex::findMatches(const QString& text) const
{
    if (text.isEmpty())
        return {{0, 0, false}};
    std::vector<MatchSpan> result;
    qsizetype previous = 0;
    for (const auto& [begin, end] : matchRanges(text)) {
        if (previous != begin)
            result.push_back({previous, begin, false});
        result.push_back({begin, end, true});
        previous = end;
    }
    if (previous != text.size())
        result.push_back({previous, text.size(), false});
    return result;
}

} // namespace attn::core::hf
