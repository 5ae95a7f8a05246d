#pragma once

// Crash-recovery copies as a session that ended without closing leaves them (RecoveryStore's
// layout: scene-<id>.json, a header line before the work, and scene-<id>.lock), for the
// recovery tests.

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QSysInfo>
#include <QUuid>

namespace attn::test {

// A copy and its lock in `directory`; the lock names process `pid`; `kind` is "scene" (the
// explorer's) or "model". Returns the copy's path, empty when a file could not be written.
inline QString leaveRecoveryCopy(const QString& directory, const QByteArray& content,
                                 const QString& original, qint64 pid,
                                 const QString& kind = QStringLiteral("scene"),
                                 const QString& name = QString())
{
    const QDir dir(directory);
    dir.mkpath(QStringLiteral("."));
    const QString base =
        dir.filePath(QStringLiteral("scene-") + QUuid::createUuid().toString(QUuid::WithoutBraces));
    const QByteArray header =
        QJsonDocument(QJsonObject{{QStringLiteral("attentionExplorerRecoveryCopy"), 1},
                                  {QStringLiteral("kind"), kind},
                                  {QStringLiteral("originalPath"), original},
                                  {QStringLiteral("name"), name}})
            .toJson(QJsonDocument::Compact) +
        '\n';
    QFile copy(base + QStringLiteral(".json"));
    if (!copy.open(QIODevice::WriteOnly) ||
        copy.write(header + content) != header.size() + content.size())
        return QString();
    copy.close();
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
