#include "atomic_file.h"

#include "error.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
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

// Writes the bytes to a new temporary file beside the target; returns its name. Throws with
// nothing left behind.
QByteArray stage(const Target& target, const QByteArray& bytes)
{
    const qsizetype slash = target.native.lastIndexOf('/');
    const QByteArray folder = slash < 0 ? QByteArray(".") : target.native.left(slash + 1);
    const QByteArray name = target.native.mid(slash + 1);
    QByteArray temporary;
    int fd = -1;
    for (int attempt = 0; fd < 0; ++attempt) {
        temporary = folder + (slash < 0 ? "/." : ".") + name + '.' +
                    QByteArray::number(QRandomGenerator::global()->generate(), 36) + ".part";
        // 0666 less the umask, as any new file; an existing file's mode is copied below.
        fd = ::open(temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && (errno != EEXIST || attempt == 100))
            fail(target.path, systemMessage(errno)); // "Read-only file system", "Permission denied"
    }
    int error = 0;
    if (target.exists && ::fchmod(fd, target.mode) != 0)
        error = errno;
    if (!error)
        error = writeAll(fd, bytes.constData(), bytes.size());
    // The data must be on disk before the rename makes it the file: otherwise a crash soon
    // after could leave an empty file where the old one was.
    if (!error && ::fsync(fd) != 0)
        error = errno;
    if (::close(fd) != 0 && !error)
        error = errno;
    if (error) {
        ::unlink(temporary.constData());
        fail(target.path, systemMessage(error));
    }
    return temporary;
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

void writeThrough(const Target& target, const QByteArray& bytes)
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
    int error = writeAll(fd, bytes.constData(), bytes.size());
    if (fd != 1 && ::close(fd) != 0 && !error)
        error = errno;
    if (error)
        fail(target.path, systemMessage(error));
}

} // namespace

void writeFileAtomically(const QString& path, const QByteArray& bytes)
{
    writeFilesAtomically({{path, bytes}});
}

void writeFilesAtomically(const std::vector<std::pair<QString, QByteArray>>& files)
{
    std::vector<Target> targets;
    for (const auto& file : files)
        targets.push_back(classify(file.first)); // every path is checked before anything is written

    std::vector<std::pair<const Target*, QByteArray>> staged; // target, temporary file
    try {
        for (std::size_t k = 0; k < files.size(); ++k)
            if (targets[k].kind == Kind::Regular)
                staged.emplace_back(&targets[k], stage(targets[k], files[k].second));
    } catch (...) {
        for (const auto& each : staged)
            ::unlink(each.second.constData());
        throw;
    }

    QStringList replaced;
    for (std::size_t k = 0; k < staged.size(); ++k) {
        const Target& target = *staged[k].first;
        if (::rename(staged[k].second.constData(), target.native.constData()) != 0) {
            const int error = errno;
            for (std::size_t rest = k; rest < staged.size(); ++rest)
                ::unlink(staged[rest].second.constData());
            std::string message = systemMessage(error);
            if (!replaced.isEmpty())
                message += "; these files were already written: " +
                           replaced.join(QStringLiteral(", ")).toStdString();
            fail(target.path, message);
        }
        replaced.append(target.path);
    }
    if (!staged.empty())
        syncFolderOf(staged.back().first->native);

    for (std::size_t k = 0; k < files.size(); ++k)
        if (targets[k].kind != Kind::Regular)
            writeThrough(targets[k], files[k].second);
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
