#pragma once

#include "core/model/intervention.h"
#include "core/scene.h"
#include "ui/model/model_document.h"

#include <QObject>
#include <QString>
#include <functional>
#include <optional>

class QMenu;
class QStatusBar;
class QWidget;

namespace attn::ui {

// The scene that reopens what a model window shows (docs/SCENE_FORMAT.md, "checkpoint"): the
// model, named by its hub id where it lies in the Hugging Face cache (another machine's cache
// finds it) and otherwise by its folder relative to `scenePath`'s folder (the two move
// together); the text, the selected layer and head, the interventions.
core::Scene sceneOfModel(const ModelDocument& document, const QString& scenePath);
// A scene's interventions of the three kinds and the kind of head it selects (its "kind" was
// checked on reading; none where the file names none: the window's grid keeps its kind).
core::EncoderDecoderInterventions interventionsOfScene(const core::CheckpointReference& checkpoint);
std::optional<HeadKind> headKindOfScene(const core::CheckpointReference& checkpoint);

// The model window's files: scenes that name a checkpoint opened into it and saved from it,
// the unsaved-changes question, and the recent files and models.
class ModelSceneFiles : public QObject
{
    Q_OBJECT

public:
    struct WindowHooks
    {
        // Loads a model folder or id with a text, interventions, a selection and the scene it
        // came from (empty for none).
        std::function<void(const QString& folderOrId, const QString& text,
                           const core::EncoderDecoderInterventions& interventions,
                           std::optional<HeadKind> kind, int layer, int head,
                           const QString& scenePath)>
            openModel;
        // Shows an error in the window's message bar under `key`.
        std::function<void(const QString& key, const QString& text)> showError;
    };

    ModelSceneFiles(QWidget& window, ModelDocument& document, QStatusBar& status,
                    WindowHooks hooks);

    // A scene file with a checkpoint. False (with the reason in the message bar) otherwise.
    bool openScene(const QString& path);
    // Asks about unsaved changes, then for a scene file.
    void openDialog();
    // Writes sceneOfModel atomically; false (and why) on failure, the old file intact.
    bool saveFile(const QString& path);
    bool save();
    bool saveAs();
    // True when there is nothing unsaved, or it was saved or discarded; false on Cancel.
    bool maybeSave();
    void fillRecentMenu(QMenu& menu);

private:
    QWidget& m_window;
    ModelDocument& m_document;
    QStatusBar& m_status;
    WindowHooks m_hooks;
};

} // namespace attn::ui
