#include "ui/document/recovery_store.h"

#include "core/atomic_file.h"
#include "core/enum_names.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/regular_file.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QUuid>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>

namespace attn::ui {

namespace {

constexpr int kDefaultIntervalMs = 2000;
// The clock waits at least this many times as long as the last copy took to write: a copy of
// a few megabytes (tens of milliseconds) every 2 s, one that takes 3 s every 30 s.
constexpr qint64 kWriteTimeFactor = 10;
// The header's key and version, and the longest header read (a path is at most 4096 bytes).
const QString kFormatKey = QStringLiteral("attentionExplorerRecoveryCopy");
constexpr qint64 kMaxHeaderBytes = 64 * 1024;

constexpr core::EnumNames<RecoveryStore::Kind, 2> kKindNames{
    {{RecoveryStore::Kind::Scene, "scene"}, {RecoveryStore::Kind::Model, "model"}}};

QString kindName(RecoveryStore::Kind kind)
{
    return core::enumQName(kKindNames, kind);
}

// Copies written before the header existed kept their original path in a file beside them.
QString legacyPathFile(const QString& copyPath)
{
    return copyPath + QStringLiteral(".path");
}

QString lockPathOf(const QDir& dir, const QString& copyPath)
{
    return dir.filePath(QFileInfo(copyPath).completeBaseName() + QStringLiteral(".lock"));
}

// The header of a copy that begins with `start`, or nullopt when it has none (a legacy copy).
std::optional<QJsonObject> headerOf(const QByteArray& start, qsizetype* length = nullptr)
{
    const auto* newline = static_cast<const char*>(std::memchr(
        start.constData(), '\n', std::size_t(std::min<qint64>(start.size(), kMaxHeaderBytes))));
    if (!newline)
        return std::nullopt;
    const qsizetype end = newline - start.constData();
    const QJsonObject header = QJsonDocument::fromJson(start.left(end)).object();
    if (header.value(kFormatKey).toInt() != 1)
        return std::nullopt;
    if (length)
        *length = end + 1;
    return header;
}

// Takes the lock of a session that is gone. QLockFile takes a lock whose process is dead; one
// naming this very process id was left by an earlier process that had the same id (a
// restarted container), since this session's own lock names are new.
std::unique_ptr<QLockFile> claimIfLeft(const QString& lockPath)
{
    auto lock = std::make_unique<QLockFile>(lockPath);
    lock->setStaleLockTime(0);
    if (lock->tryLock(0))
        return lock;
    qint64 pid = 0;
    QString host, application;
    if (lock->error() == QLockFile::LockFailedError &&
        lock->getLockInfo(&pid, &host, &application) && pid == QCoreApplication::applicationPid() &&
        lock->removeStaleLockFile() && lock->tryLock(0))
        return lock;
    return nullptr;
}

} // namespace

RecoveryStore::RecoveryStore(const QString& directory, Kind kind, SnapshotSource source,
                             QObject* parent)
    : QObject(parent), m_directory(directory), m_kind(kind), m_source(std::move(source)),
      m_interval(kDefaultIntervalMs)
{
    QDir().mkpath(m_directory);
    core::removeStaleTemporaries(m_directory, QStringLiteral("scene-.+\\.json"));
    const QString base =
        QDir(m_directory)
            .filePath(
                QStringLiteral("scene-%1").arg(QUuid::createUuid().toString(QUuid::WithoutBraces)));
    m_copyPath = base + QStringLiteral(".json");
    m_lock = std::make_unique<QLockFile>(base + QStringLiteral(".lock"));
    m_lock->setStaleLockTime(0);
    m_lock->tryLock(0);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &RecoveryStore::saveInBackground);
}

RecoveryStore::~RecoveryStore()
{
    m_worker.stop(); // a copy being written is finished; one waiting is dropped
}

int RecoveryStore::nextDelay() const
{
    return int(std::clamp<qint64>(kWriteTimeFactor * m_lastWriteMs.load(), m_interval,
                                  std::numeric_limits<int>::max()));
}

void RecoveryStore::noteEdit()
{
    if (m_writing)
        m_editedWhileWriting = true; // the clock starts once the copy is out and timed
    else if (!m_timer.isActive())
        m_timer.start(nextDelay());
}

bool RecoveryStore::saveNow()
{
    m_timer.stop();
    m_editedWhileWriting = false;
    try {
        write(++m_sequence, m_source ? m_source() : std::nullopt);
        return true;
    } catch (const std::exception& error) {
        emit saveFailed(QString::fromUtf8(error.what()));
        return false;
    }
}

void RecoveryStore::saveInBackground()
{
    std::optional<Snapshot> snapshot = m_source ? m_source() : std::nullopt;
    const quint64 sequence = ++m_sequence;
    m_writing = true;
    m_worker.submit(
        [this, sequence, snapshot = std::move(snapshot)](quint64, const std::atomic<bool>*) {
            QString failure;
            try {
                write(sequence, snapshot);
            } catch (const std::exception& error) {
                failure = QString::fromUtf8(error.what());
            }
            m_mailbox.post([this, failure] {
                m_writing = false;
                if (std::exchange(m_editedWhileWriting, false))
                    noteEdit();
                if (!failure.isEmpty())
                    emit saveFailed(failure);
            });
        });
}

