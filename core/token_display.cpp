#include "core/token_display.h"

#include <QList>
#include <algorithm>

namespace attn::core {

QString tokenDisplayText(const QString& text)
{
    const QList<uint> characters = text.toUcs4(); // a lone surrogate comes out as U+FFFD
    const auto drawsNothing = [](uint c) {
        switch (QChar::category(char32_t(c))) {
        case QChar::Other_Control:
        case QChar::Other_Format:
        case QChar::Other_PrivateUse:
            return true;
        default:
            return false;
        }
    };
    if (std::none_of(characters.begin(), characters.end(), drawsNothing))
        return text;
    const auto visible = [&](qsizetype i) {
        return i >= 0 && i < characters.size() && !drawsNothing(characters[i]) &&
               !QChar::isSpace(char32_t(characters[i]));
    };
    QString shown;
    for (qsizetype i = 0; i < characters.size(); ++i) {
        const char32_t c = char32_t(characters[i]);
        const QString character = QString::fromUcs4(&c, 1);
        const bool joiner = c == 0x200C || c == 0x200D;
        if (!drawsNothing(c) || (joiner && visible(i - 1) && visible(i + 1))) {
            shown += character;
            continue;
        }
        for (const char byte : character.toUtf8())
            shown += byteTokenText(static_cast<unsigned char>(byte));
    }
    return shown;
}

QString byteTokenText(unsigned char byte)
{
    return QStringLiteral("<0x%1>").arg(
        QString::number(uint(byte), 16).toUpper().rightJustified(2, u'0'));
}

} // namespace attn::core
