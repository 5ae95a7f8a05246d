#pragma once

#include <QByteArray>
#include <QString>

namespace attn::core {

// Writes through QSaveFile: the bytes go to a temporary file beside `path`, which replaces
// `path` only once everything is written and flushed. On any failure the old file is left
// untouched and Error says why ("cannot write /x/y.json: No space left on device").
void writeFileAtomically(const QString& path, const QByteArray& bytes);

// Reads a whole file, refusing files larger than maxBytes. Throws Error.
QByteArray readFileLimited(const QString& path, qint64 maxBytes);

} // namespace attn::core
