#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <utility>
#include <vector>

namespace attn::core {

// Writes `bytes` to `path` so that a failure never leaves a half-written file behind:
//  - a regular file, or a new one, is written to a temporary file beside it, flushed to disk
//    and renamed over it; on any failure the old file is left untouched;
//  - "-" is standard output;
//  - a FIFO, a character device or a socket is written through: renaming over it would
//    replace the device (a pipe, /dev/null) with a regular file.
// A directory, a block device and a path whose folder is missing are refused. Error names the
// path and the cause as the system gives it ("cannot write /x/y.json: No space left on
// device", "Read-only file system", "Permission denied", "Is a directory").
// The temporary file is ".NAME.XXXX.part" (XXXX random), locked with flock(2) by the process
// writing it until it is renamed; a write that is killed (a crash, SIGXFSZ from a file size
// limit) leaves it unlocked, and the next write to the same file removes it.
void writeFileAtomically(const QString& path, const QByteArray& bytes);
// The same, the file made of `parts` one after another (a short header before a large body
// without copying the body).
void writeFileAtomically(const QString& path, const std::vector<QByteArrayView>& parts);

// Several files written as one: each is first written in full to a temporary file beside
// its target, and only when every one of them has been written are they renamed into place.
// A failure before the renames (a full disk, a read-only folder, a target that is a folder)
// leaves every target as it was. A rename that fails after others succeeded (it cannot run
// out of space; it fails only if the folder changes meanwhile) is reported naming the files
// already replaced. Standard output and special files are written through, after the
// regular files have been renamed.
void writeFilesAtomically(const std::vector<std::pair<QString, QByteArray>>& files);

// Removes from `folder` the temporary files of writes that were killed before their rename,
// those of the files whose names match `targetNamePattern` (a regular expression: a name
// passed through QRegularExpression::escape, or "scene-.+\\.json"). A temporary a live
// process is writing (it holds the lock) is kept.
void removeStaleTemporaries(const QString& folder, const QString& targetNamePattern);

// Creates a folder and the folders above it that are missing. Throws Error naming the cause
// ("cannot create the folder /x/y: Read-only file system").
void createFolders(const QString& path);

} // namespace attn::core
