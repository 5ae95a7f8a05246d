#pragma once

#include "matrix.h"

#include <QByteArray>
#include <QString>
#include <map>
#include <string>
#include <vector>

namespace attn::core {

// Every reader checks the declared size against the bytes present and kMaxMatrixElements
// before it allocates, and throws Error with a message naming the file and the problem.
// Empty matrices and ranks other than 1 (read as one row) or 2 are refused. NaN and infinity
// are read as they are (validating weights rejects them elsewhere); a finite float64 value
// beyond float32 range is an error.

// NumPy .npy, format 1.0-3.0: float32/float64 (either byte order), C or Fortran order,
// 1-D (one row) or 2-D.
Matrix readNpy(const QString& path);
Matrix parseNpy(const QByteArray& bytes, const QString& nameForMessages);
QByteArray npyBytes(const Matrix& matrix); // float32, C order, format 1.0

// Comma-separated numbers, one row per line; an optional non-numeric header row is skipped.
Matrix readCsv(const QString& path);
Matrix parseCsv(const QByteArray& text, const QString& nameForMessages);
QByteArray csvBytes(const Matrix& matrix);

// safetensors: an 8-byte little-endian header length, a JSON header, then the data.
// F32, F64, F16 and BF16 tensors of rank 1 or 2 are read (as float32).
std::vector<std::string> safetensorsNames(const QString& path);
Matrix readSafetensors(const QString& path, const std::string& tensorName);
Matrix parseSafetensors(const QByteArray& bytes, const std::string& tensorName,
                        const QString& nameForMessages);
QByteArray safetensorsBytes(const std::map<std::string, Matrix>& tensors); // F32

// By extension, case-insensitive (.npy, .csv, .safetensors). For safetensors, an empty
// `tensorName` reads the only tensor and is an error (listing the names) if there are several.
Matrix readMatrixFile(const QString& path, const std::string& tensorName = {});
// Atomic like saveScene; the format follows the extension.
void writeMatrixFile(const QString& path, const Matrix& matrix,
                     const std::string& tensorName = "matrix");

} // namespace attn::core
