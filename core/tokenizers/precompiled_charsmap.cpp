#include "core/tokenizers/precompiled_charsmap.h"

#include "core/tokenizers/unicode_text.h"

#include <QtEndian>

namespace attn::core::hf {

namespace {

// darts-clone's DoubleArrayUnit (darts.h): bit 8 marks a key ending here, whose value is in
// the unit at the next position; the label is the low byte (with bit 31, which a leaf sets, so
// that no label matches a leaf); the offset to the children is shifted by 8 more when bit 9 is
// set.
bool hasLeaf(std::uint32_t unit)
{
    return (unit >> 8) & 1;
}
std::uint32_t value(std::uint32_t unit)
{
    return unit & ((1u << 31) - 1);
}
std::uint32_t label(std::uint32_t unit)
{
    return unit & ((1u << 31) | 0xFF);
}
std::uint32_t offset(std::uint32_t unit)
{
    return (unit >> 10) << ((unit & (1u << 9)) >> 6);
}

} // namespace

PrecompiledCharsmap::PrecompiledCharsmap(const QByteArray& blob, const JsonReader& file,
                                         const QString& path)
{
    const auto fail = [&](const std::string& problem) {
        file.fail(path, QStringLiteral("not a SentencePiece charsmap: ") +
                            QString::fromStdString(problem));
    };
    if (blob.size() < 4)
        fail(std::to_string(blob.size()) + " bytes, fewer than the 4 of the trie's size");
    const quint32 trieBytes = qFromLittleEndian<quint32>(blob.constData());
    if (trieBytes > quint64(blob.size() - 4))
        fail("the trie's size, " + std::to_string(trieBytes) + " bytes, is more than the " +
             std::to_string(blob.size() - 4) + " that follow");
    m_units.resize(trieBytes / 4);
    for (std::size_t i = 0; i < m_units.size(); ++i)
        m_units[i] = qFromLittleEndian<quint32>(blob.constData() + 4 + 4 * i);
    m_replacements = blob.mid(4 + qsizetype(trieBytes));
    if (!isValidUtf8(m_replacements.toStdString()))
        fail("its replacement strings are not UTF-8");
}

std::vector<std::uint32_t> PrecompiledCharsmap::prefixValues(const QByteArray& utf8) const
{
    std::vector<std::uint32_t> values;
    if (m_units.empty())
        return values;
    std::size_t position = offset(m_units[0]);
    for (const char byte : utf8) {
        const auto c = std::uint8_t(byte);
        if (c == 0)
            break;
        position ^= c;
        if (position >= m_units.size())
            break;
        const std::uint32_t unit = m_units[position];
        if (label(unit) != c)
            break;
        position ^= offset(unit);
        if (position >= m_units.size())
            break;
        if (hasLeaf(unit))
            values.push_back(value(m_units[position]));
    }
    return values;
}

QString PrecompiledCharsmap::replacementAt(std::uint32_t offset) const
{
    if (offset >= std::uint32_t(m_replacements.size()))
        return {};
    const qsizetype end = m_replacements.indexOf('\0', qsizetype(offset));
    return QString::fromUtf8(m_replacements.mid(
        qsizetype(offset), (end < 0 ? m_replacements.size() : end) - qsizetype(offset)));
}

std::optional<QString> PrecompiledCharsmap::shortestMatch(const QByteArray& utf8) const
{
    const std::vector<std::uint32_t> values = prefixValues(utf8);
    if (values.empty())
        return std::nullopt;
    return replacementAt(values.front());
}

} // namespace attn::core::hf
