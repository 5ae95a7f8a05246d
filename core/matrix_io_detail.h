#pragma once

#include "matrix.h"
#include "safetensors_format.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

// What the readers and writers of matrix_io_npy.cpp, matrix_io_csv.cpp and
// matrix_io_safetensors.cpp share; defined, and explained, in matrix_io.cpp. Not public API.
namespace attn::core::matrix_io_detail {

[[noreturn]] void fail(const QString& name, const std::string& what);
std::int64_t checkedElementCount(std::int64_t rows, std::int64_t cols, const QString& name,
                                 const std::string& what = {});
void checkDataSize(const std::vector<std::int64_t>& dims, std::int64_t rows, std::int64_t cols,
                   int itemSize, std::int64_t bytesPresent, const QString& name,
                   const std::string& what);
std::pair<std::int64_t, std::int64_t> matrixExtent(const std::vector<std::int64_t>& dims,
                                                   const QString& name, const std::string& what);
Matrix decodeElements(const char* data, ElementType type, bool bigEndian, bool columnMajor,
                      Eigen::Index rows, Eigen::Index cols, const QString& name);
void appendFloatsLittleEndian(QByteArray& out, const Matrix& matrix);
void appendLittleEndian(QByteArray& out, std::uint64_t value, int bytes);

} // namespace attn::core::matrix_io_detail
