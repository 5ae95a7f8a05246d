#include "matrix_io.h"

#include "atomic_file.h"
#include "error.h"
#include "limits.h"
#include "regular_file.h"
#include "safetensors_format.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <tuple>

namespace attn::core {

namespace {

// Float64 data at the element limit, plus room for any sane header.
constexpr qint64 kMaxFileBytes = kMaxMatrixElements * qint64(sizeof(double)) + (qint64(1) << 20);

[[noreturn]] void fail(const QString& name, const std::string& what)
{
    throw Error(name.toStdString() + ": " + what);
}

std::string shapeText(const std::vector<std::int64_t>& dims)
{
    std::string text = "(";
    for (std::size_t k = 0; k < dims.size(); ++k)
        text += (k ? ", " : "") + std::to_string(dims[k]);
    return text + (dims.size() == 1 ? ",)" : ")");
}

std::optional<std::int64_t> checkedMultiply(std::int64_t a, std::int64_t b)
{
    std::int64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product))
        return std::nullopt;
    return product;
}

// The size rules every format shares; nothing big may be allocated before this passes.
std::int64_t checkedElementCount(std::int64_t rows, std::int64_t cols, const QString& name,
                                 const std::string& what = {})
{
    if (rows <= 0 || cols <= 0)
        fail(name,
             what + "empty matrix (" + std::to_string(rows) + "x" + std::to_string(cols) + ")");
    const std::optional<std::int64_t> count = checkedMultiply(rows, cols);
    if (!count || *count > kMaxMatrixElements)
        fail(name, what + std::to_string(rows) + "x" + std::to_string(cols) + " is more than the " +
                       std::to_string(kMaxMatrixElements) + " elements allowed");
    return *count;
}

// For binary formats: the declared shape against the bytes actually present. The mismatch is
// reported first because a corrupt or truncated file is the likelier cause than a huge one.
void checkDataSize(const std::vector<std::int64_t>& dims, std::int64_t rows, std::int64_t cols,
                   int itemSize, std::int64_t bytesPresent, const QString& name,
                   const std::string& what)
{
    const std::optional<std::int64_t> count = checkedMultiply(rows, cols);
    const std::optional<std::int64_t> bytes =
        count ? checkedMultiply(*count, itemSize) : std::nullopt;
    if (rows > 0 && cols > 0 && (!bytes || *bytes != bytesPresent)) // empty: reported below
        fail(name, what + "shape " + shapeText(dims) + " claims " +
                       (count ? std::to_string(*count) : std::string("more than 2^63")) +
                       " elements, the file holds " + std::to_string(bytesPresent) +
                       " bytes of data" +
                       (count && bytes ? " (expected " + std::to_string(*bytes) + ")" : ""));
    checkedElementCount(rows, cols, name, what);
}

// Rank 1 is one row; rank 0 and rank > 2 are refused.
std::pair<std::int64_t, std::int64_t> matrixExtent(const std::vector<std::int64_t>& dims,
                                                   const QString& name, const std::string& what)
{
    if (dims.size() == 1)
        return {1, dims[0]};
    if (dims.size() == 2)
        return {dims[0], dims[1]};
    fail(name, what + "shape " + shapeText(dims) + " is not a matrix (expected 1 or 2 dimensions)");
}

// ---- Element decoding: .npy's byte orders and Fortran order; the rest in safetensors_format --

template <typename Bits> Bits loadBits(const char* p, bool bigEndian)
{
    Bits bits;
    std::memcpy(&bits, p, sizeof bits);
    if (bigEndian != (std::endian::native == std::endian::big)) {
        if constexpr (sizeof(Bits) == 2)
            bits = __builtin_bswap16(bits);
        else if constexpr (sizeof(Bits) == 4)
            bits = __builtin_bswap32(bits);
        else
            bits = __builtin_bswap64(bits);
    }
    return bits;
}

template <ElementType Type> float loadElement(const char* p, bool bigEndian, bool& outOfRange)
{
    static_assert(Type == ElementType::F32 || Type == ElementType::F64);
    if constexpr (Type == ElementType::F32) {
        return std::bit_cast<float>(loadBits<std::uint32_t>(p, bigEndian));
    } else {
        // NaN and inf pass through; finite values beyond float32 would silently become inf.
        const double value = std::bit_cast<double>(loadBits<std::uint64_t>(p, bigEndian));
        outOfRange =
            std::isfinite(value) && std::abs(value) > double(std::numeric_limits<float>::max());
        return outOfRange ? 0.0f : float(value);
    }
}

