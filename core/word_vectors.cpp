#include "word_vectors.h"

#include "error.h"
#include "limits.h"
#include "regular_file.h"

#include <QByteArrayView>
#include <QFile>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>

namespace attn::core {

namespace {

constexpr qint64 kMaxFileBytes = qint64(2) << 30; // 2 GiB

// "1 word", "3 words".
std::string countOf(qint64 count, const char* one, const char* many)
{
    return std::to_string(count) + ' ' + (count == 1 ? one : many);
}

bool isSeparator(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

// Space-separated fields of one line (word2vec writes a trailing space; tolerate tabs).
std::vector<QByteArrayView> fields(QByteArrayView line)
{
    std::vector<QByteArrayView> result;
    qsizetype i = 0;
    while (i < line.size()) {
        while (i < line.size() && isSeparator(line[i]))
            ++i;
        const qsizetype start = i;
        while (i < line.size() && !isSeparator(line[i]))
            ++i;
        if (i > start)
            result.push_back(line.sliced(start, i - start));
    }
    return result;
}

// A word2vec header's count: an integer, negative ones included so that "-1 3" is refused
// as a header rather than read as a one-dimensional vector of the word "-1".
std::optional<qint64> parseSignedCount(QByteArrayView field)
{
    qint64 value = 0;
    const auto [end, error] = std::from_chars(field.begin(), field.end(), value);
    if (error != std::errc() || end != field.end())
        return std::nullopt;
    return value;
}

// std::from_chars is locale-independent, unlike strtof and QByteArray::toFloat's fallback.
// Returns the value, or what is wrong with the field ("is out of float32 range").
std::optional<float> parseValue(QByteArrayView field, std::string& problem)
{
    float value = 0.0f;
    const auto [end, error] = std::from_chars(field.begin(), field.end(), value);
    if (end != field.end() || (error != std::errc() && error != std::errc::result_out_of_range)) {
        problem = "is not a number";
    } else if (error == std::errc::result_out_of_range) {
        // Too large or too close to 0 for a float: told apart by reading it as a double.
        double wide = 0.0;
        const auto read = std::from_chars(field.begin(), field.end(), wide);
        const bool tiny = read.ec == std::errc() ? std::abs(wide) < 1.0
                                                 : field.contains("e-") || field.contains("E-");
        problem = tiny ? "is too close to 0 for float32 (write it as 0)"
                       : "is out of float32 range (at most about 3.4e38 in magnitude)";
    } else if (std::isnan(value)) {
        problem = "is NaN; word vectors must be finite numbers";
    } else if (std::isinf(value)) {
        problem = "is infinite; word vectors must be finite numbers";
    } else {
        return value;
    }
    return std::nullopt;
}

std::string shown(QByteArrayView field)
{
    constexpr qsizetype kShown = 32;
    std::string text(field.data(), std::size_t(std::min(field.size(), kShown)));
    return "'" + text + (field.size() > kShown ? "...'" : "'");
}

} // namespace

class WordVectors::Parser
{
public:
    Parser(const QString& name, qint64 bytes) : m_name(name.toStdString()), m_bytes(bytes) {}

    void line(QByteArrayView text)
    {
        ++m_line;
        if (m_line == 1 && text.startsWith("\xEF\xBB\xBF"))
            text = text.sliced(3); // UTF-8 byte order mark
        const std::vector<QByteArrayView> parts = fields(text);
        if (parts.empty())
            return;
        if (!m_sawFirst) {
            m_sawFirst = true;
            if (header(parts, text.size()))
                return;
        }
        row(parts, text.size());
    }

    WordVectors finish()
    {
        if (m_result.m_index.isEmpty())
            throw Error(m_name +
                        ": no word vectors found (expected lines like 'cat 0.12 -0.5 ...')");
        if (m_headerCount && *m_headerCount != m_rows)
            throw Error(m_name + ": the header on line 1 says " +
                        countOf(*m_headerCount, "word", "words") + ", the file has " +
                        std::to_string(m_rows) +
                        (m_rows < *m_headerCount ? " (is it truncated?)"
                                                 : " (is the header for another file?)"));
        m_result.m_values.shrink_to_fit();
        return std::move(m_result);
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        throw Error(m_name + " line " + std::to_string(m_line), what);
    }

