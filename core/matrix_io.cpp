#include "matrix_io.h"

#include "atomic_file.h"
#include "error.h"
#include "limits.h"
#include "matrix_io_detail.h"
#include "safetensors_format.h"

#include <QFileInfo>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

// What the three formats share (the size checks, decoding elements, writing little-endian)
// and the choice of format by extension; each format has its own matrix_io_FORMAT.cpp.
namespace attn::core {

namespace {

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

} // namespace

namespace matrix_io_detail {

[[noreturn]] void fail(const QString& name, const std::string& what)
{
    throw Error(name.toStdString(), what);
}

// The size rules every format shares; nothing big may be allocated before this passes.
std::int64_t checkedElementCount(std::int64_t rows, std::int64_t cols, const QString& name,
                                 const std::string& what)
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

} // namespace matrix_io_detail

using matrix_io_detail::fail;

namespace {

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

} // namespace

namespace matrix_io_detail {

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

void appendLittleEndian(QByteArray& out, std::uint64_t value, int bytes)
{
    for (int k = 0; k < bytes; ++k)
        out.append(char((value >> (8 * k)) & 0xffu));
}

} // namespace matrix_io_detail

namespace {

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
