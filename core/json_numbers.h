#pragma once

#include "matrix.h"

#include <QJsonArray>
#include <QJsonValue>
#include <optional>
#include <vector>

namespace attn::core {

// A float as the shortest decimal that reads back as the same float ("0.1", not
// 0.10000000149011612). JSON has no infinities or NaN: those become the strings
// "inf", "-inf" and "nan" (masked scores hold -inf).
QJsonValue jsonNumber(float value);
QJsonArray jsonRow(const RowVector& row);
QJsonArray jsonMatrix(const Matrix& matrix); // an array of rows

// Integers (token ids, counts) or doubles, each as QJsonValue holds it.
template <typename T> QJsonArray jsonArray(const std::vector<T>& values)
{
    QJsonArray array;
    for (const T& value : values)
        array.append(value);
    return array;
}

} // namespace attn::core
