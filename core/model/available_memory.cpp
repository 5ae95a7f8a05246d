#include "core/model/available_memory.h"

#include "core/error.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace attn::core {

namespace {

constexpr std::int64_t kMiB = std::int64_t(1) << 20;
constexpr std::int64_t kGiB = std::int64_t(1) << 30;

// The first 4 KB of a small kernel file (those of /proc and /sys give their size as 0 or 4096).
QByteArray kernelFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(4096);
}

// "MemAvailable:   12345678 kB" in /proc/meminfo (proc(5)); -1 without it (before Linux 3.14).
std::int64_t memAvailable()
{
    for (const QByteArray& line : kernelFile(QStringLiteral("/proc/meminfo")).split('\n')) {
        if (!line.startsWith("MemAvailable:"))
            continue;
        bool ok = false;
        const QByteArray kb = line.mid(13).trimmed();
        const qint64 value = kb.left(kb.indexOf(' ')).toLongLong(&ok);
        return ok && value >= 0 ? value * 1024 : -1;
    }
    return -1;
}

// The headroom of the process's cgroup v2 and its parents: memory.max less memory.current,
// the least over the path; -1 where no level has a limit (cgroup v1, or none set).
std::int64_t cgroupHeadroom()
{
    // "0::/user.slice/user-1000.slice/session-2.scope": the v2 entry of /proc/self/cgroup.
    QByteArray path;
    for (const QByteArray& line : kernelFile(QStringLiteral("/proc/self/cgroup")).split('\n'))
        if (line.startsWith("0::"))
            path = line.mid(3).trimmed();
    if (!path.startsWith('/'))
        return -1;
    std::int64_t least = -1;
    for (;;) {
        const QString dir =
            QStringLiteral("/sys/fs/cgroup") + QString::fromUtf8(path == "/" ? QByteArray() : path);
        bool maxOk = false, currentOk = false;
        const qint64 max =
            kernelFile(dir + QStringLiteral("/memory.max")).trimmed().toLongLong(&maxOk);
        const qint64 current =
            kernelFile(dir + QStringLiteral("/memory.current")).trimmed().toLongLong(&currentOk);
        if (maxOk && currentOk) { // "max" (no limit) does not parse
            // memory.current counts the page cache too, which the kernel drops before it runs
            // out ("file" in memory.stat; the kernel's cgroup-v2.rst).
            qint64 cache = 0;
            for (const QByteArray& line :
                 kernelFile(dir + QStringLiteral("/memory.stat")).split('\n'))
                if (line.startsWith("file "))
                    cache = std::max<qint64>(0, line.mid(5).trimmed().toLongLong());
            const std::int64_t headroom =
                std::max<std::int64_t>(0, max - std::max<qint64>(0, current - cache));
            least = least < 0 ? headroom : std::min(least, headroom);
        }
        if (path == "/")
            return least;
        path.truncate(std::max<qsizetype>(1, path.lastIndexOf('/')));
    }
}

// ulimit -v less the address space in use (the first field of /proc/self/statm, in pages);
// -1 without a limit.
std::int64_t addressSpaceHeadroom()
{
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return -1;
    bool ok = false;
    const QByteArray statm = kernelFile(QStringLiteral("/proc/self/statm"));
    const qint64 pages = statm.left(statm.indexOf(' ')).toLongLong(&ok);
    if (!ok)
        return -1;
    const std::int64_t used = pages * std::int64_t(sysconf(_SC_PAGESIZE));
    return std::max<std::int64_t>(0, std::int64_t(limit.rlim_cur) - used);
}

} // namespace

AvailableMemory availableMemory()
{
    AvailableMemory available;
    auto lower = [&](std::int64_t bytes, const char* source) {
        if (bytes >= 0 && (available.bytes < 0 || bytes < available.bytes))
            available = {bytes, source};
    };
    lower(memAvailable(), "MemAvailable in /proc/meminfo");
    lower(cgroupHeadroom(), "the cgroup's memory.max");
    lower(addressSpaceHeadroom(), "ulimit -v");
    if (const char* budget = std::getenv("ATTN_MEMORY_LIMIT_MIB")) {
        bool ok = false;
        const qint64 mib = QByteArray(budget).trimmed().toLongLong(&ok);
        if (!ok || mib < 0 || mib > (std::int64_t(1) << 40))
            throw Error(
                std::string("ATTN_MEMORY_LIMIT_MIB: expected a whole number of MiB, got '") +
                budget + "'");
        lower(mib * kMiB, "ATTN_MEMORY_LIMIT_MIB");
    }
    return available;
}

std::int64_t memoryToLoad(std::int64_t float32Bytes)
{
    return float32Bytes + float32Bytes / 8 + 64 * kMiB;
}

std::string memoryText(std::int64_t bytes)
{
    const bool gib = bytes >= kGiB;
    return QByteArray::number(double(bytes) / double(gib ? kGiB : kMiB), 'f', 1).toStdString() +
           (gib ? " GiB" : " MiB");
}

} // namespace attn::core
