#include "ui/explorer/crash_recovery.h"

#include "core/error.h"
#include "core/scene_json.h"
#include "ui/document/scene_document.h"
#include "ui/explorer/message_bar.h"
#include "ui/explorer/scene_files.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QStandardPaths>
#include <QStatusBar>

namespace attn::ui {

CrashRecovery::CrashRecovery(SceneDocument& document, SceneFiles& files, MessageBar& messages,
                             QStatusBar& status, ShowRestored showRestored, QObject* parent)
    : QObject(parent), m_document(document), m_files(files), m_messages(messages),
      m_showRestored(std::move(showRestored))
{
    m_store = new RecoveryStore(
        directory(),
        [this]() -> std::optional<RecoveryStore::Snapshot> {
            if (!m_document.isModified())
                return std::nullopt;
            // A copy of the scene (milliseconds), written out as JSON on the store's worker.
            return RecoveryStore::Snapshot{
                [scene = m_document.scene()] { return core::sceneToJson(scene); },
                m_document.filePath()};
        },
        this);
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
    for (RecoveryStore::LeftCopy& copy : m_store->claimLeftCopies())
        m_leftCopies.push_back(std::move(copy));
    offerNext();
}

void CrashRecovery::closedCleanly()
{
    m_store->clear();
}

// One copy at a time, newest first.
void CrashRecovery::offerNext()
{
    if (m_leftCopies.empty())
        return;
    const RecoveryStore::LeftCopy copy = m_leftCopies.front();
    m_leftCopies.pop_front();
    const QString name = copy.originalPath.isEmpty() ? tr("an untitled scene")
                                                     : QFileInfo(copy.originalPath).fileName();
    QString text =
        tr("Attention Explorer did not close normally. Restore the unsaved changes to %1 from %2?")
            .arg(name, QLocale().toString(copy.written, QLocale::ShortFormat));
    if (!m_leftCopies.empty())
        text +=
            QLatin1Char(' ') + tr("(copies waiting after this one: %1)").arg(m_leftCopies.size());
    m_messages.showMessage(
        QStringLiteral("recovery"), MessageBar::Level::Warning, text,
        {{tr("Restore"), [this, copy] { restore(copy); }}, {tr("Discard"), [this, copy] {
                                                                m_store->remove(copy);
                                                                offerNext();
                                                            }}});
}

void CrashRecovery::restore(const RecoveryStore::LeftCopy& copy)
{
    if (!m_files.maybeSave()) {
        m_leftCopies.push_front(copy); // offered again
        offerNext();
        return;
    }
    try {
        // Relative paths inside (word vectors, a model folder) are relative to the file the
        // work was opened from, not to the recovery folder.
        const QString baseDir = copy.originalPath.isEmpty()
                                    ? QDir::currentPath()
                                    : QFileInfo(copy.originalPath).absolutePath();
        const core::Scene scene = core::loadScene(copy.path, baseDir);
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
        // The copy stays on disk (and is offered again at the next start); the others still
        // wait behind this message.
        std::vector<MessageBar::Action> next;
        if (!m_leftCopies.empty())
            next.push_back({tr("Next Copy"), [this] { offerNext(); }});
        m_messages.showMessage(
            QStringLiteral("recovery"), MessageBar::Level::Error,
            tr("Could not restore: %1. The copy is kept at %2.")
                .arg(QString::fromUtf8(error.what()), QDir::toNativeSeparators(copy.path)),
            std::move(next));
        return;
    }
    // The old copy goes only once this session's own copy holds the work.
    if (m_store->saveNow())
        m_store->remove(copy);
    offerNext();
}

} // namespace attn::ui
