#pragma once

// For the checkpoint and loader tests: safetensors files read and written byte by byte,
// independently of core/safetensors_format (its own little-endian reads, Qt's qfloat16 for
// F16), so that a test compares the loader with a second reading of the same bytes; and the
// model fixtures copied into a temporary folder to be patched there.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFloat16>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QtTest>

#include <Eigen/Core>

#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace rawst {

inline QString fixture(const QString& name)
{
    return QStringLiteral(ATTN_TEST_DATA_DIR "/models/") + name;
}

inline QByteArray readAll(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot read " + path.toStdString());
    return file.readAll();
}

inline void writeAll(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size())
        throw std::runtime_error("cannot write " + path.toStdString());
}

// Every file of fixture `name` copied into `into` (a fresh folder); returns the copy's path.
inline QString copyFixture(const QString& name, const QString& into)
{
    QDir().mkpath(into);
    const QDir source(fixture(name));
    for (const QString& file : source.entryList(QDir::Files))
        if (!QFile::copy(source.filePath(file), QDir(into).filePath(file)))
            throw std::runtime_error("cannot copy " + file.toStdString());
    return into;
}

inline std::uint64_t loadU64(const char* p)
{
    std::uint64_t v = 0;
    for (int k = 7; k >= 0; --k)
        v = (v << 8) | static_cast<unsigned char>(p[k]);
    return v;
}

inline QByteArray u64Bytes(std::uint64_t v)
{
    QByteArray out(8, '\0');
    for (int k = 0; k < 8; ++k)
        out[k] = char((v >> (8 * k)) & 0xff);
    return out;
}

// One safetensors file split into its header text and its data section.
struct File
{
    QByteArray headerText;
    QByteArray data;

    static File read(const QString& path)
    {
        const QByteArray bytes = readAll(path);
        const std::uint64_t n = loadU64(bytes.constData());
        return {bytes.mid(8, qsizetype(n)), bytes.mid(8 + qsizetype(n))};
    }

    QJsonObject header() const { return QJsonDocument::fromJson(headerText).object(); }
    void setHeader(const QJsonObject& header)
    {
        headerText = QJsonDocument(header).toJson(QJsonDocument::Compact);
    }

    QByteArray bytes() const
    {
        return u64Bytes(std::uint64_t(headerText.size())) + headerText + data;
    }
    void write(const QString& path) const { writeAll(path, bytes()); }

    QJsonObject tensor(const QString& name) const { return header().value(name).toObject(); }
    qint64 begin(const QString& name) const
    {
        return tensor(name)["data_offsets"].toArray()[0].toInteger();
    }
    QString dtype(const QString& name) const { return tensor(name)["dtype"].toString(); }
    std::vector<qint64> shape(const QString& name) const
    {
        std::vector<qint64> dims;
        for (const QJsonValue v : tensor(name)["shape"].toArray())
            dims.push_back(v.toInteger());
        return dims;
    }

    // Element `k` (row-major) of a float tensor, decoded here without the production code.
    float value(const QString& name, qint64 k) const
    {
        return decode(dtype(name), data.constData() + begin(name), k);
    }

    // The whole tensor as rows x cols (rank 1: one row), as stored.
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>
    matrix(const QString& name) const
    {
        const std::vector<qint64> dims = shape(name);
        const qint64 rows = dims.size() == 2 ? dims[0] : 1;
        const qint64 cols = dims.back();
        const QString type = dtype(name);
        const char* p = data.constData() + begin(name);
        Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> m(rows, cols);
        for (qint64 k = 0; k < rows * cols; ++k)
            m.data()[k] = decode(type, p, k);
        return m;
    }

    static float decode(const QString& type, const char* p, qint64 k)
    {
        if (type == "F32") {
            std::uint32_t bits = 0;
            for (int b = 3; b >= 0; --b)
                bits = (bits << 8) | static_cast<unsigned char>(p[4 * k + b]);
            return std::bit_cast<float>(bits);
        }
        const std::uint16_t bits = std::uint16_t(static_cast<unsigned char>(p[2 * k]) |
                                                 (static_cast<unsigned char>(p[2 * k + 1]) << 8));
        if (type == "BF16")
            return std::bit_cast<float>(std::uint32_t(bits) << 16);
        if (type == "F16")
            return float(std::bit_cast<qfloat16>(bits));
        throw std::runtime_error("not a float tensor: " + type.toStdString());
    }

    // Overwrites element `k` of an F32 / F16 tensor with raw bits.
    void poke32(const QString& name, qint64 k, std::uint32_t bits)
    {
        for (int b = 0; b < 4; ++b)
            data[begin(name) + 4 * k + b] = char((bits >> (8 * b)) & 0xff);
    }
    void poke16(const QString& name, qint64 k, std::uint16_t bits)
    {
        data[begin(name) + 2 * k] = char(bits & 0xff);
        data[begin(name) + 2 * k + 1] = char(bits >> 8);
    }
};

} // namespace rawst
