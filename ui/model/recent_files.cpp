#include "ui/model/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace attn::ui::recent {

void addFile(const QString& path)
{
    QSettings settings;
    QStringList list = settings.value(QStringLiteral("recentFiles")).toStringList();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxFiles)
        list.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), list);
}

void addModel(const QString& folder, const QString& text)
{
    const QString path = QFileInfo(folder).absoluteFilePath();
    addFile(path);
    QSettings settings;
    settings.beginGroup(QStringLiteral("recentModelTexts"));
    // Keys cannot hold slashes: the folder is stored as a value beside its text.
    const QString key = QString::number(qHash(path), 16);
    settings.setValue(key, QStringList{path, text});
}

QStringList files()
{
    return QSettings().value(QStringLiteral("recentFiles")).toStringList();
}

QString modelText(const QString& folder)
{
    const QString path = QFileInfo(folder).absoluteFilePath();
    QSettings settings;
    settings.beginGroup(QStringLiteral("recentModelTexts"));
    const QStringList entry = settings.value(QString::number(qHash(path), 16)).toStringList();
    return entry.size() == 2 && entry.front() == path ? entry.back() : QString();
}

bool isModelFolder(const QString& path)
{
    const QFileInfo info(path);
    return info.isDir() && QFileInfo::exists(QDir(path).filePath(QStringLiteral("config.json")));
}

} // namespace attn::ui::recent
