#pragma once

#include "core/tokenizers/unicode_text.h"

#include <QString>

#include <functional>
#include <vector>

namespace attn::core::hf {

// A span [begin, end) of the input text, in UTF-16 code units.
struct Alignment
{
    qsizetype begin = 0;
    qsizetype end = 0;
};

// One piece of a pattern search: a match, or the text between two matches.
struct MatchSpan
{
    qsizetype begin = 0;
    qsizetype end = 0;
    bool isMatch = false;
};

// What a split does with the matched delimiters (tokenizers' SplitDelimiterBehavior).
enum class SplitBehavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

// Text being normalized, with the span of the input every code unit came from: the
// library's NormalizedString (tokenizers/src/tokenizer/normalizer.rs), kept per UTF-16 unit
// instead of per UTF-8 byte, with spans absolute in the input instead of relative to a slice.
// Both units of a surrogate pair carry the same span, as every byte of a UTF-8 character does
// there, so offsets come out the same.
class NormalizedString
{
public:
    explicit NormalizedString(const QString& input);

    const QString& get() const { return m_normalized; }
    bool isEmpty() const { return m_normalized.isEmpty(); }
    qsizetype size() const { return m_normalized.size(); }
    // The input span this string covers (offsets_original).
    qsizetype originalBegin() const { return m_originalBegin; }
    qsizetype originalEnd() const { return m_originalEnd; }
    // The input span of the normalized range [begin, end): the first unit's start to the last
    // unit's end (expand_alignments).
    Alignment originalSpan(qsizetype begin, qsizetype end) const;

    NormalizedString slice(qsizetype begin, qsizetype end) const;

    // Replaces the whole string by `dest` (see CharChange), skipping `initialRemoved` leading
    // characters first; the library's transform_range.
    void transform(const std::vector<CharChange>& dest, qsizetype initialRemoved);
    void prepend(const QString& text);
    void replace(const std::vector<MatchSpan>& matches, const QString& content);
    void filter(const std::function<bool(char32_t)>& keep);
    void map(const std::function<char32_t(char32_t)>& mapping);
    void lowercase();
    void normalize(NormalizationForm form);
    void strip(bool left, bool right);

    // The pieces the matches cut this string into (empty pieces included; callers drop them).
    std::vector<NormalizedString> split(const std::vector<MatchSpan>& matches,
                                        SplitBehavior behavior) const;

private:
    NormalizedString() = default;

    QString m_normalized;
    std::vector<Alignment> m_alignments; // one per UTF-16 unit of m_normalized
    qsizetype m_originalBegin = 0;
    qsizetype m_originalEnd = 0;
};

// Pattern searches over a normalized string, each covering the whole string with matches and
// the gaps between them (tokenizers/src/tokenizer/pattern.rs).
std::vector<MatchSpan> matchEachChar(const QString& text,
                                     const std::function<bool(char32_t)>& test);
void invertMatches(std::vector<MatchSpan>& matches);

} // namespace attn::core::hf
