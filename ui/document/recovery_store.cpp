#include "ui/document/recovery_store.h"

#include "core/atomic_file.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QUuid>

namespace attn::ui {

namespace {

constexpr int kDefaultIntervalMs = 2000;

QString originalPathFile(const QString& copyPath)
{
    return copyPath + QStringLiteral(".path");
}

QString lockPathOf(const QDir& dir, const QString& copyPath)
{
    return dir.filePath(QFileInfo(copyPath).completeBaseName() + QStringLiteral(".lock"));
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

RecoveryStore::RecoveryStore(const QString& directory, SnapshotSource source, QObject* parent)
    : QObject(parent), m_directory(directory), m_source(std::move(source))
{
    QDir().mkpath(m_directory);
    const QString base =
        QDir(m_directory)
            .filePath(
                QStringLiteral("scene-%1").arg(QUuid::createUuid().toString(QUuid::WithoutBraces)));
    m_copyPath = base + QStringLiteral(".json");
    m_lock = std::make_unique<QLockFile>(base + QStringLiteral(".lock"));
    m_lock->setStaleLockTime(0);
    m_lock->tryLock(0);
    m_timer.setSingleShot(true);
    m_timer.setInterval(kDefaultIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &RecoveryStore::saveInBackground);
}

RecoveryStore::~RecoveryStore()
{
    m_worker.stop(); // a copy being written is finished; one waiting is dropped
}

void RecoveryStore::noteEdit()
{
    if (!m_timer.isActive())
        m_timer.start();
}

bool RecoveryStore::saveNow()
{
    m_timer.stop();
    const std::optional<Snapshot> snapshot = m_source ? m_source() : std::nullopt;
    try {
        if (snapshot)
            apply(++m_sequence, snapshot->content(), snapshot->originalPath);
        else
            apply(++m_sequence, std::nullopt, QString());
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
    m_worker.submit(
        [this, sequence, snapshot = std::move(snapshot)](quint64, const std::atomic<bool>*) {
            try {
                apply(sequence,
                      snapshot ? std::optional<QByteArray>(snapshot->content()) : std::nullopt,
                      snapshot ? snapshot->originalPath : QString());
            } catch (const std::exception& error) {
                m_mailbox.post([this, message = QString::fromUtf8(error.what())] {
                    emit saveFailed(message);
                });
            }
        });
}

void RecoveryStore::apply(quint64 sequence, const std::optional<QByteArray>& content,
                          const QString& originalPath)
{
    const std::lock_guard lock(m_fileMutex);
    if (sequence <= m_newestApplied)
        return; // a newer save or clear is already on disk
    m_newestApplied = sequence;
    if (!content) {
        QFile::remove(m_copyPath);
        QFile::remove(originalPathFile(m_copyPath));
        return;
    }
    core::writeFilesAtomically(
        {{m_copyPath, *content}, {originalPathFile(m_copyPath), originalPath.toUtf8()}});
}

void RecoveryStore::clear()
{
    m_timer.stop();
    apply(++m_sequence, std::nullopt, QString());
}

std::vector<RecoveryStore::LeftCopy> RecoveryStore::claimLeftCopies()
{
    const QDir dir(m_directory);
    std::vector<LeftCopy> left;
    for (const QFileInfo& info :
         dir.entryInfoList({QStringLiteral("scene-*.json")}, QDir::Files, QDir::Time)) {
        const QString path = info.absoluteFilePath();
        if (path == QFileInfo(m_copyPath).absoluteFilePath() || m_claimed.count(path))
            continue;
        std::unique_ptr<QLockFile> lock = claimIfLeft(lockPathOf(dir, path));
        if (!lock)
            continue; // its window is still open, or another one is offering it
        LeftCopy copy{path, QString(), info.lastModified()};
        QFile original(originalPathFile(path));
        if (original.open(QIODevice::ReadOnly))
            copy.originalPath = QString::fromUtf8(original.readAll());
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

void RecoveryStore::remove(const LeftCopy& copy)
{
    QFile::remove(copy.path);
    QFile::remove(originalPathFile(copy.path));
    if (auto claimed = m_claimed.find(copy.path); claimed != m_claimed.end()) {
        claimed->second->unlock(); // removes the lock file
        m_claimed.erase(claimed);
    }
}

} // namespace attn::ui
