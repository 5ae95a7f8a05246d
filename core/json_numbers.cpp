#include "json_numbers.h"

#include <charconv>
#include <cmath>

namespace attn::core {

QJsonValue jsonNumber(float value)
{
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    // std::to_chars without a precision gives the shortest text that round-trips as float;
    // read back as a double it is what QJsonDocument then writes.
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    double shortest = 0.0;
    std::from_chars(text, end, shortest);
    return shortest;
}

QJsonArray jsonRow(const RowVector& row)
{
    QJsonArray array;
    for (Eigen::Index j = 0; j < row.size(); ++j)
        array.append(jsonNumber(row(j)));
    return array;
}

QJsonArray jsonMatrix(const Matrix& matrix)
{
    QJsonArray rows;
    for (Eigen::Index i = 0; i < matrix.rows(); ++i)
        rows.append(jsonRow(matrix.row(i)));
    return rows;
}

} // namespace attn::core
