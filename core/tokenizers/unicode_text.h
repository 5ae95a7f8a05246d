#pragma once

#include <QString>

#include <string>
#include <vector>

// Character properties and Unicode normalization with the per-character change counts that
// the Rust `tokenizers` library (through its `unicode-normalization-alignments` crate) uses to
// keep offsets: each output character comes with 0 (it replaces the next input character),
// 1 (it is inserted) or -N (it replaces the next input character and N more are removed).
namespace attn::core::hf {

struct CharChange
{
    char32_t c = 0;
    int change = 0;
};

// The code points of a QString (unpaired surrogates are kept as they are).
std::u32string toCodePoints(const QString& text);
void appendCodePoint(QString& text, char32_t c);
inline qsizetype utf16Length(char32_t c)
{
    return c > 0xFFFF ? 2 : 1;
}
// The code point starting at `index` (a surrogate pair read as one).
char32_t codePointAt(const QString& text, qsizetype index);
// The code point ending just before `index`.
char32_t codePointBefore(const QString& text, qsizetype index);

// Rust's char::is_whitespace: the Unicode White_Space property.
bool isWhitespace(char32_t c);
// Rust's char::is_numeric: general categories Nd, Nl, No.
bool isNumeric(char32_t c);
// unicode_categories' is_other: Cc, Cf, Cs, Co, Cn.
bool isOther(char32_t c);
bool isMarkNonspacing(char32_t c);
// General category M (Mn, Mc, Me): the crate's is_combining_mark.
bool isCombiningMark(char32_t c);
// ASCII punctuation (Rust's is_ascii_punctuation, symbols such as $ and + included) or any
// Unicode P* category: the BERT and Punctuation pre-tokenizers' test.
bool isBertPunctuation(char32_t c);
// Rust regex's \w: Alphabetic, M, Nd, Pc, Join_Control.
bool isRustWordChar(char32_t c);

// Rust's char::to_lowercase (the full mapping: U+0130 becomes "i\u0307").
void appendLowercase(std::vector<CharChange>& out, char32_t c);

enum class NormalizationForm { NFD, NFKD, NFC, NFKC };
// The normalized characters with their change counts, as the crate's nfd()/nfc()/... iterators
// yield them (canonical ordering and composition included).
std::vector<CharChange> normalizeWithChanges(const QString& text, NormalizationForm form);
// True when `text` cannot change under `form` (a fast path for ASCII and most Latin-1).
bool isTriviallyNormalized(const QString& text, NormalizationForm form);

// UTF-8 bytes to text, replacing each maximal invalid subsequence with U+FFFD as Rust's
// String::from_utf8_lossy does.
QString utf8Lossy(const std::string& bytes);
// Whether the bytes are valid UTF-8 (Rust's String::from_utf8 succeeds).
bool isValidUtf8(const std::string& bytes);

} // namespace attn::core::hf
