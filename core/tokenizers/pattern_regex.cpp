#include "core/tokenizers/pattern_regex.h"

namespace attn::core::hf {

namespace {

// Oniguruma's Unicode \s: U+0009-U+000D, U+0085 and the Z categories (Zs, Zl, Zp), which is
// the White_Space property. PCRE2's \s leaves out U+0085.
const QString kSpaceClass = QStringLiteral("\\t\\n\\x0B\\f\\r\\x{85}\\p{Z}");
// Oniguruma's Unicode \w: Letter, Mark, Decimal_Number, Connector_Punctuation. PCRE2 10.42's
// \w is L, N and the underscore.
const QString kWordClass = QStringLiteral("\\p{L}\\p{M}\\p{Nd}\\p{Pc}");
const QString kHexClass = QStringLiteral("0-9a-fA-F");

} // namespace

QString onigurumaToPcre(const QString& pattern)
{
    QString out;
    out.reserve(pattern.size() + 32);
    int classDepth = 0;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern.at(i);
        if (c == u'\\' && i + 1 < pattern.size()) {
            const QChar e = pattern.at(i + 1);
            ++i;
            const QString* cls = nullptr;
            bool negated = false;
            switch (e.unicode()) {
            case u's':
                cls = &kSpaceClass;
                break;
            case u'S':
                cls = &kSpaceClass;
                negated = true;
                break;
            case u'w':
                cls = &kWordClass;
                break;
            case u'W':
                cls = &kWordClass;
                negated = true;
                break;
            case u'h':
                cls = &kHexClass;
                break;
            case u'H':
                cls = &kHexClass;
                negated = true;
                break;
            default:
                break;
            }
            if (!cls) {
                out += c;
                out += e;
            } else if (classDepth == 0) {
                out += negated ? QStringLiteral("[^") : QStringLiteral("[");
                out += *cls;
                out += u']';
            } else if (!negated) {
                out += *cls;
            } else {
                // A negated class inside a class has no PCRE2 spelling; keep the escape.
                out += c;
                out += e;
            }
            continue;
        }
        if (c == u'[') {
            ++classDepth;
            out += c;
            // A ']' right after '[' or '[^' is a literal.
            if (i + 1 < pattern.size() && pattern.at(i + 1) == u'^') {
                out += u'^';
                ++i;
            }
            if (i + 1 < pattern.size() && pattern.at(i + 1) == u']') {
                out += u"\\]";
                ++i;
            }
            continue;
        }
        if (c == u']' && classDepth > 0)
            --classDepth;
        out += c;
    }
    return out;
}

PatternRegex PatternRegex::fromOniguruma(const QString& pattern)
{
    return fromPcre(onigurumaToPcre(pattern));
}

PatternRegex PatternRegex::fromPcre(const QString& pattern)
{
    PatternRegex result;
    result.m_regex = QRegularExpression(pattern, QRegularExpression::UseUnicodePropertiesOption |
                                                     QRegularExpression::MultilineOption);
    result.m_regex.optimize();
    return result;
}

PatternRegex PatternRegex::fromLiteral(const QString& text)
{
    PatternRegex result;
    // pattern.rs: an empty string pattern matches nothing.
    result.m_emptyLiteral = text.isEmpty();
    result.m_regex = QRegularExpression(QRegularExpression::escape(text));
    result.m_regex.optimize();
    return result;
}

QString PatternRegex::error() const
{
    return m_regex.isValid() ? QString() : m_regex.errorString();
}

std::vector<MatchSpan> PatternRegex::findMatches(const QString& text) const
{
    if (text.isEmpty())
        return {{0, 0, false}};
    if (m_emptyLiteral)
        return {{0, text.size(), false}};
    std::vector<MatchSpan> result;
    qsizetype previous = 0;
    QRegularExpressionMatchIterator it = m_regex.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        const qsizetype begin = match.capturedStart();
        const qsizetype end = match.capturedEnd();
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