// `data` must hold rows*cols elements (checked by the caller). Column-major data
// (numpy fortran_order) is transposed into our row-major layout.
template <ElementType Type>
Matrix decodeTyped(const char* data, bool bigEndian, bool columnMajor, Eigen::Index rows,
                   Eigen::Index cols, const QString& name)
{
    constexpr int size = itemSize(Type);
    Matrix matrix(rows, cols);
    bool outOfRange = false;
    for (Eigen::Index i = 0; i < rows; ++i) {
        for (Eigen::Index j = 0; j < cols; ++j) {
            const Eigen::Index k = columnMajor ? j * rows + i : i * cols + j;
            matrix(i, j) = loadElement<Type>(data + k * size, bigEndian, outOfRange);
            if (outOfRange)
                fail(name, "value out of float32 range at (" + std::to_string(i) + ", " +
                               std::to_string(j) + ")");
        }
    }
    return matrix;
}

Matrix decodeElements(const char* data, ElementType type, bool bigEndian, bool columnMajor,
                      Eigen::Index rows, Eigen::Index cols, const QString& name)
{
    if (type == ElementType::F64)
        return decodeTyped<ElementType::F64>(data, bigEndian, columnMajor, rows, cols, name);
    if (!bigEndian && !columnMajor) { // safetensors, and most .npy files: the vectorised path
        Matrix matrix(rows, cols);
        decodeLittleEndian(data, type, rows * cols, matrix.data());
        return matrix;
    }
    // .npy only has F32 and F64; F16 and BF16 come from safetensors, little-endian row-major.
    return decodeTyped<ElementType::F32>(data, bigEndian, columnMajor, rows, cols, name);
}

// Little-endian float32, whatever the host.
void appendFloatsLittleEndian(QByteArray& out, const Matrix& matrix)
{
    const qsizetype start = out.size();
    out.resize(start + qsizetype(matrix.size()) * 4);
    char* p = out.data() + start;
    for (Eigen::Index k = 0; k < matrix.size(); ++k, p += 4) {
        std::uint32_t bits = std::bit_cast<std::uint32_t>(matrix.data()[k]);
        if constexpr (std::endian::native == std::endian::big)
            bits = __builtin_bswap32(bits);
        std::memcpy(p, &bits, 4);
    }
}

std::uint64_t loadLittleEndian(const char* p, int bytes)
{
    std::uint64_t value = 0;
    for (int k = bytes - 1; k >= 0; --k)
        value = (value << 8) | static_cast<unsigned char>(p[k]);
    return value;
}

void appendLittleEndian(QByteArray& out, std::uint64_t value, int bytes)
{
    for (int k = 0; k < bytes; ++k)
        out.append(char((value >> (8 * k)) & 0xffu));
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

// ---- CSV ---------------------------------------------------------------------------------

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

enum class NumberStatus { Ok, NotANumber, OutOfRange };

// Roughly log10 |x| of a decimal number, from the text alone: enough to tell an overflow
// (> 0) from an underflow (<= 0), which from_chars reports alike, even beyond double range.
double decimalOrder(std::string_view number)
{
    if (!number.empty() && (number.front() == '-' || number.front() == '+'))
        number.remove_prefix(1);
    const std::size_t e = number.find_first_of("eE");
    const std::string_view mantissa = number.substr(0, e);
    double exponent = 0.0;
    if (e != std::string_view::npos) {
        std::string_view digits = number.substr(e + 1);
        const bool negative = digits.starts_with('-');
        if (digits.starts_with('-') || digits.starts_with('+'))
            digits.remove_prefix(1);
        std::int64_t magnitude = 0;
        const auto ec = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude).ec;
        exponent = ec == std::errc::result_out_of_range ? 1e300 : double(magnitude);
        exponent = negative ? -exponent : exponent;
    }
    const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
    const std::size_t firstDigit = mantissa.find_first_not_of("0.");
    if (firstDigit == std::string_view::npos)
        return -1e300; // zero
    const double order =
        firstDigit < point ? double(point - firstDigit) : -double(firstDigit - point - 1);
    return order + exponent;
}

