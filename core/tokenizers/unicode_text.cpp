#include "core/tokenizers/unicode_text.h"

#include <QChar>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>

namespace attn::core::hf {

std::u32string toCodePoints(const QString& text)
{
    std::u32string result;
    result.reserve(std::size_t(text.size()));
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char32_t c = codePointAt(text, i);
        result.push_back(c);
        if (c > 0xFFFF)
            ++i;
    }
    return result;
}

void appendCodePoint(QString& text, char32_t c)
{
    if (c > 0xFFFF) {
        text.append(QChar(QChar::highSurrogate(c)));
        text.append(QChar(QChar::lowSurrogate(c)));
    } else {
        text.append(QChar(char16_t(c)));
    }
}

char32_t codePointAt(const QString& text, qsizetype index)
{
    const char16_t unit = text.at(index).unicode();
    if (QChar::isHighSurrogate(unit) && index + 1 < text.size()) {
        const char16_t low = text.at(index + 1).unicode();
        if (QChar::isLowSurrogate(low))
            return QChar::surrogateToUcs4(unit, low);
    }
    return unit;
}

char32_t codePointBefore(const QString& text, qsizetype index)
{
    const char16_t unit = text.at(index - 1).unicode();
    if (QChar::isLowSurrogate(unit) && index >= 2) {
        const char16_t high = text.at(index - 2).unicode();
        if (QChar::isHighSurrogate(high))
            return QChar::surrogateToUcs4(high, unit);
    }
    return unit;
}

bool isWhitespace(char32_t c)
{
    // The White_Space property (PropList.txt), which Rust's char::is_whitespace implements.
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}

bool isNumeric(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Number_DecimalDigit:
    case QChar::Number_Letter:
    case QChar::Number_Other:
        return true;
    default:
        return false;
    }
}

bool isOther(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Other_Surrogate:
    case QChar::Other_PrivateUse:
    case QChar::Other_NotAssigned:
        return true;
    default:
        return false;
    }
}

bool isMarkNonspacing(char32_t c)
{
    return QChar::category(c) == QChar::Mark_NonSpacing;
}

bool isCombiningMark(char32_t c)
{
    switch (QChar::category(c)) {
    case QChar::Mark_NonSpacing:
    case QChar::Mark_SpacingCombining:
    case QChar::Mark_Enclosing:
        return true;
    default:
        return false;
    }
}

bool isBertPunctuation(char32_t c)
{
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) ||
        (c >= 123 && c <= 126))
        return true;
    switch (QChar::category(c)) {
    case QChar::Punctuation_Connector:
    case QChar::Punctuation_Dash:
    case QChar::Punctuation_Open:
    case QChar::Punctuation_Close:
    case QChar::Punctuation_InitialQuote:
    case QChar::Punctuation_FinalQuote:
    case QChar::Punctuation_Other:
        return true;
    default:
        return false;
    }
}

bool isRustWordChar(char32_t c)
{
    if (c == 0x200C || c == 0x200D) // Join_Control
        return true;
    // Other_Alphabetic symbols outside L and M: the circled and squared Latin letters.
    if ((c >= 0x24B6 && c <= 0x24E9) || (c >= 0x1F130 && c <= 0x1F149) ||
        (c >= 0x1F150 && c <= 0x1F169) || (c >= 0x1F170 && c <= 0x1F189))
        return true;
    switch (QChar::category(c)) {
    case QChar::Letter_Uppercase:
    case QChar::Letter_Lowercase:
    case QChar::Letter_Titlecase:
    case QChar::Letter_Modifier:
    case QChar::Letter_Other:
    case QChar::Mark_NonSpacing:
    case QChar::Mark_SpacingCombining:
    case QChar::Mark_Enclosing:
    case QChar::Number_DecimalDigit:
    case QChar::Number_Letter:
    case QChar::Punctuation_Connector:
        return true;
    default:
        return false;
    }
}

void appendLowercase(std::vector<CharChange>& out, char32_t c)
{
    // SpecialCasing.txt's only unconditional lowercase expansion.
    if (c == 0x130) {
        out.push_back({U'i', 0});
        out.push_back({0x307, 1});
        return;
    }
    out.push_back({QChar::toLower(c), 0});
}

