#include "matrix_io.h"

#include "matrix_io_detail.h"
#include "regular_file.h"
#include "safetensors_format.h"

#include <QFile>

#include <charconv>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <tuple>

namespace attn::core {

using matrix_io_detail::appendFloatsLittleEndian;
using matrix_io_detail::appendLittleEndian;
using matrix_io_detail::checkDataSize;
using matrix_io_detail::decodeElements;
using matrix_io_detail::fail;
using matrix_io_detail::matrixExtent;

namespace {

std::uint64_t loadLittleEndian(const char* p, int bytes)
{
    std::uint64_t value = 0;
    for (int k = bytes - 1; k >= 0; --k)
        value = (value << 8) | static_cast<unsigned char>(p[k]);
    return value;
}

// ---- .npy header: the Python dict literal numpy writes ------------------------------------

struct NpyHeader
{
    std::string descr;
    bool fortranOrder = false;
    std::vector<std::int64_t> shape;
};

// Parses {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } exactly as numpy
// writes it. Like numpy, it requires exactly these three keys.
class NpyHeaderParser
{
public:
    NpyHeaderParser(std::string_view text, const QString& name) : m_text(text), m_name(name) {}

    NpyHeader parse()
    {
        NpyHeader header;
        bool seenDescr = false, seenOrder = false, seenShape = false;
        expect('{');
        while (true) {
            skipSpace();
            if (peek() == '}')
                break;
            const std::string key = parseString();
            expect(':');
            if (key == "descr" && !seenDescr) {
                skipSpace();
                if (peek() != '\'' && peek() != '"')
                    malformed("'descr' is not a simple dtype string; structured arrays are not "
                              "supported");
                header.descr = parseString();
                seenDescr = true;
            } else if (key == "fortran_order" && !seenOrder) {
                header.fortranOrder = parseBool();
                seenOrder = true;
            } else if (key == "shape" && !seenShape) {
                header.shape = parseShape();
                seenShape = true;
            } else {
                malformed("unexpected or repeated key '" + key + "'");
            }
            skipSpace();
            if (peek() == ',')
                ++m_pos;
            else if (peek() != '}')
                malformed("expected ',' or '}' at offset " + std::to_string(m_pos));
        }
        ++m_pos;
        skipSpace();
        if (m_pos != m_text.size())
            malformed("unexpected text after the closing '}'");
        if (!seenDescr || !seenOrder || !seenShape)
            malformed("it needs 'descr', 'fortran_order' and 'shape'");
        return header;
    }

private:
    [[noreturn]] void malformed(const std::string& why) const
    {
        fail(m_name, "malformed .npy header (" + why + "): " + std::string(m_text.substr(0, 200)));
    }

    char peek() const { return m_pos < m_text.size() ? m_text[m_pos] : '\0'; }

    void skipSpace()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' ||
                                         m_text[m_pos] == '\n' || m_text[m_pos] == '\r'))
            ++m_pos;
    }

    void expect(char c)
    {
        skipSpace();
        if (peek() != c)
            malformed(std::string("expected '") + c + "' at offset " + std::to_string(m_pos));
        ++m_pos;
    }

    std::string parseString()
    {
        skipSpace();
        const char quote = peek();
        if (quote != '\'' && quote != '"')
            malformed("expected a quoted string at offset " + std::to_string(m_pos));
        const std::size_t end = m_text.find(quote, m_pos + 1);
        if (end == std::string_view::npos)
            malformed("unterminated string");
        std::string value(m_text.substr(m_pos + 1, end - m_pos - 1));
        m_pos = end + 1;
        return value;
    }

    bool parseBool()
    {
        skipSpace();
        for (const auto& [word, value] : {std::pair{std::string_view("True"), true},
                                          std::pair{std::string_view("False"), false}}) {
            if (m_text.substr(m_pos, word.size()) == word) {
                m_pos += word.size();
                return value;
            }
        }
        malformed("'fortran_order' must be True or False");
    }

    std::vector<std::int64_t> parseShape()
    {
        std::vector<std::int64_t> dims;
        expect('(');
        while (true) {
            skipSpace();
            if (peek() == ')')
                break;
            dims.push_back(parseDimension());
            skipSpace();
            if (peek() == ',')
                ++m_pos;
            else if (peek() != ')')
                malformed("expected ',' or ')' in the shape");
        }
        ++m_pos;
        return dims;
    }

    std::int64_t parseDimension()
    {
        const char* begin = m_text.data() + m_pos;
        const char* end = m_text.data() + m_text.size();
        std::int64_t value = 0;
        const auto [ptr, ec] = std::from_chars(begin, end, value);
        if (ec == std::errc::result_out_of_range)
            malformed("a dimension is larger than 2^63");
        if (ec != std::errc() || value < 0)
            malformed("a dimension is not a non-negative integer");
        m_pos += std::size_t(ptr - begin);
        if (peek() == 'L') // Python 2 long literals, as in old files
            ++m_pos;
        return value;
    }

    std::string_view m_text;
    const QString& m_name;
    std::size_t m_pos = 0;
};

} // namespace

// ---- .npy ----------------------------------------------------------------------------------