// One field as float32, rounded once from the decimal text (parsing as double first
// would round twice and could break the float32 round trip).
NumberStatus parseFloat(std::string_view field, float& value)
{
    if (field.size() > 1 && field.front() == '+' && field[1] != '-' && field[1] != '+')
        field.remove_prefix(1); // from_chars refuses a leading '+'
    const char* end = field.data() + field.size();
    auto [ptr, ec] = std::from_chars(field.data(), end, value);
    if (ptr != end || field.empty())
        return NumberStatus::NotANumber;
    if (ec == std::errc::result_out_of_range) {
        // from_chars reports underflow too: that is a signed zero, not an error.
        if (decimalOrder(field) > 0)
            return NumberStatus::OutOfRange;
        value = field.front() == '-' ? -0.0f : 0.0f;
    } else if (ec != std::errc()) {
        return NumberStatus::NotANumber;
    }
    return NumberStatus::Ok;
}

// What the element limit needs to know of a CSV text, found without parsing a number or
// keeping a line: the columns of its first non-blank line, whether that line is a header, and
// how many non-blank lines there are. Fed in pieces, so that a file is checked before it is
// read whole (a 537 MB file of 16,385 x 16,384 numbers is refused in a second, in 4 MB).
class CsvShapeScan
{
public:
    void feed(std::string_view piece)
    {
        if (!m_started) {
            m_started = true;
            if (piece.starts_with("\xEF\xBB\xBF"))
                piece.remove_prefix(3);
        }
        while (!piece.empty()) {
            const std::size_t newline = piece.find('\n');
            const std::string_view line = piece.substr(0, newline);
            if (!m_content && line.find_first_not_of(" \t\r") != std::string_view::npos)
                m_content = true;
            if (m_content && !m_firstDone) {
                m_firstCommas += std::count(line.begin(), line.end(), ',');
                m_first.append(line.substr(
                    0, std::min(line.size(), kKeptBytes - std::min(kKeptBytes, m_first.size()))));
            }
            if (newline == std::string_view::npos)
                return;
            endLine();
            piece.remove_prefix(newline + 1);
        }
    }

    // Throws when the rows and columns are more than kMaxMatrixElements allows.
    void check(const QString& name)
    {
        if (m_content)
            endLine();
        const std::int64_t rows = m_lines - (m_header ? 1 : 0);
        if (rows > 0)
            checkedElementCount(rows, m_firstCommas + 1, name);
    }

    std::int64_t reserve() const { return (m_lines - (m_header ? 1 : 0)) * (m_firstCommas + 1); }

private:
    static constexpr std::size_t kKeptBytes = std::size_t(1) << 20;

    void endLine()
    {
        if (m_content && !m_firstDone) {
            m_firstDone = true;
            m_header = isHeader();
        }
        m_lines += m_content;
        m_content = false;
    }

    // As parseCsv decides: no field of the line is a number. Of a line longer than what is
    // kept, the fields kept decide (the last of them may be cut short, so it is left out).
    bool isHeader() const
    {
        std::string_view rest = m_first;
        const bool cut = m_first.size() == kKeptBytes;
        while (true) {
            const std::size_t comma = rest.find(',');
            if (comma == std::string_view::npos && cut)
                return true;
            float value = 0.0f;
            if (parseFloat(trimmed(rest.substr(0, comma)), value) != NumberStatus::NotANumber)
                return false;
            if (comma == std::string_view::npos)
                return true;
            rest.remove_prefix(comma + 1);
        }
    }

    bool m_started = false;
    bool m_content = false; // the current line has something besides spaces
    bool m_firstDone = false;
    bool m_header = false;
    std::string m_first;
    std::int64_t m_firstCommas = 0;
    std::int64_t m_lines = 0; // non-blank lines ended
};

// ---- safetensors -------------------------------------------------------------------------

using TensorEntry = SafetensorsEntry;

