#pragma once

#include "matrix.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

// Reading JSON values into numbers, matrices and settings, each problem thrown as an Error that
// names its JSON path ("heads[2].W_q: expected 64x16, got 64x15"): the reader under the scene
// format (scene_json.cpp). Not part of the public API.
namespace attn::core::json_path {

// FLT_MAX plus half an ulp, 2^128 - 2^103: the smallest magnitude that rounds to infinity.
constexpr double kFloatOverflow = 3.4028235677973366e38;

// ---- Messages (defined in json_path_reader.cpp) ---------------------------------------------

std::string formatNumber(double x);
std::string describe(const QJsonValue& value);
std::string quoted(const QString& text);
std::string counted(std::int64_t n, const char* noun);
std::string shape(std::int64_t rows, std::int64_t cols);
std::string member(const std::string& parent, std::string_view key);
std::string element(const std::string& parent, qsizetype index);
[[noreturn]] void fail(const std::string& path, const std::string& problem);

template <typename Enum, std::size_t N>
std::string nameList(const std::array<Enum, N>& all, std::string_view (*nameOf)(Enum))
{
    std::string list;
    for (std::size_t i = 0; i < N; ++i) {
        if (i > 0)
            list += i + 1 == N ? " or " : ", ";
        list += nameOf(all[i]);
    }
    return list;
}

// ---- Values (defined in json_path_reader.cpp) -----------------------------------------------

std::optional<std::int64_t> exactInteger(const QJsonValue& value);
std::int64_t toInteger(const QJsonValue& value, const std::string& path, std::int64_t min,
                       std::int64_t max);
void readNumbers(const QJsonValue& value, const std::string& path, qsizetype count, float* out);
RowVector readVector(const QJsonValue& value, const std::string& path, int length);
Matrix readMatrix(const QJsonValue& value, const std::string& path, qsizetype rows, qsizetype cols);
// The top-level object of a JSON document; a key given twice in an object is refused.
QJsonObject parseDocument(const QByteArray& json);

// A float32 from a JSON number. `path` is called only when there is an error to report, so
// reading a large matrix builds no strings. Anything beyond the float32 range is refused
// rather than silently becoming infinity.
template <typename PathFn> float toFloat(const QJsonValue& value, const PathFn& path)
{
    if (!value.isDouble())
        fail(path(), "expected a number, got " + describe(value));
    const double x = value.toDouble();
    if (!(std::abs(x) < kFloatOverflow))
        fail(path(), formatNumber(x) + " is outside the float32 range");
    // Between FLT_MAX and kFloatOverflow (the shortest text of FLT_MAX, 3.4028235e+38, is
    // there) the value rounds to FLT_MAX; clamped so that the conversion is always defined.
    return static_cast<float>(std::clamp(x, -double(FLT_MAX), double(FLT_MAX)));
}

// A JSON object together with its path, so that every read names what it read.
class ObjectReader
{
public:
    ObjectReader(QJsonObject object, std::string path)
        : m_object(std::move(object)), m_path(std::move(path))
    {
    }

    bool has(const char* key) const { return m_object.contains(QLatin1String(key)); }
    QJsonValue value(const char* key) const { return m_object.value(QLatin1String(key)); }
    std::string pathOf(std::string_view key) const { return member(m_path, key); }

    // An absent section reads as an empty object: every key takes its default.
    ObjectReader section(const char* key) const
    {
        const QJsonValue v = value(key);
        if (v.isUndefined())
            return ObjectReader(QJsonObject(), pathOf(key));
        if (!v.isObject())
            fail(pathOf(key), "expected an object, got " + describe(v));
        return ObjectReader(v.toObject(), pathOf(key));
    }

    bool boolean(const char* key, bool fallback) const
    {
        const QJsonValue v = value(key);
        if (v.isUndefined())
            return fallback;
        if (!v.isBool())
            fail(pathOf(key), "expected true or false, got " + describe(v));
        return v.toBool();
    }

    QString string(const char* key, const QString& fallback) const
    {
        const QJsonValue v = value(key);
        if (v.isUndefined())
            return fallback;
        if (!v.isString())
            fail(pathOf(key), "expected a string, got " + describe(v));
        return v.toString();
    }

    std::int64_t integer(const char* key, std::int64_t min, std::int64_t max,
                         std::int64_t fallback) const
    {
        const QJsonValue v = value(key);
        return v.isUndefined() ? fallback : toInteger(v, pathOf(key), min, max);
    }

    std::uint64_t seed(const char* key, std::uint64_t fallback) const
    {
        return std::uint64_t(integer(key, 0, INT64_MAX, std::int64_t(fallback)));
    }

    template <typename Enum, std::size_t N>
    Enum choice(const char* key, Enum fallback, std::optional<Enum> (*parse)(std::string_view),
                std::string_view (*nameOf)(Enum), const std::array<Enum, N>& all) const
    {
        const QJsonValue v = value(key);
        if (v.isUndefined())
            return fallback;
        if (!v.isString())
            fail(pathOf(key), "expected one of " + nameList(all, nameOf) + ", got " + describe(v));
        if (const std::optional<Enum> parsed = parse(v.toString().toStdString()))
            return *parsed;
        fail(pathOf(key),
             "unknown value " + quoted(v.toString()) + "; expected " + nameList(all, nameOf));
    }

    // Overwrites `target` only when the key is present.
    void matrix(const char* key, int rows, int cols, Matrix& target) const
    {
        if (has(key))
            target = readMatrix(value(key), pathOf(key), rows, cols);
    }

    void vector(const char* key, int length, RowVector& target) const
    {
        if (has(key))
            target = readVector(value(key), pathOf(key), length);
    }

private:
    QJsonObject m_object;
    std::string m_path;
};

} // namespace attn::core::json_path