namespace {

// Hangul syllables decompose and compose algorithmically (Unicode 15, section 3.12).
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr char32_t kLCount = 19, kVCount = 21, kTCount = 28;
constexpr char32_t kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

void decomposeFull(char32_t c, bool compatibility, std::u32string& out)
{
    if (c <= 0x7F) {
        out.push_back(c);
        return;
    }
    if (c >= kSBase && c < kSBase + kSCount) {
        const char32_t s = c - kSBase;
        out.push_back(kLBase + s / kNCount);
        out.push_back(kVBase + (s % kNCount) / kTCount);
        if (s % kTCount != 0)
            out.push_back(kTBase + s % kTCount);
        return;
    }
    const QChar::Decomposition tag = QChar::decompositionTag(c);
    if (tag == QChar::NoDecomposition || (!compatibility && tag != QChar::Canonical)) {
        out.push_back(c);
        return;
    }
    for (char32_t part : toCodePoints(QChar::decomposition(c)))
        decomposeFull(part, compatibility, out);
}

std::uint64_t pairKey(char32_t a, char32_t b)
{
    return (std::uint64_t(a) << 32) | b;
}

// Primary composites: canonical two-character decompositions that NFC keeps (composition
// exclusions, singletons and non-starter decompositions are not recomposed).
const std::unordered_map<std::uint64_t, char32_t>& compositionTable()
{
    static const std::unordered_map<std::uint64_t, char32_t> table = [] {
        std::unordered_map<std::uint64_t, char32_t> result;
        for (char32_t c = 0xC0; c <= 0x10FFFF; ++c) {
            if (c >= 0xD800 && c <= 0xDFFF)
                continue;
            if (c >= kSBase && c < kSBase + kSCount)
                continue;
            if (QChar::decompositionTag(c) != QChar::Canonical)
                continue;
            const std::u32string parts = toCodePoints(QChar::decomposition(c));
            if (parts.size() != 2)
                continue;
            const QString single = QString::fromUcs4(&c, 1);
            if (single.normalized(QString::NormalizationForm_C) != single)
                continue;
            result.emplace(pairKey(parts[0], parts[1]), c);
        }
        return result;
    }();
    return table;
}

std::optional<char32_t> compose(char32_t a, char32_t b)
{
    if (a >= kLBase && a < kLBase + kLCount && b >= kVBase && b < kVBase + kVCount)
        return kSBase + ((a - kLBase) * kVCount + (b - kVBase)) * kTCount;
    if (a >= kSBase && a < kSBase + kSCount && (a - kSBase) % kTCount == 0 && b > kTBase &&
        b < kTBase + kTCount)
        return a + (b - kTBase);
    const auto& table = compositionTable();
    const auto it = table.find(pairKey(a, b));
    if (it == table.end())
        return std::nullopt;
    return it->second;
}

int combiningClass(char32_t c)
{
    return c < 0x300 ? 0 : QChar::combiningClass(c);
}

// The crate's Decompositions iterator: each character's full decomposition (the first part
// replaces it, the rest are inserted), then canonical ordering of every run of non-starters
// by a stable sort on the combining class.
std::vector<CharChange> decompose(const std::u32string& input, bool compatibility)
{
    struct Item
    {
        int ccc;
        CharChange change;
    };
    std::vector<Item> items;
    items.reserve(input.size());
    std::u32string parts;
    for (char32_t c : input) {
        parts.clear();
        decomposeFull(c, compatibility, parts);
        for (std::size_t i = 0; i < parts.size(); ++i)
            items.push_back({combiningClass(parts[i]), {parts[i], i == 0 ? 0 : 1}});
    }
    std::size_t segment = 0;
    const auto sortSegment = [&](std::size_t end) {
        std::stable_sort(items.begin() + std::ptrdiff_t(segment),
                         items.begin() + std::ptrdiff_t(end),
                         [](const Item& a, const Item& b) { return a.ccc < b.ccc; });
        segment = end;
    };
    for (std::size_t i = 0; i < items.size(); ++i)
        if (items[i].ccc == 0)
            sortSegment(i);
    sortSegment(items.size());
    std::vector<CharChange> result;
    result.reserve(items.size());
    for (const Item& item : items)
        result.push_back(item.change);
    return result;
}

// The crate's Recompositions iterator, step for step: a composed character's change is the
// starter's change plus the mark's minus one, so "e" + U+0301 composed to "é" keeps the
// alignment of the "e" alone.
std::vector<CharChange> recompose(const std::vector<CharChange>& decomposed)
{
    std::vector<CharChange> out;
    out.reserve(decomposed.size());
    std::vector<CharChange> buffer;
    std::optional<CharChange> composee;
    // The combining class of the last character held back, kNone while none is (classes are
    // 0..254; an int rather than std::optional, which GCC's -O1 flags as maybe uninitialized).
    constexpr int kNone = -1;
    int lastCcc = kNone;
    for (const CharChange& item : decomposed) {
        const int cls = combiningClass(item.c);
        if (!composee) {
            if (cls != 0) {
                out.push_back(item);
                continue;
            }
            composee = item;
            continue;
        }
        const CharChange k = *composee;
        if (lastCcc == kNone) {
            if (const auto r = compose(k.c, item.c)) {
                composee = CharChange{*r, k.change + item.change - 1};
                continue;
            }
            if (cls == 0) {
                composee = item;
                out.push_back(k);
                continue;
            }
            buffer.push_back(item);
            lastCcc = cls;
            continue;
        }
        if (lastCcc >= cls) {
            if (cls == 0) {
                composee = item;
                lastCcc = kNone;
                out.push_back(k);
                out.insert(out.end(), buffer.begin(), buffer.end());
                buffer.clear();
                continue;
            }
            buffer.push_back(item);
            lastCcc = cls;
            continue;
        }
        if (const auto r = compose(k.c, item.c)) {
            composee = CharChange{*r, k.change + item.change - 1};
            continue;
        }
        buffer.push_back(item);
        lastCcc = cls;
    }
    if (composee)
        out.push_back(*composee);
    out.insert(out.end(), buffer.begin(), buffer.end());
    return out;
}

} // namespace

