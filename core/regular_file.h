#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

#include <limits>
#include <memory>

namespace attn::core {

// No limit on the size: for weights, whose size their own header is checked against.
inline constexpr qint64 kAnySize = std::numeric_limits<qint64>::max();

// Opens `path` for reading when it is a regular file, links followed, of at most maxBytes.
// Every file the app reads goes through here: a FIFO blocks the reader until something writes
// to it (for ever, when nothing does), and a device such as /dev/zero never ends. The type is
// checked before opening, and the file is opened with O_NONBLOCK and checked again, so that a
// FIFO swapped in between cannot block either. Qt resource paths (":/...") are read as they are.
// Throws Error naming the path and why: "cannot read PATH: No such file or directory",
// "PATH is not a regular file (a FIFO)", "PATH is not a regular file (a link to /dev/zero, a
// character device)", "PATH is larger than 16 MiB (16777217 bytes)".
std::unique_ptr<QFile> openRegularFile(const QString& path, qint64 maxBytes);

// The whole of such a file. Throws Error as openRegularFile does, and for a failed read.
QByteArray readRegularFile(const QString& path, qint64 maxBytes);

} // namespace attn::core
