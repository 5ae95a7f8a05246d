#include "json_path_reader.h"

#include "error.h"
#include "json_duplicate_keys.h"
#include "limits.h"

#include <QJsonDocument>

#include <charconv>
#include <climits>

namespace attn::core::json_path {

// ---- Messages -------------------------------------------------------------------------

// The shortest text that reads back as the same double: "1e+39", "-1", "0.5".
std::string formatNumber(double x)
{
    std::array<char, 32> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), x);
    return std::string(buffer.data(), result.ptr);
}

// What a value is, for "expected X, got Y": numbers by their value, the rest by their type.
std::string describe(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return "null";
    case QJsonValue::Bool:
        return "a boolean";
    case QJsonValue::Double:
        return formatNumber(value.toDouble());
    case QJsonValue::String:
        return "a string";
    case QJsonValue::Array:
        return "an array";
    case QJsonValue::Object:
        return "an object";
    case QJsonValue::Undefined:
        break;
    }
    return "nothing";
}

// A string value for a message, in quotes; shortened, as a file may hold anything there.
std::string quoted(const QString& text)
{
    constexpr qsizetype kShown = 60;
    // Built with append: compiled apart from its callers, GCC 12 misreads `"\"" + std::string`
    // here as an overlapping memcpy (-Wrestrict, a known false positive).
    std::string out = "\"";
    out.append(text.size() > kShown ? text.left(kShown).toStdString() + "..." : text.toStdString());
    return out.append("\"");
}

std::string counted(std::int64_t n, const char* noun)
{
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string shape(std::int64_t rows, std::int64_t cols)
{
    return std::to_string(rows) + "x" + std::to_string(cols);
}

std::string member(const std::string& parent, std::string_view key)
{
    return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string element(const std::string& parent, qsizetype index)
{
    return parent + "[" + std::to_string(index) + "]";
}

[[noreturn]] void fail(const std::string& path, const std::string& problem)
{
    throw Error(path, problem);
}

// ---- Values ---------------------------------------------------------------------------

// QJsonValue::toInteger is exact beyond 2^53 (integers are kept as such) but says "not a
// whole number in range" only through its default, so it is asked with two defaults.
std::optional<std::int64_t> exactInteger(const QJsonValue& value)
{
    const qint64 a = value.toInteger(0);
    const qint64 b = value.toInteger(1);
    if (a != b)
        return std::nullopt;
    return a;
}

namespace {

std::string rangeText(std::int64_t min, std::int64_t max)
{
    if (max >= INT_MAX)
        return min == 0 ? "a non-negative integer" : "an integer >= " + std::to_string(min);
    return "between " + std::to_string(min) + " and " + std::to_string(max);
}

} // namespace

std::int64_t toInteger(const QJsonValue& value, const std::string& path, std::int64_t min,
                       std::int64_t max)
{
    if (!value.isDouble())
        fail(path, "expected an integer, got " + describe(value));
    const double x = value.toDouble();
    if (x != std::trunc(x))
        fail(path, "expected an integer, got " + formatNumber(x));
    const std::optional<std::int64_t> n = exactInteger(value);
    if (!n || *n < min || *n > max)
        fail(path, "must be " + rangeText(min, max) + ", got " +
                       (n ? std::to_string(*n) : formatNumber(x)));
    return *n;
}

// Exactly `count` numbers from the JSON array `value` into `out`.
void readNumbers(const QJsonValue& value, const std::string& path, qsizetype count, float* out)
{
    if (!value.isArray())
        fail(path, "expected an array of " + counted(count, "number") + ", got " + describe(value));
    const QJsonArray array = value.toArray();
    if (array.size() != count)
        fail(path,
             "expected " + counted(count, "number") + ", got " + std::to_string(array.size()));
    for (qsizetype i = 0; i < count; ++i)
        out[i] = toFloat(array.at(i), [&] { return element(path, i); });
}

RowVector readVector(const QJsonValue& value, const std::string& path, int length)
{
    RowVector vector(length);
    readNumbers(value, path, length, vector.data());
    return vector;
}

// A matrix given as an array of rows. `rows` < 0 accepts any number of rows. The shape is
// checked from the array sizes alone, before anything is allocated.
Matrix readMatrix(const QJsonValue& value, const std::string& path, qsizetype rows, qsizetype cols)
{
    const std::string expected = rows >= 0 ? shape(rows, cols) : "Nx" + std::to_string(cols);
    if (!value.isArray())
        fail(path, "expected a " + expected + " matrix (an array of rows), got " + describe(value));
    const QJsonArray array = value.toArray();

    qsizetype width = -1; // the common row length; -2 once rows differ
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonValue row = array.at(i);
        if (!row.isArray())
            fail(element(path, i),
                 "expected an array of " + counted(cols, "number") + ", got " + describe(row));
        const qsizetype n = row.toArray().size();
        width = width == -1 ? n : (width == n ? width : -2);
    }
    if (rows >= 0 && array.size() != rows) {
        if (width >= 0)
            fail(path, "expected " + expected + ", got " + shape(array.size(), width));
        fail(path, "expected " + expected + ", got " + counted(array.size(), "row"));
    }
    if (width >= 0 && width != cols)
        fail(path, "expected " + expected + ", got " + shape(array.size(), width));
    if (std::int64_t(array.size()) * cols > kMaxMatrixElements)
        fail(path, counted(array.size(), "row") + " of " + std::to_string(cols) +
                       " numbers is more than the " + std::to_string(kMaxMatrixElements) +
                       " a matrix may hold");

    // Ragged rows are reported by readNumbers: "W_k[3]: expected 4 numbers, got 3".
    Matrix matrix(array.size(), cols);
    for (qsizetype i = 0; i < array.size(); ++i)
        readNumbers(array.at(i), element(path, i), cols, matrix.row(i).data());
    return matrix;
}

namespace {

// Qt reports a number beyond the double range only as "illegal number"; name it instead.
std::string parseErrorText(const QByteArray& json, const QJsonParseError& error)
{
    if (error.error == QJsonParseError::IllegalNumber) {
        auto isNumberChar = [](char c) {
            return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' ||
                   c == 'E';
        };
        qsizetype begin = std::min<qsizetype>(error.offset, json.size());
        qsizetype end = begin;
        while (begin > 0 && isNumberChar(json[begin - 1]))
            --begin;
        while (end < json.size() && isNumberChar(json[end]))
            ++end;
        double x = 0.0;
        const char* first = json.constData() + begin;
        const char* last = json.constData() + end;
        const auto result = std::from_chars(first, last, x);
        if (begin < end && result.ec == std::errc::result_out_of_range && result.ptr == last)
            return "invalid JSON at offset " + std::to_string(begin) + ": the number " +
                   std::string(first, last) + " is outside the float32 range";
    }
    return "invalid JSON at offset " + std::to_string(error.offset) + ": " +
           error.errorString().toStdString();
}

} // namespace

QJsonObject parseDocument(const QByteArray& json)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        throw Error(parseErrorText(json, error));
    if (!document.isObject())
        throw Error("expected a JSON object at the top level, got " +
                    std::string(document.isArray() ? "an array" : "nothing"));
    // QJsonDocument keeps the last of two equal keys without a word: a scene that says two
    // things is refused rather than read as one of them.
    if (const auto twice = findDuplicateJsonKey(json))
        fail(twice->path, "given twice; a key may appear once in each object");
    return document.object();
}

} // namespace attn::core::json_path
