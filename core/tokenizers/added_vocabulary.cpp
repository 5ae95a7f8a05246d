#include "core/tokenizers/added_vocabulary.h"

#include <algorithm>

namespace attn::core::hf {

void AddedVocabulary::add(const AddedToken& token)
{
    if (token.content.isEmpty())
        return;
    if (const auto it = m_byContent.constFind(token.content); it != m_byContent.constEnd()) {
        m_byId.remove(m_tokens[*it].id);
        m_tokens[*it] = token;
        m_byId.insert(token.id, *it);
    } else {
        m_byContent.insert(token.content, m_tokens.size());
        m_byId.insert(token.id, m_tokens.size());
        m_tokens.push_back(token);
    }
    if (token.special)
        m_specialContents.insert(token.content);
}

void AddedVocabulary::finish(const Normalizer* normalizer)
{
    m_raw = {};
    m_normalized = {};
    m_normalizedContent.clear();
    for (const AddedToken& token : m_tokens) {
        QString pattern = token.content;
        if (token.normalized && normalizer) {
            NormalizedString text(token.content);
            normalizer->normalize(text);
            if (text.get() != token.content)
                m_normalizedContent.insert(token.id, text.get());
            pattern = text.get();
        }
        if (pattern.isEmpty())
            continue;
        Matcher& matcher = token.normalized ? m_normalized : m_raw;
        matcher.byFirstUnit[pattern.at(0).unicode()].emplace_back(pattern, token.id);
    }
    for (Matcher* matcher : {&m_raw, &m_normalized})
        for (auto& candidates : matcher->byFirstUnit)
            std::stable_sort(
                candidates.begin(), candidates.end(),
                [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
}

const AddedToken* AddedVocabulary::byId(int id) const
{
    const auto it = m_byId.constFind(id);
    return it == m_byId.constEnd() ? nullptr : &m_tokens[*it];
}

std::optional<int> AddedVocabulary::idOf(const QString& content) const
{
    const auto it = m_byContent.constFind(content);
    if (it == m_byContent.constEnd())
        return std::nullopt;
    return m_tokens[*it].id;
}

QString AddedVocabulary::decodedText(int id) const
{
    const auto it = m_normalizedContent.constFind(id);
    if (it != m_normalizedContent.constEnd())
        return *it;
    const AddedToken* token = byId(id);
    return token ? token->content : QString();
}

int AddedVocabulary::largestId() const
{
    int largest = -1;
    for (const AddedToken& token : m_tokens)
        largest = std::max(largest, token.id);
    return largest;
}

std::vector<Split> AddedVocabulary::splitWith(NormalizedString&& text, const Matcher& matcher) const
{
    std::vector<Split> result;
    if (matcher.isEmpty()) {
        result.push_back({std::move(text), {}});
        return result;
    }
    const QString& s = text.get();
    const qsizetype length = s.size();
    qsizetype startOffset = 0;
    for (qsizetype pos = 0; pos < length;) {
        const auto candidates = matcher.byFirstUnit.constFind(s.at(pos).unicode());
        const std::pair<QString, int>* match = nullptr;
        if (candidates != matcher.byFirstUnit.constEnd())
            for (const auto& candidate : *candidates)
                if (QStringView(s).mid(pos).startsWith(candidate.first)) {
                    match = &candidate;
                    break;
                }
        if (!match) {
            ++pos;
            continue;
        }
        qsizetype start = pos;
        qsizetype stop = pos + match->first.size();
        // The search goes on after a match even when the checks below reject it.
        pos = stop;
        const AddedToken& token = *byId(match->second);
        if (token.singleWord) {
            const bool spaceBefore = start == 0 || !isRustWordChar(codePointBefore(s, start));
            const bool spaceAfter = stop == length || !isRustWordChar(codePointAt(s, stop));
            if (!spaceBefore || !spaceAfter)
                continue;
        }
        if (token.lstrip) {
            qsizetype newStart = start;
            while (newStart > 0 && isWhitespace(codePointBefore(s, newStart)))
                newStart -= utf16Length(codePointBefore(s, newStart));
            start = std::max(newStart, startOffset);
        }
        if (token.rstrip)
            while (stop < length && isWhitespace(codePointAt(s, stop)))
                stop += utf16Length(codePointAt(s, stop));
        if (startOffset < start)
            result.push_back({text.slice(startOffset, start), {}});
        result.push_back({text.slice(start, stop), token.id});
        startOffset = stop;
        pos = std::max(pos, stop);
    }
    if (startOffset != length)
        result.push_back({text.slice(startOffset, length), {}});
    return result;
}

void AddedVocabulary::extractAndNormalize(PreTokenizedString& text,
                                          const Normalizer* normalizer) const
{
    text.split([this](NormalizedString&& piece) { return splitWith(std::move(piece), m_raw); });
    text.split([this, normalizer](NormalizedString&& piece) {
        if (normalizer)
            normalizer->normalize(piece);
        return splitWith(std::move(piece), m_normalized);
    });
}

} // namespace attn::core::hf
