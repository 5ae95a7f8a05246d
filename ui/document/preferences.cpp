#include "ui/document/preferences.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include <type_traits>

namespace attn::ui::preferences {

namespace {

// The keys, as earlier versions stored them (so nothing a user had is forgotten).
const QString kSceneDirectory = QStringLiteral("lastDirectory");
const QString kModelDirectory = QStringLiteral("lastModelDirectory");
const QString kRecentFiles = QStringLiteral("recentFiles");
const QString kRecentModelTexts = QStringLiteral("recentModelTexts");
const QString kExportGroup = QStringLiteral("export");
const QString kBackendNoticeDismissed = QStringLiteral("backendNoticeDismissed");

template <typename T> std::optional<T> optionalValue(const QSettings& settings, const QString& key)
{
    const QVariant value = settings.value(key);
    if (!value.isValid() || !value.canConvert<T>())
        return std::nullopt;
    return value.value<T>();
}

// Each export choice with its key (ExportChoices or const ExportChoices).
template <typename Choices, typename Visit> void forEachChoice(Choices& c, Visit visit)
{
    visit(QStringLiteral("format"), c.format);
    visit(QStringLiteral("unit"), c.unit);
    visit(QStringLiteral("width"), c.width);
    visit(QStringLiteral("height"), c.height);
    visit(QStringLiteral("dpi"), c.dpi);
    visit(QStringLiteral("colormap"), c.colormap);
    visit(QStringLiteral("fontPoints"), c.fontPoints);
    visit(QStringLiteral("colorBar"), c.colorBar);
    visit(QStringLiteral("showValues"), c.showValues);
    visit(QStringLiteral("precision"), c.precision);
    visit(QStringLiteral("matrixStage"), c.matrixStage);
    visit(QStringLiteral("matrixFormat"), c.matrixFormat);
}

// Keys cannot hold slashes: a folder is stored as a value beside its text, under its hash.
QString modelKey(const QString& absolutePath)
{
    return QString::number(qHash(absolutePath), 16);
}

} // namespace

QString sceneDirectory()
{
    return QSettings().value(kSceneDirectory, QDir::homePath()).toString();
}

void rememberSceneFile(const QString& path)
{
    QSettings().setValue(kSceneDirectory, QFileInfo(path).absolutePath());
}

QString modelDirectory()
{
    return QSettings().value(kModelDirectory, QDir::homePath()).toString();
}

void setModelDirectory(const QString& folder)
{
    QSettings().setValue(kModelDirectory, folder);
}

QString exportDirectory()
{
    QSettings settings;
    settings.beginGroup(kExportGroup);
    return settings.value(QStringLiteral("directory")).toString();
}

void rememberExportFile(const QString& path)
{
    QSettings settings;
    settings.beginGroup(kExportGroup);
    settings.setValue(QStringLiteral("directory"), QFileInfo(path).absolutePath());
}

QStringList recentFiles()
{
    return QSettings().value(kRecentFiles).toStringList();
}

void addRecentFile(const QString& path)
{
    QSettings settings;
    QStringList list = settings.value(kRecentFiles).toStringList();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxRecentFiles)
        list.removeLast();
    settings.setValue(kRecentFiles, list);
}

void clearRecentFiles()
{
    QSettings().remove(kRecentFiles);
}

void addRecentModel(const QString& folder, const QString& text)
{
    const QString path = QFileInfo(folder).absoluteFilePath();
    addRecentFile(path);
    QSettings settings;
    settings.beginGroup(kRecentModelTexts);
    settings.setValue(modelKey(path), QStringList{path, text});
}

QString recentModelText(const QString& folder)
{
    const QString path = QFileInfo(folder).absoluteFilePath();
    QSettings settings;
    settings.beginGroup(kRecentModelTexts);
    const QStringList entry = settings.value(modelKey(path)).toStringList();
    return entry.size() == 2 && entry.front() == path ? entry.back() : QString();
}

bool isModelFolder(const QString& path)
{
    const QFileInfo info(path);
    return info.isDir() && QFileInfo::exists(QDir(path).filePath(QStringLiteral("config.json")));
}

WindowLayout windowLayout(const QString& window)
{
    // The explorer's layout was kept under "window/" before there were two windows.
    QSettings settings;
    settings.beginGroup(window == QLatin1String("explorer") ? QStringLiteral("window")
                                                            : window + QStringLiteral("Window"));
    return {settings.value(QStringLiteral("geometry")).toByteArray(),
            settings.value(QStringLiteral("state")).toByteArray()};
}

void setWindowLayout(const QString& window, const WindowLayout& layout)
{
    QSettings settings;
    settings.beginGroup(window == QLatin1String("explorer") ? QStringLiteral("window")
                                                            : window + QStringLiteral("Window"));
    settings.setValue(QStringLiteral("geometry"), layout.geometry);
    settings.setValue(QStringLiteral("state"), layout.state);
}

bool backendNoticeDismissed()
{
    return QSettings().value(kBackendNoticeDismissed, false).toBool();
}

void setBackendNoticeDismissed(bool dismissed)
{
    QSettings().setValue(kBackendNoticeDismissed, dismissed);
}

ExportChoices exportChoices()
{
    QSettings settings;
    settings.beginGroup(kExportGroup);
    ExportChoices choices;
    forEachChoice(choices, [&](const QString& key, auto& field) {
        field = optionalValue<typename std::decay_t<decltype(field)>::value_type>(settings, key);
    });
    return choices;
}

void storeExportChoices(const ExportChoices& choices)
{
    QSettings settings;
    settings.beginGroup(kExportGroup);
    forEachChoice(choices, [&](const QString& key, const auto& field) {
        if (field)
            settings.setValue(key, *field);
    });
}

} // namespace attn::ui::preferences
