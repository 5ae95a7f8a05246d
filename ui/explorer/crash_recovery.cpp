#include "ui/explorer/crash_recovery.h"

#include "core/error.h"
#include "core/scene_json.h"
#include "ui/document/scene_document.h"
#include "ui/explorer/recovery_offers.h"
#include "ui/explorer/scene_files.h"
#include "ui/model/model_recovery.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QStatusBar>

namespace attn::ui {

CrashRecovery::CrashRecovery(SceneDocument& document, SceneFiles& files, MessageBar& messages,
                             QStatusBar& status, ShowRestored showRestored,
                             NewModelWindow newModelWindow, QObject* parent)
    : QObject(parent), m_document(document), m_files(files),
      m_showRestored(std::move(showRestored)), m_newModelWindow(std::move(newModelWindow))
{
    m_store = new RecoveryStore(
        directory(), RecoveryStore::Kind::Scene,
        [this]() -> std::optional<RecoveryStore::Snapshot> {
            if (!m_document.isModified())
                return std::nullopt;
            // A copy of the scene (milliseconds), written out as JSON on the store's worker.
            return RecoveryStore::Snapshot{
                [scene = m_document.scene()] { return core::sceneToJson(scene); },
                m_document.filePath(), m_document.displayName()};
        },
        this);
    m_offers = new RecoveryOffers(
        *m_store, messages, [this](const RecoveryStore::LeftCopy& copy) { restore(copy); }, this);
    connect(m_store, &RecoveryStore::saveFailed, this, [&status](const QString& message) {
        status.showMessage(tr("Autosave failed: %1").arg(message), 6000);
    });
    // Not gated on isModified(): during QUndoStack::push the stack's index has not moved yet.
    // The store asks when its clock runs out.
    connect(&m_document, &SceneDocument::sceneChanged, m_store, [this](SceneChanges what) {
        if (what != SceneChanges(SceneChange::View)) // a view setting alone is no unsaved change
            m_store->noteEdit();
    });
    connect(&m_document, &SceneDocument::modifiedChanged, m_store, [this](bool modified) {
        if (!modified)
            m_store->clear();
    });
}

QString CrashRecovery::directory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/recovery");
}

void CrashRecovery::offerLeftCopies()
{
    m_offers->offer(m_store->claimLeftCopies());
}

void CrashRecovery::closedCleanly()
{
    m_store->clear();
}

void CrashRecovery::restore(const RecoveryStore::LeftCopy& copy)
{
    if (copy.kind == RecoveryStore::Kind::Model) {
        // A model window of its own restores it, and deletes it once its copy holds the work.
        // Released only once that window exists, so that it does not offer it a second time.
        ModelRecovery* window = m_newModelWindow();
        m_store->release(copy);
        window->restoreLeftCopy(copy.path);
        m_offers->offerNext();
        return;
    }
    if (!m_files.maybeSave()) {
        m_offers->offerAgain(copy);
        return;
    }
    try {
        // Relative paths inside (word vectors, a model folder) are relative to the file the
        // work was opened from, not to the recovery folder.
        const QString baseDir = copy.originalPath.isEmpty()
                                    ? QDir::currentPath()
                                    : QFileInfo(copy.originalPath).absolutePath();
        const core::Scene scene =
            core::sceneFromJson(RecoveryStore::readContent(copy.path), baseDir);
        core::Scene asOpened = scene;
        if (!copy.originalPath.isEmpty()) {
            try {
                asOpened = core::loadScene(copy.originalPath);
            } catch (const core::Error&) {
                // The saved file is gone or no longer reads: the restored work stands for it.
            }
        }
        m_showRestored(scene, copy.originalPath, asOpened);
    } catch (const std::exception& error) {
        // The copy stays on disk (and is offered again at the next start).
        m_offers->restoreFailed(copy, QString::fromUtf8(error.what()));
        return;
    }
    // The old copy goes only once this session's own copy holds the work.
    if (m_store->saveNow())
        m_store->remove(copy);
    m_offers->offerNext();
}

} // namespace attn::ui
