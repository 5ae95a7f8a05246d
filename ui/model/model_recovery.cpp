#include "ui/model/model_recovery.h"

#include "ui/explorer/crash_recovery.h"
#include "ui/explorer/recovery_offers.h"
#include "ui/model/model_document.h"
#include "ui/model/model_scene_files.h"
#include "ui/model/model_window.h"

#include "core/error.h"
#include "core/scene_json.h"

#include <QDir>
#include <QFileInfo>
#include <QStatusBar>

namespace attn::ui {

namespace {

// The scene path a copy's model folder is written relative to (and read back against): the
// file the work came from, else the recovery folder itself.
QString scenePathForCopy(const QString& originalPath)
{
    return originalPath.isEmpty()
               ? QDir(CrashRecovery::directory()).filePath(QStringLiteral("untitled.json"))
               : originalPath;
}

} // namespace

ModelRecovery::ModelRecovery(ModelWindow& window, ModelSceneFiles& files)
    : QObject(&window), m_window(window), m_files(files)
{
    ModelDocument& document = *window.document();
    m_store = new RecoveryStore(
        CrashRecovery::directory(), RecoveryStore::Kind::Model,
        [&document]() -> std::optional<RecoveryStore::Snapshot> {
            if (!document.isModified() || !document.hasModel())
                return std::nullopt;
            // The checkpoint scene File > Save writes (a few kilobytes, edited heads aside),
            // written out as JSON on the store's worker.
            return RecoveryStore::Snapshot{
                [scene = sceneOfModel(document, scenePathForCopy(document.filePath()))] {
                    return core::sceneToJson(scene);
                },
                document.filePath(), document.displayName()};
        },
        this);
    connect(m_store, &RecoveryStore::saveFailed, this, [this](const QString& message) {
        m_window.statusBar()->showMessage(tr("Autosave failed: %1").arg(message), 6000);
    });
    m_offers = new RecoveryOffers(
        *m_store, *window.messageBar(),
        [this](const RecoveryStore::LeftCopy& copy) { restore(copy); }, this);
    // Every edit of the work is one of these; the store asks isModified() when its clock runs out.
    connect(&document, &ModelDocument::textChanged, m_store, &RecoveryStore::noteEdit);
    connect(&document, &ModelDocument::interventionsChanged, m_store, &RecoveryStore::noteEdit);
    connect(&document, &ModelDocument::modifiedChanged, m_store, [this](bool modified) {
        if (!modified)
            m_store->clear();
    });
    connect(&window, &ModelWindow::modelLoaded, this, &ModelRecovery::restoredModelLoaded);
    connect(&window, &ModelWindow::loadEnded, this, [this] {
        if (!m_restoring)
            return; // loaded (restoredModelLoaded came first), or not a restore
        const Restoring failed = *m_restoring;
        m_restoring.reset();
        m_offers->restoreFailed(failed.copy, tr("its model %1 was not opened").arg(failed.model));
    });
}

void ModelRecovery::offerLeftCopies()
{
    m_offers->offer(m_store->claimLeftCopies(RecoveryStore::Kind::Model));
}

void ModelRecovery::restoreLeftCopy(const QString& copyPath)
{
    if (const std::optional<RecoveryStore::LeftCopy> copy = m_store->claim(copyPath))
        restore(*copy);
}

void ModelRecovery::closedCleanly()
{
    m_store->clear();
}

void ModelRecovery::restore(const RecoveryStore::LeftCopy& copy)
{
    if (!m_files.maybeSave()) {
        m_offers->offerAgain(copy);
        return;
    }
    try {
        const core::Scene scene =
            core::sceneFromJson(RecoveryStore::readContent(copy.path),
                                QFileInfo(scenePathForCopy(copy.originalPath)).absolutePath());
        if (!scene.checkpoint)
            throw core::Error("it names no model");
        const core::CheckpointReference& c = *scene.checkpoint;
        m_restoring = Restoring{copy, c.resolved, scene.text, copy.originalPath};
        m_window.openModel(c.resolved, scene.text, interventionsOfScene(c), headKindOfScene(c),
                           c.layer, c.head, copy.originalPath);
    } catch (const std::exception& error) {
        m_offers->restoreFailed(copy, QString::fromUtf8(error.what()));
    }
}

void ModelRecovery::restoredModelLoaded()
{
    ModelDocument& document = *m_window.document();
    // The load the restore started (another one started since would have cancelled it).
    if (!m_restoring || document.text() != m_restoring->text ||
        document.filePath() != m_restoring->originalPath)
        return;
    const RecoveryStore::LeftCopy copy = m_restoring->copy;
    m_restoring.reset();
    document.markModified();
    // The old copy goes only once this window's own copy holds the work.
    if (m_store->saveNow())
        m_store->remove(copy);
    m_offers->offerNext();
}

} // namespace attn::ui
