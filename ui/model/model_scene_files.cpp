#include "ui/model/model_scene_files.h"

#include "ui/document/file_names.h"
#include "ui/document/file_prompts.h"
#include "ui/document/preferences.h"
#include "ui/figures/figure_spec.h"
#include "ui/model/model_document.h"

#include "core/error.h"
#include "core/model/model_loader.h"
#include "core/scene_json.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>
#include <QWidget>

namespace attn::ui {

core::Scene sceneOfModel(const ModelDocument& document, const QString& scenePath)
{
    // The single-layer keys a scene file needs are kept (small, unused while a checkpoint
    // is named: SCENE_FORMAT.md); the text runs through the model.
    core::Scene scene = core::makeScene(document.text(), 8, 1, 1);
    scene.title = document.model()->name;
    core::CheckpointReference checkpoint;
    const QString folder = document.model()->folder;
    const QString hub = QDir(core::huggingFaceHubFolder()).absolutePath();
    if (QDir(folder).absolutePath().startsWith(hub + QLatin1Char('/')) &&
        !document.model()->name.isEmpty())
        checkpoint.path = document.model()->name;
    else
        checkpoint.path = QDir(QFileInfo(scenePath).absolutePath()).relativeFilePath(folder);
    checkpoint.resolved = folder;
    checkpoint.layer = document.selectedLayer();
    checkpoint.head = document.selectedHead();
    checkpoint.interventions = document.interventions();
    checkpoint.encoderInterventions = document.interventions(HeadKind::Encoder);
    checkpoint.crossInterventions = document.interventions(HeadKind::Cross);
    const HeadKind kind = document.selectedKind();
    if (document.model()->config().encoderDecoder()) // a model of one stack has one kind
        checkpoint.kind = kind == HeadKind::Encoder ? QStringLiteral("encoder")
                          : kind == HeadKind::Cross ? QStringLiteral("cross")
                                                    : QStringLiteral("decoder");
    scene.checkpoint = checkpoint;
    scene.view.view = figureViewName(FigureView::Head, document.selectedHead());
    return scene;
}

core::EncoderDecoderInterventions interventionsOfScene(const core::CheckpointReference& checkpoint)
{
    return {checkpoint.encoderInterventions, checkpoint.interventions,
            checkpoint.crossInterventions};
}

std::optional<HeadKind> headKindOfScene(const core::CheckpointReference& checkpoint)
{
    if (checkpoint.kind.isEmpty())
        return std::nullopt;
    return checkpoint.kind == QLatin1String("encoder") ? HeadKind::Encoder
           : checkpoint.kind == QLatin1String("cross") ? HeadKind::Cross
                                                       : HeadKind::Decoder;
}

ModelSceneFiles::ModelSceneFiles(QWidget& window, ModelDocument& document, QStatusBar& status,
                                 WindowHooks hooks)
    : QObject(&window), m_window(window), m_document(document), m_status(status),
      m_hooks(std::move(hooks))
{
}

bool ModelSceneFiles::openScene(const QString& path)
{
    try {
        const core::Scene scene = core::loadScene(path);
        if (!scene.checkpoint)
            throw core::Error(
                "this scene names no model (no \"checkpoint\"): open it in the explorer window");
        const core::CheckpointReference& c = *scene.checkpoint;
        m_hooks.openModel(c.resolved, scene.text, interventionsOfScene(c), headKindOfScene(c),
                          c.layer, c.head, QFileInfo(path).absoluteFilePath());
        return true;
    } catch (const std::exception& error) {
        m_hooks.showError(QStringLiteral("file"),
                          tr("Could not open %1. %2")
                              .arg(QFileInfo(path).fileName(), QString::fromUtf8(error.what())));
        return false;
    }
}

void ModelSceneFiles::openDialog()
{
    if (!maybeSave())
        return;
    const QString path = askForSceneToOpen(&m_window);
    if (!path.isEmpty())
        openScene(path);
}

bool ModelSceneFiles::saveFile(const QString& path)
{
    if (!m_document.hasModel())
        return false;
    try {
        core::saveScene(sceneOfModel(m_document, path), path);
    } catch (const std::exception& error) {
        m_hooks.showError(QStringLiteral("file"),
                          tr("Could not save: %1").arg(QString::fromUtf8(error.what())));
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_document.markSaved(absolute);
    preferences::addRecentFile(absolute);
    preferences::addRecentModel(m_document.model()->folder, m_document.text());
    m_status.showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 4000);
    return true;
}

bool ModelSceneFiles::save()
{
    return m_document.filePath().isEmpty() ? saveAs() : saveFile(m_document.filePath());
}

bool ModelSceneFiles::saveAs()
{
    if (!m_document.hasModel())
        return false;
    const QString suggested = m_document.filePath().isEmpty()
                                  ? QDir(preferences::sceneDirectory())
                                        .filePath(QFileInfo(m_document.model()->name).fileName() +
                                                  QStringLiteral(".json"))
                                  : m_document.filePath();
    QString path =
        QFileDialog::getSaveFileName(&m_window, tr("Save Scene As"), suggested, sceneFileFilter());
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    preferences::rememberSceneFile(path);
    return saveFile(path);
}

bool ModelSceneFiles::maybeSave()
{
    return askToSaveChanges(&m_window, m_document.isModified(), m_document.displayName(),
                            [this] { return save(); });
}

void ModelSceneFiles::fillRecentMenu(QMenu& menu)
{
    fillRecentFilesMenu(menu, [this](const QString& path, bool isModel) {
        if (!maybeSave())
            return;
        if (isModel)
            m_hooks.openModel(path, QString(), {}, std::nullopt, 0, 0, QString());
        else
            openScene(path);
    });
}

} // namespace attn::ui
