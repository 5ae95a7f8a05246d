#pragma once

#include "core/scene.h"

#include <QObject>
#include <QString>
#include <functional>

class QMenu;
class QStatusBar;
class QWidget;

namespace attn::ui {

class MessageBar;
class SceneDocument;

// The explorer window's file jobs, kept out of the window as Tiled keeps them in its
// DocumentManager: the unsaved-changes question, Open, Save and Save As, and the Open Recent and
// Examples menus. Errors go to the window's message bar and never replace the open scene.
class SceneFiles : public QObject
{
    Q_OBJECT

public:
    struct WindowHooks
    {
        // Shows a scene read from `path` (empty for an example: Save then asks where).
        std::function<void(const core::Scene& scene, const QString& path)> showScene;
        // A scene of a real model: opened in a model window.
        std::function<bool(const QString& path)> openModelScene;
        // A model folder from the recent list.
        std::function<void(const QString& folder)> openModel;
    };

    SceneFiles(QWidget& window, SceneDocument& document, MessageBar& messages, QStatusBar& status,
               WindowHooks hooks);

    // True when there is nothing unsaved, or it was saved or discarded; false on Cancel.
    bool maybeSave();
    // Asks about unsaved changes, then for a file.
    void openDialog();
    // Opens without asking about unsaved changes; false (and a message) on any error, the open
    // scene unchanged.
    bool openFile(const QString& path);
    bool saveFile(const QString& path);
    bool save();
    bool saveAs();
    // The file itself, or a name from the scene's title in the last folder used.
    QString suggestedSavePath() const;

    void fillRecentMenu(QMenu& menu);
    void fillExamplesMenu(QMenu& menu);

private:
    QWidget& m_window;
    SceneDocument& m_document;
    MessageBar& m_messages;
    QStatusBar& m_status;
    WindowHooks m_hooks;
};

} // namespace attn::ui