    // word2vec text starts with "count dim"; a GloVe row always has a word and a number
    // that is not an integer pair, except a one-dimensional vector of an integer-named word,
    // which we read as a header too.
    bool header(const std::vector<QByteArrayView>& parts, qsizetype lineBytes)
    {
        if (parts.size() != 2)
            return false;
        const std::optional<qint64> count = parseSignedCount(parts[0]);
        const std::optional<qint64> dimension = parseSignedCount(parts[1]);
        if (!count || !dimension)
            return false;
        if (*count < 0)
            fail("the word2vec header says " + std::to_string(*count) +
                 " words; expected 'count dimensions', two whole numbers >= 0");
        m_headerCount = count;
        setDimension(*dimension, lineBytes);
        return true;
    }

    void setDimension(qint64 dimension, qsizetype lineBytes)
    {
        if (dimension < 1)
            fail("a word needs at least one value");
        if (dimension > kMaxModelWidth)
            fail(std::to_string(dimension) + " dimensions, more than the " +
                 std::to_string(kMaxModelWidth) + " that d_model allows");
        m_result.m_dimension = int(dimension);
        m_dimensionLine = m_line;
        // Reserve from what the file can hold, never from the header's count alone: every
        // row needs at least two bytes per value, and rows are usually as long as this one.
        const qint64 minRowBytes = 2 * dimension + 1;
        qint64 rows = m_bytes / std::max<qint64>(minRowBytes, lineBytes) + 1;
        if (m_headerCount)
            rows = std::min(rows, *m_headerCount);
        rows = std::min(rows, kMaxMatrixElements / dimension);
        m_result.m_values.reserve(std::size_t(rows * dimension));
        m_result.m_index.reserve(rows);
    }

    void row(const std::vector<QByteArrayView>& parts, qsizetype lineBytes)
    {
        const qint64 values = qint64(parts.size()) - 1;
        if (m_result.m_dimension == 0)
            setDimension(values, lineBytes);
        if (values != m_result.m_dimension)
            fail(std::to_string(values) + " values after " + shown(parts[0]) + ", expected " +
                 std::to_string(m_result.m_dimension) +
                 (m_headerCount ? " (the header on line " : " (as on line ") +
                 std::to_string(m_dimensionLine) + ")");
        if (qint64(m_result.m_values.size()) + values > kMaxMatrixElements)
            fail("more than 2^28 values in total; use a file with fewer words");

        // Every row is checked, even a repeated word whose vector is then dropped.
        const std::size_t start = m_result.m_values.size();
        for (qsizetype i = 1; i < qsizetype(parts.size()); ++i) {
            std::string problem;
            const std::optional<float> value = parseValue(parts[i], problem);
            if (!value)
                fail(shown(parts[i]) + " " + problem + " (value " + std::to_string(i) + " of " +
                     shown(parts[0]) + ")");
            m_result.m_values.push_back(*value);
        }
        ++m_rows;
        const QString word = QString::fromUtf8(parts[0]);
        if (m_result.m_index.contains(word))
            m_result.m_values.resize(start);
        else
            m_result.m_index.insert(word, qsizetype(start) / m_result.m_dimension);
    }

    WordVectors m_result;
    std::string m_name;
    qint64 m_bytes;
    qint64 m_line = 0;
    qint64 m_rows = 0;
    qint64 m_dimensionLine = 0;
    bool m_sawFirst = false;
    std::optional<qint64> m_headerCount;
};

WordVectors WordVectors::load(const QString& path)
{
    const std::unique_ptr<QFile> opened = openRegularFile(path, kMaxFileBytes);
    QFile& file = *opened;
    // Streamed line by line so that only the vectors, not the text, stay in memory.
    Parser parser(path, file.size());
    while (!file.atEnd()) {
        QByteArray line = file.readLine();
        if (line.isEmpty() && file.error() != QFileDevice::NoError)
            break;
        if (line.endsWith('\n'))
            line.chop(1);
        parser.line(line);
    }
    if (file.error() != QFileDevice::NoError)
        throw Error("cannot read " + path.toStdString() + ": " + file.errorString().toStdString());
    return parser.finish();
}

WordVectors WordVectors::parse(const QByteArray& text, const QString& nameForMessages)
{
    Parser parser(nameForMessages, text.size());
    qsizetype begin = 0;
    while (begin < text.size()) {
        qsizetype end = text.indexOf('\n', begin);
        if (end < 0)
            end = text.size();
        parser.line(QByteArrayView(text).sliced(begin, end - begin));
        begin = end + 1;
    }
    return parser.finish();
}

const float* WordVectors::find(const QString& word) const
{
    const auto found = m_index.constFind(word);
    if (found == m_index.cend())
        return nullptr;
    return m_values.data() + *found * m_dimension;
}

} // namespace attn::core