void RecoveryStore::write(quint64 sequence, const std::optional<Snapshot>& snapshot)
{
    if (!snapshot) {
        apply(sequence, std::nullopt, QByteArray());
        return;
    }
    QElapsedTimer clock;
    clock.start();
    const QJsonObject header{{kFormatKey, 1},
                             {QStringLiteral("kind"), kindName(m_kind)},
                             {QStringLiteral("originalPath"), snapshot->originalPath},
                             {QStringLiteral("name"), snapshot->name}};
    apply(sequence, snapshot->content(),
          QJsonDocument(header).toJson(QJsonDocument::Compact) + '\n');
    m_lastWriteMs = clock.elapsed();
}

void RecoveryStore::apply(quint64 sequence, const std::optional<QByteArray>& content,
                          const QByteArray& header)
{
    const std::lock_guard lock(m_fileMutex);
    if (sequence <= m_newestApplied)
        return; // a newer save or clear is already on disk
    m_newestApplied = sequence;
    if (!content) {
        QFile::remove(m_copyPath);
        return;
    }
    // One file, one rename: a crash leaves the old copy or the new one, each with its header.
    core::writeFileAtomically(m_copyPath, std::vector<QByteArrayView>{header, *content});
}

void RecoveryStore::clear()
{
    m_timer.stop();
    m_editedWhileWriting = false;
    apply(++m_sequence, std::nullopt, QByteArray());
}

RecoveryStore::LeftCopy RecoveryStore::describe(const QString& path)
{
    const QFileInfo info(path);
    LeftCopy copy{info.absoluteFilePath(), Kind::Scene, QString(), QString(), info.lastModified()};
    std::unique_ptr<QFile> file;
    try {
        file = core::openRegularFile(path, core::kMaxSceneFileBytes + kMaxHeaderBytes);
    } catch (const core::Error&) {
        return copy; // offered all the same: restoring it says why it cannot be read
    }
    if (const std::optional<QJsonObject> header = headerOf(file->read(kMaxHeaderBytes))) {
        copy.kind = core::enumFromName(kKindNames, header->value(QStringLiteral("kind")).toString())
                        .value_or(Kind::Scene);
        copy.originalPath = header->value(QStringLiteral("originalPath")).toString();
        copy.name = header->value(QStringLiteral("name")).toString();
        return copy;
    }
    QFile original(legacyPathFile(path));
    if (original.open(QIODevice::ReadOnly))
        copy.originalPath = QString::fromUtf8(original.read(kMaxHeaderBytes));
    return copy;
}

QByteArray RecoveryStore::readContent(const QString& path)
{
    QByteArray bytes = core::readRegularFile(path, core::kMaxSceneFileBytes + kMaxHeaderBytes);
    if (qsizetype length = 0; headerOf(bytes, &length))
        bytes.remove(0, length); // moves no bytes: Qt 6 drops them from the front
    return bytes;
}

std::vector<RecoveryStore::LeftCopy> RecoveryStore::claimLeftCopies(std::optional<Kind> kind)
{
    const QDir dir(m_directory);
    std::vector<LeftCopy> left;
    for (const QFileInfo& info :
         dir.entryInfoList({QStringLiteral("scene-*.json")}, QDir::Files, QDir::Time)) {
        const QString path = info.absoluteFilePath();
        if (path == QFileInfo(m_copyPath).absoluteFilePath() || m_claimed.count(path))
            continue;
        const LeftCopy copy = describe(path);
        if (kind && copy.kind != *kind)
            continue; // another window's work: that window offers it
        std::unique_ptr<QLockFile> lock = claimIfLeft(lockPathOf(dir, path));
        if (!lock)
            continue; // its window is still open, or another one is offering it
        m_claimed[path] = std::move(lock);
        left.push_back(copy);
    }
    // Locks of sessions that crashed before their first autosave.
    for (const QFileInfo& info : dir.entryInfoList({QStringLiteral("scene-*.lock")}, QDir::Files)) {
        const QString copy = dir.filePath(info.completeBaseName() + QStringLiteral(".json"));
        if (QFile::exists(copy) ||
            info.absoluteFilePath() == QFileInfo(m_lock->fileName()).absoluteFilePath())
            continue;
        if (std::unique_ptr<QLockFile> lock = claimIfLeft(info.absoluteFilePath()))
            lock->unlock(); // removes the file
    }
    return left;
}

std::optional<RecoveryStore::LeftCopy> RecoveryStore::claim(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (!QFile::exists(absolute))
        return std::nullopt;
    if (!m_claimed.count(absolute)) {
        std::unique_ptr<QLockFile> lock = claimIfLeft(lockPathOf(QDir(m_directory), absolute));
        if (!lock)
            return std::nullopt;
        m_claimed[absolute] = std::move(lock);
    }
    return describe(absolute);
}

void RecoveryStore::remove(const LeftCopy& copy)
{
    QFile::remove(copy.path);
    QFile::remove(legacyPathFile(copy.path));
    release(copy);
}

void RecoveryStore::release(const LeftCopy& copy)
{
    if (auto claimed = m_claimed.find(copy.path); claimed != m_claimed.end()) {
        claimed->second->unlock(); // removes the lock file
        m_claimed.erase(claimed);
    }
}

} // namespace attn::ui
