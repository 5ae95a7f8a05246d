#pragma once

#include <QString>

#include <cstdint>
#include <string>

// GPT-2's byte-level alphabet (tokenizers/src/pre_tokenizers/byte_level.rs, bytes_char): each
// byte is shown as a printable character, the printable ASCII and Latin-1 bytes as themselves
// and the rest as U+0100 onwards (the space as "Ġ", U+0120).
namespace attn::core::hf {

char32_t byteToChar(std::uint8_t byte);
// The byte a character of the alphabet stands for, or -1.
int charToByte(char32_t c);
// The bytes a byte-level piece stands for; false when a character is outside the alphabet.
bool fromByteLevel(const QString& piece, std::string& bytes);

} // namespace attn::core::hf
