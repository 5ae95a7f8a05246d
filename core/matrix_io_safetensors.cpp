#include "matrix_io.h"

#include "matrix_io_detail.h"
#include "regular_file.h"
#include "safetensors_format.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <optional>
#include <tuple>

namespace attn::core {

using matrix_io_detail::appendFloatsLittleEndian;
using matrix_io_detail::appendLittleEndian;
using matrix_io_detail::checkDataSize;
using matrix_io_detail::decodeElements;
using matrix_io_detail::fail;
using matrix_io_detail::matrixExtent;

namespace {

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

} // namespace

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

} // namespace attn::core
