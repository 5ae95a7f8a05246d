#pragma once

#include "core/tokenizers/normalized_string.h"

#include <QRegularExpression>
#include <QString>

#include <optional>
#include <vector>

namespace attn::core::hf {

// A search pattern of tokenizer.json: a regular expression written for Oniguruma (the
// library's SysRegex), or a literal string. QRegularExpression is PCRE2 on UTF-16; the
// classes whose meaning differs between the engines are rewritten to Oniguruma's Unicode
// definitions (\s is White_Space with U+0085, \w is L, M, Nd and Pc, \h is a hex digit), and
// ^ and $ match at line breaks as in Oniguruma's Ruby syntax.
class PatternRegex
{
public:
    // Throws nothing: check error() (empty when the pattern compiled).
    static PatternRegex fromOniguruma(const QString& pattern);
    static PatternRegex fromLiteral(const QString& text);
    // A pattern already in PCRE2 syntax (the library's own Rust-regex patterns).
    static PatternRegex fromPcre(const QString& pattern);

    QString error() const;
    // Matches and the gaps between them, covering the whole text (pattern.rs, find_matches).
    std::vector<MatchSpan> findMatches(const QString& text) const;

private:
    QRegularExpression m_regex;
    bool m_emptyLiteral = false;
};

// The Oniguruma pattern rewritten for PCRE2 (exposed for the tests).
QString onigurumaToPcre(const QString& pattern);

} // namespace attn::core::hf
