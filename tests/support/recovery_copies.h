#pragma once

// Crash-recovery copies as a session that ended without closing leaves them (RecoveryStore's
// layout: scene-<id>.json, .json.path and .lock), for the recovery tests.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QSysInfo>
#include <QUuid>

namespace attn::test {

// A copy and its lock in `directory`; the lock names process `pid`. Returns the copy's path,
// empty when a file could not be written.
inline QString leaveRecoveryCopy(const QString& directory, const QByteArray& content,
                                 const QString& original, qint64 pid)
{
    const QDir dir(directory);
    dir.mkpath(QStringLiteral("."));
    const QString base =
        dir.filePath(QStringLiteral("scene-") + QUuid::createUuid().toString(QUuid::WithoutBraces));
    QFile copy(base + QStringLiteral(".json"));
    if (!copy.open(QIODevice::WriteOnly) || copy.write(content) != content.size())
        return QString();
    copy.close();
    QFile path(base + QStringLiteral(".json.path"));
    if (!path.open(QIODevice::WriteOnly))
        return QString();
    path.write(original.toUtf8());
    QFile lock(base + QStringLiteral(".lock"));
    if (!lock.open(QIODevice::WriteOnly))
        return QString();
    lock.write(QByteArray::number(pid) + "\ntst_crash_recovery\n" +
               QSysInfo::machineHostName().toUtf8() + "\n");
    return base + QStringLiteral(".json");
}

inline QStringList filesIn(const QString& directory)
{
    return QDir(directory).entryList(QDir::Files | QDir::Hidden, QDir::Name);
}

} // namespace attn::test
