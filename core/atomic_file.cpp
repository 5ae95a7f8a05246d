#include "atomic_file.h"

#include "error.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

// POSIX calls rather than QSaveFile: QSaveFile turns a full disk met while flushing its buffer
// into "Unknown error", and renames over FIFOs and devices. errno names every cause.

namespace attn::core {
namespace {

std::string systemMessage(int error)
{
    return std::generic_category().message(error); // "No space left on device"
}

[[noreturn]] void fail(const QString& path, const std::string& why)
{
    throw Error(
        "cannot write " +
        (path == QLatin1String("-") ? std::string("to standard output") : path.toStdString()) +
        ": " + why);
}

enum class Kind {
    Regular,        // a regular file, or nothing yet: replaced through a temporary file
    WriteThrough,   // a FIFO, a character device or a socket
    StandardOutput, // "-"
};

struct Target
{
    QString path;      // as given, for messages
    QByteArray native; // the file replaced: a symbolic link's target, so the link stays
    Kind kind = Kind::Regular;
    bool exists = false;
    mode_t mode = 0; // of the existing file, kept by its replacement
};

Target classify(const QString& path)
{
    Target target;
    target.path = path;
    if (path == QLatin1String("-")) {
        target.kind = Kind::StandardOutput;
        return target;
    }
    if (path.isEmpty())
        fail(path, "no file name given");
    target.native = QFile::encodeName(path);
    struct stat status
    {
    };
    if (::stat(target.native.constData(), &status) != 0) {
        if (errno != ENOENT)
            fail(path, systemMessage(errno)); // "Not a directory", "Permission denied", ...
        return target; // a new file (its folder is checked when the temporary file is made)
    }
    if (S_ISDIR(status.st_mode))
        fail(path, systemMessage(EISDIR));
    if (S_ISFIFO(status.st_mode) || S_ISCHR(status.st_mode) || S_ISSOCK(status.st_mode)) {
        target.kind = Kind::WriteThrough;
        return target;
    }
    if (!S_ISREG(status.st_mode))
        fail(path, "it is a block device or another special file; refusing to write over it");
    target.exists = true;
    target.mode = status.st_mode & 07777;
    struct stat link
    {
    };
    if (::lstat(target.native.constData(), &link) == 0 && S_ISLNK(link.st_mode)) {
        if (char* resolved = ::realpath(target.native.constData(), nullptr)) {
            target.native = resolved;
            std::free(resolved);
        }
    }
    return target;
}

// 0 or the errno of the failed write.
int writeAll(int fd, const char* data, qint64 size)
{
    while (size > 0) {
        const ssize_t written = ::write(fd, data, std::size_t(size));
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        data += written;
        size -= written;
    }
    return 0;
}

using Parts = std::vector<QByteArrayView>;

// A temporary file written in full, still open: its flock(2) tells removeStaleTemporaries that
// a live process is writing it (the kernel drops the lock when the process dies, however it
// dies), so it is closed only after the rename.
struct Staged
{
    const Target* target = nullptr;
    QByteArray temporary;
    int fd = -1;
};

void discard(const Staged& staged)
{
    ::unlink(staged.temporary.constData());
    ::close(staged.fd);
}

// Writes the parts to a new temporary file beside the target. Throws with nothing left behind.
Staged stage(const Target& target, const Parts& parts)
{
    const qsizetype slash = target.native.lastIndexOf('/');
    const QByteArray folder = slash < 0 ? QByteArray(".") : target.native.left(slash + 1);
    const QByteArray name = target.native.mid(slash + 1);
    Staged staged{&target, {}, -1};
    for (int attempt = 0; staged.fd < 0; ++attempt) {
        staged.temporary = folder + (slash < 0 ? "/." : ".") + name + '.' +
                           QByteArray::number(QRandomGenerator::global()->generate(), 36) + ".part";
        // 0666 less the umask, as any new file; an existing file's mode is copied below.
        staged.fd =
            ::open(staged.temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (staged.fd < 0 && (errno != EEXIST || attempt == 100))
            fail(target.path, systemMessage(errno)); // "Read-only file system", "Permission denied"
        if (staged.fd < 0)
            continue;
        // Between open() and flock() another process may take the new file for a stale one
        // and remove it: then it has no link left, and another name is tried.
        struct stat status
        {
        };
        if (::flock(staged.fd, LOCK_EX) != 0 || ::fstat(staged.fd, &status) != 0 ||
            status.st_nlink == 0) {
            ::close(staged.fd);
            staged.fd = -1;
            if (attempt == 100)
                fail(target.path, "its temporary file was removed while it was made");
        }
    }
    int error = 0;
    if (target.exists && ::fchmod(staged.fd, target.mode) != 0)
        error = errno;
    for (std::size_t k = 0; k < parts.size() && !error; ++k)
        error = writeAll(staged.fd, parts[k].data(), parts[k].size());
    // The data must be on disk before the rename makes it the file: otherwise a crash soon
    // after could leave an empty file where the old one was.
    if (!error && ::fsync(staged.fd) != 0)
        error = errno;
    if (error) {
        discard(staged);
        fail(target.path, systemMessage(error));
    }
    return staged;
}

void syncFolderOf(const QByteArray& native)
{
    const qsizetype slash = native.lastIndexOf('/');
    const QByteArray folder = slash < 0    ? QByteArray(".")
                              : slash == 0 ? QByteArray("/")
                                           : native.left(slash);
    const int fd = ::open(folder.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd); // durability of the rename only: the data is already safe either way
        ::close(fd);
    }
}

void writeThrough(const Target& target, const Parts& parts)
{
    int fd = 1;
    if (target.kind == Kind::StandardOutput) {
        std::fflush(stdout); // whatever stdio holds goes first
    } else {
        // No O_CREAT, no O_TRUNC: the FIFO or device stays what it is. Opening a FIFO waits
        // for its reader, as any writer does.
        do
            fd = ::open(target.native.constData(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
        while (fd < 0 && errno == EINTR);
        if (fd < 0)
            fail(target.path, systemMessage(errno));
    }
    int error = 0;
    for (std::size_t k = 0; k < parts.size() && !error; ++k)
        error = writeAll(fd, parts[k].data(), parts[k].size());
    if (fd != 1 && ::close(fd) != 0 && !error)
        error = errno;
    if (error)
        fail(target.path, systemMessage(error));
}

void writeAtomically(const std::vector<std::pair<QString, Parts>>& files)
{
    std::vector<Target> targets;
    for (const auto& file : files)
        targets.push_back(classify(file.first)); // every path is checked before anything is written

    std::vector<Staged> staged;
    try {
        for (std::size_t k = 0; k < files.size(); ++k) {
            if (targets[k].kind != Kind::Regular)
                continue;
            // What an earlier write of this file left when it was killed (a crash, a file
            // size limit) goes now, before this write adds its own temporary.
            const QFileInfo info(QFile::decodeName(targets[k].native));
            removeStaleTemporaries(info.path(), QRegularExpression::escape(info.fileName()));
            staged.push_back(stage(targets[k], files[k].second));
        }
    } catch (...) {
        for (const Staged& each : staged)
            discard(each);
        throw;
    }

    QStringList replaced;
    for (std::size_t k = 0; k < staged.size(); ++k) {
        const Target& target = *staged[k].target;
        if (::rename(staged[k].temporary.constData(), target.native.constData()) != 0) {
            const int error = errno;
            for (std::size_t rest = k; rest < staged.size(); ++rest)
                discard(staged[rest]);
            std::string message = systemMessage(error);
            if (!replaced.isEmpty())
                message += "; these files were already written: " +
                           replaced.join(QStringLiteral(", ")).toStdString();
            fail(target.path, message);
        }
        ::close(staged[k].fd);
        replaced.append(target.path);
    }
    if (!staged.empty())
        syncFolderOf(staged.back().target->native);

    for (std::size_t k = 0; k < files.size(); ++k)
        if (targets[k].kind != Kind::Regular)
            writeThrough(targets[k], files[k].second);
}

} // namespace

void writeFileAtomically(const QString& path, const QByteArray& bytes)
{
    writeAtomically({{path, {bytes}}});
}

void writeFileAtomically(const QString& path, const std::vector<QByteArrayView>& parts)
{
    writeAtomically({{path, parts}});
}

void writeFilesAtomically(const std::vector<std::pair<QString, QByteArray>>& files)
{
    std::vector<std::pair<QString, Parts>> parts;
    for (const auto& file : files)
        parts.push_back({file.first, {file.second}});
    writeAtomically(parts);
}

void removeStaleTemporaries(const QString& folder, const QString& targetNamePattern)
{
    // stage()'s names: ".NAME.<up to 7 base-36 digits>.part".
    const QRegularExpression temporaryName(
        QStringLiteral("^\\.(?:%1)\\.[0-9a-z]{1,7}\\.part$").arg(targetNamePattern));
    const QDir dir(folder);
    for (const QString& name :
         dir.entryList({QStringLiteral(".*.part")}, QDir::Files | QDir::Hidden | QDir::System)) {
        if (!temporaryName.match(name).hasMatch())
            continue;
        const QByteArray path = QFile::encodeName(dir.filePath(name));
        // Never blocks: not on a FIFO that only looks like a temporary, not on a live writer.
        const int fd = ::open(path.constData(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        struct stat opened
        {
        };
        struct stat named
        {
        };
        if (::fstat(fd, &opened) == 0 && S_ISREG(opened.st_mode) &&
            ::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::lstat(path.constData(), &named) == 0 &&
            named.st_dev == opened.st_dev && named.st_ino == opened.st_ino)
            ::unlink(path.constData()); // while locked: a writer that opens it next sees no link
        ::close(fd);
    }
}

void createFolders(const QString& path)
{
    const QByteArray native = QFile::encodeName(path);
    for (qsizetype end = 1; end <= native.size(); ++end) {
        if (end < native.size() && native[end] != '/')
            continue;
        const QByteArray prefix = native.left(end);
        if (::mkdir(prefix.constData(), 0777) == 0 || errno == EEXIST) {
            struct stat status
            {
            };
            if (::stat(prefix.constData(), &status) == 0 && S_ISDIR(status.st_mode))
                continue;
            errno = ENOTDIR;
        }
        throw Error("cannot create the folder " + path.toStdString() + ": " +
                    (end < native.size() ? QString::fromLocal8Bit(prefix).toStdString() + ": "
                                         : std::string()) +
                    systemMessage(errno));
    }
}

} // namespace attn::core
