#include "ui/explorer/scene_files.h"

#include "ui/document/file_names.h"
#include "ui/document/file_prompts.h"
#include "ui/document/preferences.h"
#include "ui/document/scene_document.h"
#include "ui/widgets/message_bar.h"

#include "core/scene_json.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QStatusBar>

namespace attn::ui {

SceneFiles::SceneFiles(QWidget& window, SceneDocument& document, MessageBar& messages,
                       QStatusBar& status, WindowHooks hooks)
    : QObject(&window), m_window(window), m_document(document), m_messages(messages),
      m_status(status), m_hooks(std::move(hooks))
{
}

bool SceneFiles::maybeSave()
{
    return askToSaveChanges(&m_window, m_document.isModified(), m_document.displayName(),
                            [this] { return save(); });
}

void SceneFiles::openDialog()
{
    if (!maybeSave())
        return;
    const QString path = askForSceneToOpen(&m_window);
    if (!path.isEmpty())
        openFile(path);
}

bool SceneFiles::openFile(const QString& path)
{
    try {
        const core::Scene scene = core::loadScene(path);
        if (scene.checkpoint) // a real model's scene: the model window opens it
            return m_hooks.openModelScene(QFileInfo(path).absoluteFilePath());
        m_hooks.showScene(scene, QFileInfo(path).absoluteFilePath());
        preferences::addRecentFile(QFileInfo(path).absoluteFilePath());
        m_messages.clearMessage(QStringLiteral("file"));
        m_status.showMessage(tr("Opened %1").arg(QFileInfo(path).fileName()), 4000);
        return true;
    } catch (const std::exception& error) {
        m_messages.showMessage(
            QStringLiteral("file"), MessageBar::Level::Error,
            tr("Could not open %1. The scene you have open is unchanged.\n%2")
                .arg(QFileInfo(path).fileName(), QString::fromUtf8(error.what())));
    }
    return false;
}

bool SceneFiles::saveFile(const QString& path)
{
    try {
        core::saveScene(m_document.scene(), path);
    } catch (const std::exception& error) {
        m_messages.showMessage(QStringLiteral("file"), MessageBar::Level::Error,
                               tr("Could not save: %1").arg(QString::fromUtf8(error.what())));
        return false;
    }
    m_document.markSaved(QFileInfo(path).absoluteFilePath());
    preferences::addRecentFile(QFileInfo(path).absoluteFilePath());
    m_messages.clearMessage(QStringLiteral("file"));
    m_status.showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

bool SceneFiles::save()
{
    return m_document.filePath().isEmpty() ? saveAs() : saveFile(m_document.filePath());
}

bool SceneFiles::saveAs()
{
    QString path = QFileDialog::getSaveFileName(&m_window, tr("Save Scene As"), suggestedSavePath(),
                                                sceneFileFilter());
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += kSceneSuffix;
    preferences::rememberSceneFile(path);
    return saveFile(path);
}

QString SceneFiles::suggestedSavePath() const
{
    if (!m_document.filePath().isEmpty())
        return m_document.filePath();
    const QString name =
        fileNameFromTitle(m_document.scene().title, QStringLiteral("scene")) + kSceneSuffix;
    return QDir(preferences::sceneDirectory()).filePath(name);
}

void SceneFiles::fillRecentMenu(QMenu& menu)
{
    fillRecentFilesMenu(menu, [this](const QString& path, bool isModel) {
        if (isModel) // opened in a model window: this scene stays
            m_hooks.openModel(path);
        else if (maybeSave())
            openFile(path);
    });
}

void SceneFiles::fillExamplesMenu(QMenu& menu)
{
    if (!menu.isEmpty())
        return;
    const QFileInfoList examples =
        QDir(QStringLiteral(":/examples"))
            .entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QFileInfo& info : examples) {
        // Titled by each scene's own title (the file name if it has none), described by its
        // description when the pointer rests on it.
        QString title = info.completeBaseName();
        QString description;
        QFile file(info.filePath());
        if (file.open(QIODevice::ReadOnly)) {
            const QJsonObject object = QJsonDocument::fromJson(file.readAll()).object();
            if (!object.value(QStringLiteral("title")).toString().isEmpty())
                title = object.value(QStringLiteral("title")).toString();
            description = object.value(QStringLiteral("description")).toString();
        }
        const QString path = info.filePath();
        QAction* action = menu.addAction(title, this, [this, path] {
            if (!maybeSave())
                return;
            try {
                m_hooks.showScene(core::loadScene(path), QString()); // examples are read-only
            } catch (const std::exception& error) {
                m_messages.showMessage(QStringLiteral("file"), MessageBar::Level::Error,
                                       QString::fromUtf8(error.what()));
            }
        });
        action->setToolTip(description);
        action->setStatusTip(description);
    }
    menu.setToolTipsVisible(true);
    if (examples.isEmpty())
        menu.addAction(tr("No examples in this build"))->setEnabled(false);
}

} // namespace attn::ui
