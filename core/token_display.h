#pragma once

#include <QString>

namespace attn::core {

// A token's text as every view shows it (chips, axes, predictions, exports): each character
// that a font draws as a box or as nothing (controls such as a tab or a newline, format
// characters such as U+200B, private-use characters) becomes its UTF-8 bytes written "<0x0A>",
// as SentencePiece names its byte tokens. Joiners between visible characters (the U+200D of
// an emoji sequence) stay. Idempotent.
QString tokenDisplayText(const QString& text);

// One byte as SentencePiece names a byte piece: 0x0A is "<0x0A>" (two upper-case hex digits).
QString byteTokenText(unsigned char byte);

} // namespace attn::core
