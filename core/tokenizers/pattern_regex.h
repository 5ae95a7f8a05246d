#pragma once

#include "core/tokenizers/normalized_string.h"

#include <QRegularExpression>
#include <QString>

#include <memory>
#include <vector>

struct re_pattern_buffer; // Oniguruma's regex_t (oniguruma.h), kept out of this header

namespace attn::core::hf {

// A search pattern of tokenizer.json: a regular expression run by Oniguruma, the engine the
// `tokenizers` library runs them on (its SysRegex is the `onig` crate), or a literal string;
// or one of the library's own Rust `regex` patterns, run by PCRE2 (QRegularExpression).
// Immutable once built: one pattern can serve several threads (each search has its own
// region).
class PatternRegex
{
public:
    // Throws nothing: check error() (empty when the pattern compiled).
    static PatternRegex fromOniguruma(const QString& pattern);
    static PatternRegex fromLiteral(const QString& text);
    // A pattern of the library's own (Rust regex syntax, which PCRE2 reads the same way here).
    static PatternRegex fromPcre(const QString& pattern);

    QString error() const { return m_error; }
    // Matches and the gaps between them, covering the whole text (pattern.rs, find_matches).
    std::vector<MatchSpan> findMatches(const QString& text) const;

private:
    // [begin, end) of each match, left to right, not overlapping.
    std::vector<std::pair<qsizetype, qsizetype>> matchRanges(const QString& text) const;

    std::shared_ptr<re_pattern_buffer> m_oniguruma;
    QRegularExpression m_pcre;
    QString m_literal;
    bool m_isLiteral = false;
    QString m_error;
};

} // namespace attn::core::hf