namespace {

// numpy itself refuses headers over 10,000 bytes unless told otherwise (max_header_size).
constexpr std::int64_t kMaxNpyHeaderBytes = std::int64_t(1) << 20;

// Where a .npy file's data lies and how to read it, from its first bytes alone.
struct NpyLayout
{
    ElementType type = ElementType::F32;
    bool bigEndian = false;
    bool fortranOrder = false;
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::int64_t dataStart = 0;
};

// The preamble's length in bytes (magic, version and header length): 10 or 12. `head` holds
// the file's first bytes (at least 12, if the file has them).
std::int64_t npyPreamble(const char* head, std::int64_t headSize, std::int64_t fileSize,
                         std::int64_t& headerLength, const QString& name)
{
    static constexpr char kMagic[] = "\x93NUMPY";
    if (headSize < 6 || std::memcmp(head, kMagic, 6) != 0)
        fail(name, "not a .npy file (the magic bytes \\x93NUMPY are missing)");
    if (headSize < 10)
        fail(name, "truncated .npy file (" + std::to_string(fileSize) + " bytes)");
    const int major = static_cast<unsigned char>(head[6]);
    const int minor = static_cast<unsigned char>(head[7]);
    if (major < 1 || major > 3 || minor != 0)
        fail(name, "unsupported .npy format version " + std::to_string(major) + "." +
                       std::to_string(minor) + " (expected 1.0, 2.0 or 3.0)");
    // Version 1.0 has a 2-byte header length; 2.0 and 3.0 (UTF-8 header) have 4 bytes.
    const int lengthBytes = major == 1 ? 2 : 4;
    if (headSize < 8 + lengthBytes)
        fail(name, "truncated .npy file (" + std::to_string(fileSize) + " bytes)");
    headerLength = std::int64_t(loadLittleEndian(head + 8, lengthBytes));
    if (8 + lengthBytes + headerLength > fileSize)
        fail(name, "truncated .npy file: the header claims " + std::to_string(headerLength) +
                       " bytes, the file has " + std::to_string(fileSize) + " in all");
    if (headerLength > kMaxNpyHeaderBytes)
        fail(name, "the .npy header claims " + std::to_string(headerLength) +
                       " bytes, more than the " + std::to_string(kMaxNpyHeaderBytes) + " allowed");
    return 8 + lengthBytes;
}

// Checks the header in `head` (preamble and header, at least) against the file's size and
// the limits, so that nothing is allocated for a shape that will be refused.
NpyLayout npyLayout(const char* head, std::int64_t headSize, std::int64_t fileSize,
                    const QString& name)
{
    std::int64_t headerLength = 0;
    const std::int64_t preamble = npyPreamble(head, headSize, fileSize, headerLength, name);
    const NpyHeader header =
        NpyHeaderParser(std::string_view(head + preamble, std::size_t(headerLength)), name).parse();

    // '<' little-endian, '>' big-endian; numpy always writes one of them for multi-byte types.
    const std::string& d = header.descr;
    if (d.size() != 3 || (d[0] != '<' && d[0] != '>') || d[1] != 'f' ||
        (d[2] != '4' && d[2] != '8'))
        fail(name, "unsupported dtype '" + d + "' (expected '<f4', '>f4', '<f8' or '>f8')");
    NpyLayout layout;
    layout.type = d[2] == '4' ? ElementType::F32 : ElementType::F64;
    layout.bigEndian = d[0] == '>';
    layout.fortranOrder = header.fortranOrder;
    layout.dataStart = preamble + headerLength;

    if (header.shape.empty())
        fail(name, "shape () is a scalar, not a matrix");
    std::tie(layout.rows, layout.cols) = matrixExtent(header.shape, name, {});
    checkDataSize(header.shape, layout.rows, layout.cols, itemSize(layout.type),
                  fileSize - layout.dataStart, name, {});
    return layout;
}

} // namespace

Matrix parseNpy(const QByteArray& bytes, const QString& nameForMessages)
{
    const NpyLayout layout =
        npyLayout(bytes.constData(), bytes.size(), bytes.size(), nameForMessages);
    return decodeElements(bytes.constData() + layout.dataStart, layout.type, layout.bigEndian,
                          layout.fortranOrder, layout.rows, layout.cols, nameForMessages);
}

// The header first, then the data: a shape that is refused costs a few bytes of reading, not
// the whole file (a 1 GB .npy of 16,385 x 16,384 floats is refused at once).
Matrix readNpy(const QString& path)
{
    // Any size: only what the header describes, checked against the file, is read.
    const std::unique_ptr<QFile> opened = openRegularFile(path, kAnySize);
    QFile& file = *opened;
    const std::int64_t fileSize = file.size();
    QByteArray head = file.read(12);
    std::int64_t headerLength = 0;
    const std::int64_t preamble =
        npyPreamble(head.constData(), head.size(), fileSize, headerLength, path);
    head.resize(preamble);
    if (file.seek(preamble))
        head.append(file.read(headerLength));
    if (head.size() != preamble + headerLength)
        fail(path, "cannot read the .npy header: " + file.errorString().toStdString());
    const NpyLayout layout = npyLayout(head.constData(), head.size(), fileSize, path);
    const std::int64_t dataBytes = layout.rows * layout.cols * itemSize(layout.type);
    const QByteArray data = file.read(dataBytes);
    if (data.size() != dataBytes)
        fail(path, "cannot read the data: " + file.errorString().toStdString());
    return decodeElements(data.constData(), layout.type, layout.bigEndian, layout.fortranOrder,
                          layout.rows, layout.cols, path);
}

QByteArray npyBytes(const Matrix& matrix)
{
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                        QByteArray::number(qint64(matrix.rows())) + ", " +
                        QByteArray::number(qint64(matrix.cols())) + "), }";
    // NEP 1: spaces and a final '\n' make magic + version + length + header a multiple of 64,
    // so the data that follows is aligned.
    const qsizetype unpadded = 10 + header.size() + 1;
    header.append(QByteArray((64 - unpadded % 64) % 64, ' '));
    header.append('\n');

    QByteArray out("\x93NUMPY\x01\x00", 8);
    appendLittleEndian(out, std::uint64_t(header.size()), 2);
    out.append(header);
    appendFloatsLittleEndian(out, matrix);
    return out;
}

} // namespace attn::core