std::string nameList(const std::vector<TensorEntry>& tensors)
{
    constexpr std::size_t kShown = 20; // model files can hold hundreds
    std::string list;
    for (std::size_t k = 0; k < tensors.size() && k < kShown; ++k)
        list += (k ? ", " : "") + tensors[k].name;
    if (tensors.size() > kShown)
        list += " and " + std::to_string(tensors.size() - kShown) + " more";
    return list;
}

const TensorEntry& pickTensor(const std::vector<TensorEntry>& tensors,
                              const std::string& tensorName, const QString& name)
{
    if (tensors.empty())
        fail(name, "the file holds no tensors");
    if (tensorName.empty()) {
        if (tensors.size() > 1)
            fail(name, "the file holds " + std::to_string(tensors.size()) +
                           " tensors, choose one of: " + nameList(tensors));
        return tensors.front();
    }
    for (const TensorEntry& entry : tensors) {
        if (entry.name == tensorName)
            return entry;
    }
    fail(name, "no tensor '" + tensorName + "'; the file holds: " + nameList(tensors));
}

// Checks dtype, rank and size of one tensor; returns its element type and extent.
std::tuple<ElementType, std::int64_t, std::int64_t> checkTensor(const TensorEntry& entry,
                                                                const QString& name)
{
    const std::string what = "tensor '" + entry.name + "': ";
    const std::optional<ElementType> type = floatElementType(entry.dtype);
    if (!type)
        fail(name,
             what + "unsupported dtype '" + entry.dtype + "' (expected F32, F64, F16 or BF16)");
    const auto [rows, cols] = matrixExtent(entry.shape, name, what);
    checkDataSize(entry.shape, rows, cols, itemSize(*type), entry.end - entry.begin, name, what);
    return {*type, rows, cols};
}

Matrix decodeTensor(const TensorEntry& entry, const char* data, const QString& name)
{
    const auto [type, rows, cols] = checkTensor(entry, name);
    return decodeElements(data, type, false, false, rows, cols, name);
}

enum class Format { Npy, Csv, Safetensors };

Format formatOf(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("npy"))
        return Format::Npy;
    if (suffix == QLatin1String("csv"))
        return Format::Csv;
    if (suffix == QLatin1String("safetensors"))
        return Format::Safetensors;
    fail(path, "unknown matrix format '." + suffix.toStdString() +
                   "' (expected .npy, .csv or .safetensors)");
}

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

// ---- CSV -----------------------------------------------------------------------------------

