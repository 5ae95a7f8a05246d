#include "core/tokenizers/byte_level.h"

#include "core/tokenizers/unicode_text.h"

#include <array>

namespace attn::core::hf {

namespace {

struct Alphabet
{
    std::array<char32_t, 256> byteToChar{};
    std::array<int, 0x180> charToByte{};

    Alphabet()
    {
        charToByte.fill(-1);
        const auto printable = [](int b) {
            return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        };
        char32_t next = 256;
        for (int b = 0; b < 256; ++b)
            byteToChar[std::size_t(b)] = printable(b) ? char32_t(b) : next++;
        for (int b = 0; b < 256; ++b)
            charToByte[std::size_t(byteToChar[std::size_t(b)])] = b;
    }
};

const Alphabet& alphabet()
{
    static const Alphabet instance;
    return instance;
}

} // namespace

char32_t byteToChar(std::uint8_t byte)
{
    return alphabet().byteToChar[byte];
}

int charToByte(char32_t c)
{
    return c < 0x180 ? alphabet().charToByte[c] : -1;
}

bool fromByteLevel(const QString& piece, std::string& bytes)
{
    std::string result;
    for (qsizetype i = 0; i < piece.size(); ++i) {
        const int byte = charToByte(piece.at(i).unicode());
        if (byte < 0)
            return false;
        result.push_back(char(byte));
    }
    bytes += result;
    return true;
}

} // namespace attn::core::hf
