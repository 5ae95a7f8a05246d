#include "matrix_io.h"

#include "error.h"
#include "limits.h"
#include "matrix_io_detail.h"
#include "regular_file.h"

#include <QFile>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>

namespace attn::core {

using matrix_io_detail::checkedElementCount;
using matrix_io_detail::fail;

namespace {

// Float64 data at the element limit, plus room for any sane header.
constexpr qint64 kMaxFileBytes = kMaxMatrixElements * qint64(sizeof(double)) + (qint64(1) << 20);

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

} // namespace

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

} // namespace attn::core