// Fields are separated by commas, with optional spaces or tabs around them; semicolons and
// tabs as separators, quoted fields and row labels are not accepted (they would make a
// mistyped file read as something else). A UTF-8 byte order mark (Excel) is skipped.
// Blank lines may only trail the data. NaN and inf are read (validation rejects them later).
Matrix parseCsv(const QByteArray& text, const QString& nameForMessages)
{
    const QString& name = nameForMessages;
    std::string_view rest(text.constData(), std::size_t(text.size()));
    CsvShapeScan shape;
    shape.feed(rest);
    shape.check(name); // before a number is parsed or stored
    if (rest.starts_with("\xEF\xBB\xBF"))
        rest.remove_prefix(3);

    std::vector<float> values;
    values.reserve(std::size_t(std::max<std::int64_t>(0, shape.reserve())));
    std::int64_t rows = 0, cols = 0;
    std::int64_t firstBlankLine = 0;
    std::int64_t firstLine = 0;
    std::string_view header;
    for (std::int64_t lineNumber = 1; !rest.empty(); ++lineNumber) {
        const std::size_t newline = rest.find('\n');
        const std::string_view line = trimmed(rest.substr(0, newline));
        rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);
        if (line.empty()) {
            if (firstLine && !firstBlankLine) // leading blank lines are harmless
                firstBlankLine = lineNumber;
            continue;
        }
        if (firstBlankLine)
            fail(name,
                 "line " + std::to_string(firstBlankLine) + " is blank but more data follows");
        if (!firstLine)
            firstLine = lineNumber;

        std::vector<std::pair<std::string_view, NumberStatus>> fields;
        std::vector<float> rowValues;
        for (std::string_view fieldsLeft = line;;) {
            const std::size_t comma = fieldsLeft.find(',');
            const std::string_view field = trimmed(fieldsLeft.substr(0, comma));
            float value = 0.0f;
            fields.emplace_back(field, parseFloat(field, value));
            rowValues.push_back(value);
            if (comma == std::string_view::npos)
                break;
            fieldsLeft.remove_prefix(comma + 1);
        }
        // The first line is a header when none of its fields is a number.
        if (lineNumber == firstLine && std::all_of(fields.begin(), fields.end(), [](const auto& f) {
                return f.second == NumberStatus::NotANumber;
            })) {
            header = line.substr(0, 40);
            continue;
        }
        for (std::size_t c = 0; c < fields.size(); ++c) {
            if (fields[c].second == NumberStatus::Ok)
                continue;
            // Built with append: GCC 12 misreads `"'" + std::string(...)` here as an
            // overlapping memcpy (-Wrestrict, a known false positive).
            std::string what =
                "line " + std::to_string(lineNumber) + ", column " + std::to_string(c + 1) + ": ";
            if (fields[c].second == NumberStatus::OutOfRange)
                what.append("value '").append(fields[c].first).append("' is out of float32 range");
            else
                what.append("'").append(fields[c].first.substr(0, 40)).append("' is not a number");
            fail(name, what);
        }
        if (rows == 0)
            cols = std::int64_t(fields.size());
        else if (std::int64_t(fields.size()) != cols)
            fail(name, "line " + std::to_string(lineNumber) + " has " +
                           std::to_string(fields.size()) + " columns, the rows above have " +
                           std::to_string(cols));
        ++rows;
        checkedElementCount(rows, cols, name); // stop early on a huge file
        values.insert(values.end(), rowValues.begin(), rowValues.end());
    }
    if (rows == 0)
        fail(name, header.empty() ? std::string("empty matrix (no rows of numbers)")
                                  : "empty matrix: its only line, '" + std::string(header) +
                                        "', was taken for a header as no field is a number");
    return Eigen::Map<const Matrix>(values.data(), rows, cols);
}

Matrix readCsv(const QString& path)
{
    const std::unique_ptr<QFile> file = openRegularFile(path, kMaxFileBytes);
    // The shape first, in pieces: a matrix too large is refused before the file is read whole.
    CsvShapeScan shape;
    QByteArray piece(qsizetype(4) << 20, Qt::Uninitialized);
    for (qint64 got; (got = file->read(piece.data(), piece.size())) > 0;)
        shape.feed(std::string_view(piece.constData(), std::size_t(got)));
    shape.check(path);
    QByteArray bytes;
    if (file->seek(0))
        bytes = file->readAll();
    if (file->error() != QFileDevice::NoError)
        throw Error("cannot read " + path.toStdString() + ": " + file->errorString().toStdString());
    return parseCsv(bytes, path);
}

QByteArray csvBytes(const Matrix& matrix)
{
    QByteArray out;
    char buffer[32];
    for (Eigen::Index i = 0; i < matrix.rows(); ++i) {
        for (Eigen::Index j = 0; j < matrix.cols(); ++j) {
            if (j)
                out.append(',');
            // Shortest text that reads back as the same float32.
            const auto result = std::to_chars(buffer, buffer + sizeof buffer, matrix(i, j));
            out.append(buffer, result.ptr - buffer);
        }
        out.append('\n');
    }
    return out;
}

// ---- safetensors ---------------------------------------------------------------------------

Matrix parseSafetensors(const QByteArray& bytes, const std::string& tensorName,
                        const QString& nameForMessages)
{
    const QString& name = nameForMessages;
    if (bytes.size() < 8)
        fail(name, "too short for a safetensors file (" + std::to_string(bytes.size()) + " bytes)");
    const std::int64_t headerLength =
        safetensorsHeaderLength(bytes.constData(), bytes.size(), name);
    const std::int64_t dataStart = 8 + headerLength;
    const std::vector<TensorEntry> tensors =
        parseSafetensorsHeader(bytes.mid(8, headerLength), bytes.size() - dataStart, name);
    const TensorEntry& entry = pickTensor(tensors, tensorName, name);
    return decodeTensor(entry, bytes.constData() + dataStart + entry.begin, name);
}