bool isTriviallyNormalized(const QString& text, NormalizationForm form)
{
    // Below U+00C0 nothing decomposes canonically, and below U+00A0 nothing decomposes at all;
    // none of those characters composes with its neighbour either.
    const char16_t limit =
        (form == NormalizationForm::NFD || form == NormalizationForm::NFC) ? 0xC0 : 0xA0;
    return std::all_of(text.begin(), text.end(), [limit](QChar c) { return c.unicode() < limit; });
}

std::vector<CharChange> normalizeWithChanges(const QString& text, NormalizationForm form)
{
    const bool compatibility = form == NormalizationForm::NFKD || form == NormalizationForm::NFKC;
    std::vector<CharChange> decomposed = decompose(toCodePoints(text), compatibility);
    if (form == NormalizationForm::NFD || form == NormalizationForm::NFKD)
        return decomposed;
    return recompose(decomposed);
}

namespace {

// Length of the valid UTF-8 prefix of the sequence starting at `i` (Unicode Table 3-7), and
// whether it is a complete character.
std::pair<std::size_t, bool> utf8Sequence(const std::string& bytes, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80)
        return {1, true};
    std::size_t need = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        need = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        need = 2;
        if (lead == 0xE0)
            low = 0xA0;
        if (lead == 0xED)
            high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        need = 3;
        if (lead == 0xF0)
            low = 0x90;
        if (lead == 0xF4)
            high = 0x8F;
    } else {
        return {1, false};
    }
    std::size_t length = 1;
    for (std::size_t k = 0; k < need; ++k) {
        if (i + length >= bytes.size())
            return {length, false};
        const unsigned char b = byte(i + length);
        if (b < low || b > high)
            return {length, false};
        low = 0x80;
        high = 0xBF;
        ++length;
    }
    return {length, true};
}

} // namespace

QString utf8Lossy(const std::string& bytes)
{
    QString result;
    result.reserve(qsizetype(bytes.size()));
    std::size_t i = 0;
    while (i < bytes.size()) {
        const auto [length, complete] = utf8Sequence(bytes, i);
        if (complete)
            result += QString::fromUtf8(bytes.data() + i, qsizetype(length));
        else
            result += QChar(0xFFFD);
        i += length;
    }
    return result;
}

bool isValidUtf8(const std::string& bytes)
{
    std::size_t i = 0;
    while (i < bytes.size()) {
        const auto [length, complete] = utf8Sequence(bytes, i);
        if (!complete)
            return false;
        i += length;
    }
    return true;
}

} // namespace attn::core::hf
