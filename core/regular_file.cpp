#include "regular_file.h"

#include "error.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace attn::core {
namespace {

std::string systemMessage(int error)
{
    return std::generic_category().message(error); // "No such file or directory"
}

[[noreturn]] void cannotRead(const QString& path, const std::string& why)
{
    throw Error("cannot read " + path.toStdString() + ": " + why);
}

// "16 MiB", "4 KiB", "1000 bytes": a limit as a person would say it.
std::string sizeText(qint64 bytes)
{
    if (bytes >= (qint64(1) << 20) && bytes % (qint64(1) << 20) == 0)
        return std::to_string(bytes >> 20) + " MiB";
    if (bytes >= 1024 && bytes % 1024 == 0)
        return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " bytes";
}

Error tooLarge(const QString& path, qint64 maxBytes, qint64 size)
{
    return Error(path.toStdString() + " is larger than " + sizeText(maxBytes) + " (" +
                 std::to_string(size) + " bytes)");
}

std::string kindOf(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISDIR(mode))
        return "a folder";
    return "neither a file nor a folder";
}

// Refuses anything but a regular file of at most maxBytes.
void check(const QString& path, const QByteArray& native, const struct stat& status,
           qint64 maxBytes)
{
    if (!S_ISREG(status.st_mode)) {
        std::string kind = kindOf(status.st_mode);
        struct stat entry
        {
        };
        if (::lstat(native.constData(), &entry) == 0 && S_ISLNK(entry.st_mode)) {
            char target[PATH_MAX];
            if (::realpath(native.constData(), target))
                kind = "a link to " + std::string(target) + ", " + kind;
        }
        throw Error(path.toStdString() + " is not a regular file (" + kind + ")");
    }
    if (qint64(status.st_size) > maxBytes)
        throw tooLarge(path, maxBytes, status.st_size);
}

} // namespace

std::unique_ptr<QFile> openRegularFile(const QString& path, qint64 maxBytes)
{
    auto file = std::make_unique<QFile>(path);
    if (path.startsWith(u':')) { // a Qt resource: compiled into the program
        if (!file->open(QIODevice::ReadOnly))
            cannotRead(path, file->errorString().toStdString());
        if (file->size() > maxBytes)
            throw tooLarge(path, maxBytes, file->size());
        return file;
    }
    if (path.isEmpty())
        cannotRead(path, "no file name given");
    const QByteArray native = QFile::encodeName(path);
    struct stat status
    {
    };
    if (::stat(native.constData(), &status) != 0) // follows links
        cannotRead(path, systemMessage(errno));
    check(path, native, status, maxBytes);
    // A FIFO put in its place since the stat above would block an ordinary open until a
    // writer comes; with O_NONBLOCK it opens at once, and fstat shows what was opened.
    const int fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        cannotRead(path, systemMessage(errno));
    try {
        if (::fstat(fd, &status) != 0)
            cannotRead(path, systemMessage(errno));
        check(path, native, status, maxBytes);
        const int flags = ::fcntl(fd, F_GETFL);
        if (flags != -1)
            ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    } catch (...) {
        ::close(fd);
        throw;
    }
    if (!file->open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        cannotRead(path, file->errorString().toStdString());
    }
    return file;
}

QByteArray readRegularFile(const QString& path, qint64 maxBytes)
{
    const std::unique_ptr<QFile> file = openRegularFile(path, maxBytes);
    QByteArray bytes = file->readAll();
    if (file->error() != QFileDevice::NoError)
        cannotRead(path, file->errorString().toStdString());
    if (bytes.size() > maxBytes) // it grew while being read
        throw tooLarge(path, maxBytes, bytes.size());
    return bytes;
}

} // namespace attn::core