namespace {

// Reads only the header of a safetensors file: model files are often far larger than the
// one tensor wanted, so the data is read tensor by tensor rather than whole.
struct SafetensorsFile
{
    std::unique_ptr<QFile> opened;
    QFile& file;
    std::int64_t dataStart = 0;
    std::vector<TensorEntry> tensors;

    // Any size: the header is checked against the file, and only the tensor wanted is read.
    explicit SafetensorsFile(const QString& path)
        : opened(openRegularFile(path, kAnySize)), file(*opened)
    {
        const QByteArray first8 = file.read(8);
        if (first8.size() < 8)
            fail(path,
                 "too short for a safetensors file (" + std::to_string(file.size()) + " bytes)");
        const std::int64_t headerLength =
            safetensorsHeaderLength(first8.constData(), file.size(), path);
        const QByteArray json = file.read(headerLength);
        if (json.size() != headerLength)
            fail(path, "cannot read the safetensors header: " + file.errorString().toStdString());
        dataStart = 8 + headerLength;
        tensors = parseSafetensorsHeader(json, file.size() - dataStart, path);
    }
};

} // namespace

std::vector<std::string> safetensorsNames(const QString& path)
{
    std::vector<std::string> names;
    for (const TensorEntry& entry : SafetensorsFile(path).tensors)
        names.push_back(entry.name);
    return names;
}

Matrix readSafetensors(const QString& path, const std::string& tensorName)
{
    SafetensorsFile safetensors(path);
    const TensorEntry& entry = pickTensor(safetensors.tensors, tensorName, path);
    checkTensor(entry, path); // before reading: the tensor's size is now known to be sane
    QByteArray data;
    if (safetensors.file.seek(safetensors.dataStart + entry.begin))
        data = safetensors.file.read(entry.end - entry.begin);
    if (data.size() != entry.end - entry.begin)
        fail(path, "cannot read tensor '" + entry.name +
                       "': " + safetensors.file.errorString().toStdString());
    return decodeTensor(entry, data.constData(), path);
}

QByteArray safetensorsBytes(const std::map<std::string, Matrix>& tensors)
{
    QJsonObject header;
    std::int64_t offset = 0;
    for (const auto& [tensorName, matrix] : tensors) {
        const std::int64_t size = std::int64_t(matrix.size()) * 4;
        header.insert(
            QString::fromStdString(tensorName),
            QJsonObject{{"dtype", "F32"},
                        {"shape", QJsonArray{qint64(matrix.rows()), qint64(matrix.cols())}},
                        {"data_offsets", QJsonArray{qint64(offset), qint64(offset + size)}}});
        offset += size;
    }
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    // Spaces pad the header so that the data starts 8-byte aligned, as the spec recommends.
    json.append(QByteArray((8 - json.size() % 8) % 8, ' '));

    QByteArray out;
    out.reserve(8 + json.size() + offset);
    appendLittleEndian(out, std::uint64_t(json.size()), 8);
    out.append(json);
    for (const auto& entry : tensors)
        appendFloatsLittleEndian(out, entry.second);
    return out;
}

// ---- By extension --------------------------------------------------------------------------

// `tensorName` only matters for safetensors; .npy and .csv hold one matrix.
Matrix readMatrixFile(const QString& path, const std::string& tensorName)
{
    switch (formatOf(path)) {
    case Format::Npy:
        return readNpy(path);
    case Format::Csv:
        return readCsv(path);
    case Format::Safetensors:
        return readSafetensors(path, tensorName);
    }
    return {};
}

void writeMatrixFile(const QString& path, const Matrix& matrix, const std::string& tensorName)
{
    const Format format = formatOf(path);
    // The readers refuse empty matrices, so writing one would only fail later.
    if (matrix.size() == 0)
        fail(path, "empty matrix (" + std::to_string(matrix.rows()) + "x" +
                       std::to_string(matrix.cols()) + "), nothing to write");
    QByteArray bytes;
    switch (format) {
    case Format::Npy:
        bytes = npyBytes(matrix);
        break;
    case Format::Csv:
        bytes = csvBytes(matrix);
        break;
    case Format::Safetensors:
        bytes =
            safetensorsBytes({{tensorName.empty() ? std::string("matrix") : tensorName, matrix}});
        break;
    }
    writeFileAtomically(path, bytes);
}

} // namespace attn::core
