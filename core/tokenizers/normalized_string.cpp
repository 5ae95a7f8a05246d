#include "core/tokenizers/normalized_string.h"

#include <algorithm>

namespace attn::core::hf {

namespace {

qsizetype unitsAt(const QString& text, qsizetype index)
{
    return codePointAt(text, index) > 0xFFFF ? 2 : 1;
}

qsizetype utf8Length(const QString& text)
{
    qsizetype bytes = 0;
    for (qsizetype i = 0; i < text.size();) {
        const char32_t c = codePointAt(text, i);
        bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        i += utf16Length(c);
    }
    return bytes;
}

} // namespace

NormalizedString::NormalizedString(const QString& input)
    : m_normalized(input), m_originalBegin(0), m_originalEnd(input.size())
{
    m_alignments.reserve(std::size_t(input.size()));
    for (qsizetype i = 0; i < input.size();) {
        const qsizetype units = unitsAt(input, i);
        for (qsizetype k = 0; k < units; ++k)
            m_alignments.push_back({i, i + units});
        i += units;
    }
}

Alignment NormalizedString::originalSpan(qsizetype begin, qsizetype end) const
{
    if (begin >= end) {
        // An empty range: empty, where its position came from.
        const qsizetype at =
            begin < size() ? m_alignments[std::size_t(begin)].begin : m_originalEnd;
        return {at, at};
    }
    return {m_alignments[std::size_t(begin)].begin, m_alignments[std::size_t(end - 1)].end};
}

NormalizedString NormalizedString::slice(qsizetype begin, qsizetype end) const
{
    NormalizedString result;
    result.m_normalized = m_normalized.mid(begin, end - begin);
    result.m_alignments.assign(m_alignments.begin() + begin, m_alignments.begin() + end);
    if (begin < end) {
        const Alignment span = originalSpan(begin, end);
        result.m_originalBegin = span.begin;
        result.m_originalEnd = span.end;
    } else {
        const qsizetype at =
            begin < size() ? m_alignments[std::size_t(begin)].begin : m_originalEnd;
        result.m_originalBegin = result.m_originalEnd = at;
    }
    return result;
}

void NormalizedString::transform(const std::vector<CharChange>& dest, qsizetype initialRemoved)
{
    // transform() targets Range::Original(..), which maps to nothing on an empty string.
    if (m_normalized.isEmpty())
        return;
    QString normalized;
    normalized.reserve(m_normalized.size());
    std::vector<Alignment> alignments;
    alignments.reserve(m_alignments.size());
    qsizetype pos = 0;
    const auto skip = [&] {
        if (pos < m_normalized.size())
            pos += unitsAt(m_normalized, pos);
    };
    for (qsizetype i = 0; i < initialRemoved; ++i)
        skip();
    for (const CharChange& item : dest) {
        Alignment align;
        if (item.change > 0) {
            // An inserted character shares the span of the one before it.
            align = pos < 1 ? Alignment{m_originalBegin, m_originalBegin}
                            : m_alignments[std::size_t(pos - 1)];
        } else {
            align = pos < size() ? m_alignments[std::size_t(pos)]
                                 : Alignment{m_originalEnd, m_originalEnd};
            skip();
        }
        for (int i = 0; i < -item.change; ++i)
            skip();
        appendCodePoint(normalized, item.c);
        for (qsizetype k = 0; k < utf16Length(item.c); ++k)
            alignments.push_back(align);
    }
    m_normalized = std::move(normalized);
    m_alignments = std::move(alignments);
}

void NormalizedString::prepend(const QString& text)
{
    if (m_normalized.isEmpty() || text.isEmpty())
        return;
    // The prepended text replaces the first character and that character is re-inserted,
    // so all of them carry its span (normalizer.rs, prepend).
    const qsizetype firstUnits = unitsAt(m_normalized, 0);
    const Alignment first = m_alignments.front();
    QString head = text + m_normalized.left(firstUnits);
    std::vector<Alignment> headAlignments(std::size_t(head.size()), first);
    m_normalized = head + m_normalized.mid(firstUnits);
    m_alignments.erase(m_alignments.begin(), m_alignments.begin() + firstUnits);
    m_alignments.insert(m_alignments.begin(), headAlignments.begin(), headAlignments.end());
}

void NormalizedString::replace(const std::vector<MatchSpan>& matches, const QString& content)
{
    QString normalized;
    normalized.reserve(m_normalized.size());
    std::vector<Alignment> alignments;
    alignments.reserve(m_alignments.size());
    qsizetype lastEnd = 0;
    for (const MatchSpan& match : matches) {
        if (!match.isMatch)
            continue;
        normalized += QStringView(m_normalized).mid(lastEnd, match.begin - lastEnd);
        alignments.insert(alignments.end(), m_alignments.begin() + lastEnd,
                          m_alignments.begin() + match.begin);
        // Every character of the replacement is inserted after the removed match, so it takes
        // the span of the match's last character (normalizer.rs, replace).
        const Alignment align = match.end < 1 ? Alignment{m_originalBegin, m_originalBegin}
                                              : m_alignments[std::size_t(match.end - 1)];
        normalized += content;
        alignments.insert(alignments.end(), std::size_t(content.size()), align);
        lastEnd = match.end;
    }
    normalized += QStringView(m_normalized).mid(lastEnd);
    alignments.insert(alignments.end(), m_alignments.begin() + lastEnd, m_alignments.end());
    m_normalized = std::move(normalized);
    m_alignments = std::move(alignments);
}

void NormalizedString::filter(const std::function<bool(char32_t)>& keep)
{
    // A kept character absorbs the removed ones that follow it (normalizer.rs, filter).
    std::vector<CharChange> dest;
    dest.reserve(std::size_t(m_normalized.size()));
    int removed = 0;
    qsizetype removedStart = 0;
    bool haveLast = false;
    char32_t last = 0;
    for (qsizetype i = 0; i < m_normalized.size();) {
        const char32_t c = codePointAt(m_normalized, i);
        i += utf16Length(c);
        if (keep(c)) {
            if (haveLast)
                dest.push_back({last, -removed});
            else
                removedStart = removed;
            last = c;
            haveLast = true;
            removed = 0;
        } else {
            ++removed;
        }
    }
    if (haveLast)
        dest.push_back({last, -removed});
    transform(dest, removedStart);
}

void NormalizedString::map(const std::function<char32_t(char32_t)>& mapping)
{
    std::vector<CharChange> dest;
    dest.reserve(std::size_t(m_normalized.size()));
    for (qsizetype i = 0; i < m_normalized.size();) {
        const char32_t c = codePointAt(m_normalized, i);
        i += utf16Length(c);
        dest.push_back({mapping(c), 0});
    }
    transform(dest, 0);
}

void NormalizedString::lowercase()
{
    std::vector<CharChange> dest;
    dest.reserve(std::size_t(m_normalized.size()));
    for (qsizetype i = 0; i < m_normalized.size();) {
        const char32_t c = codePointAt(m_normalized, i);
        i += utf16Length(c);
        appendLowercase(dest, c);
    }
    transform(dest, 0);
}

void NormalizedString::normalize(NormalizationForm form)
{
    if (isTriviallyNormalized(m_normalized, form))
        return;
    transform(normalizeWithChanges(m_normalized, form), 0);
}

void NormalizedString::strip(bool left, bool right)
{
    const std::u32string chars = toCodePoints(m_normalized);
    const qsizetype count = qsizetype(chars.size());
    qsizetype leading = 0;
    if (left)
        while (leading < count && isWhitespace(chars[std::size_t(leading)]))
            ++leading;
    qsizetype trailing = 0;
    if (right)
        while (trailing < count && isWhitespace(chars[std::size_t(count - 1 - trailing)]))
            ++trailing;
    if (leading == 0 && trailing == 0)
        return;
    // normalizer.rs compares the character index with the UTF-8 length here; kept as is so
    // that offsets agree on non-ASCII text too.
    const qsizetype bytes = utf8Length(m_normalized);
    std::vector<CharChange> dest;
    for (qsizetype i = 0; i < count; ++i) {
        if (i < leading || i >= count - trailing)
            continue;
        const char32_t c = chars[std::size_t(i)];
        if (i == bytes - trailing - 1)
            dest.push_back({c, -int(trailing)});
        else
            dest.push_back({c, 0});
    }
    transform(dest, leading);
}

std::vector<NormalizedString> NormalizedString::split(const std::vector<MatchSpan>& matches,
                                                      SplitBehavior behavior) const
{
    struct Piece
    {
        qsizetype begin;
        qsizetype end;
        bool remove;
    };
    std::vector<Piece> pieces;
    pieces.reserve(matches.size());
    bool previousMatch = false;
    switch (behavior) {
    case SplitBehavior::Isolated:
        for (const MatchSpan& m : matches)
            pieces.push_back({m.begin, m.end, false});
        break;
    case SplitBehavior::Removed:
        for (const MatchSpan& m : matches)
            pieces.push_back({m.begin, m.end, m.isMatch});
        break;
    case SplitBehavior::Contiguous:
        for (const MatchSpan& m : matches) {
            if (m.isMatch == previousMatch && !pieces.empty())
                pieces.back().end = m.end;
            else
                pieces.push_back({m.begin, m.end, false});
            previousMatch = m.isMatch;
        }
        break;
    case SplitBehavior::MergedWithPrevious:
        for (const MatchSpan& m : matches) {
            if (m.isMatch && !previousMatch && !pieces.empty())
                pieces.back().end = m.end;
            else
                pieces.push_back({m.begin, m.end, false});
            previousMatch = m.isMatch;
        }
        break;
    case SplitBehavior::MergedWithNext:
        for (auto it = matches.rbegin(); it != matches.rend(); ++it) {
            if (it->isMatch && !previousMatch && !pieces.empty())
                pieces.back().begin = it->begin;
            else
                pieces.push_back({it->begin, it->end, false});
            previousMatch = it->isMatch;
        }
        std::reverse(pieces.begin(), pieces.end());
        break;
    }
    std::vector<NormalizedString> result;
    result.reserve(pieces.size());
    for (const Piece& piece : pieces)
        if (!piece.remove)
            result.push_back(slice(piece.begin, piece.end));
    return result;
}

std::vector<MatchSpan> matchEachChar(const QString& text, const std::function<bool(char32_t)>& test)
{
    if (text.isEmpty())
        return {{0, 0, false}};
    std::vector<MatchSpan> result;
    qsizetype lastOffset = 0;
    for (qsizetype i = 0; i < text.size();) {
        const char32_t c = codePointAt(text, i);
        const qsizetype end = i + utf16Length(c);
        if (test(c)) {
            if (lastOffset < i)
                result.push_back({lastOffset, i, false});
            result.push_back({i, end, true});
            lastOffset = end;
        }
        i = end;
    }
    if (lastOffset < text.size())
        result.push_back({lastOffset, text.size(), false});
    return result;
}

void invertMatches(std::vector<MatchSpan>& matches)
{
    for (MatchSpan& m : matches)
        m.isMatch = !m.isMatch;
}

} // namespace attn::core::hf
