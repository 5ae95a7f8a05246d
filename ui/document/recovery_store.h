#pragma once

#include "ui/document/latest_request_worker.h"
#include "ui/document/thread_mailbox.h"

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

class QLockFile;

namespace attn::ui {

// Crash-recovery copies of unsaved work, one per running window, in one folder.
//
// A session writes scene-<id>.json (and scene-<id>.json.path, the file the work was opened
// from) and holds scene-<id>.lock while it runs. A copy whose lock nobody holds was left by
// a session that ended without closing (a crash, kill -9, a power cut). The id is random, not
// the process id: a restarted container or sandbox gets the crashed process's id again and
// would otherwise take the crash's copy for its own.
class RecoveryStore : public QObject
{
    Q_OBJECT

public:
    struct Snapshot
    {
        // What a restore reads back (a scene file's bytes). The timed autosave calls it on a
        // worker thread (a large scene takes a second to write out as JSON), so it must own
        // what it reads: a copy of the scene, never a reference to the document.
        std::function<QByteArray()> content;
        QString originalPath; // the file it was opened from; empty for untitled work
    };
    // A copy left by a session that ended without closing.
    struct LeftCopy
    {
        QString path;         // the copy itself
        QString originalPath; // the file its work was opened from; empty for untitled work
        QDateTime written;
    };
    // What to save when the clock runs out; nullopt when nothing is unsaved.
    using SnapshotSource = std::function<std::optional<Snapshot>()>;

    RecoveryStore(const QString& directory, SnapshotSource source, QObject* parent = nullptr);
    ~RecoveryStore() override;

    // An edit happened. The first edit after a save starts the clock and later ones do not
    // restart it, so continuous editing is saved at least every interval. When it runs out, the
    // snapshot is taken here and written on a worker thread.
    void noteEdit();
    void setInterval(int milliseconds) { m_timer.setInterval(milliseconds); }
    bool isPending() const { return m_timer.isActive(); }
    // Writes this session's copy now, on this thread (or removes it when nothing is unsaved);
    // false and saveFailed() when the copy could not be written.
    bool saveNow();
    // The work is saved or given up: this session's copy goes, and a timed save still being
    // written out does not bring it back.
    void clear();
    QString copyPath() const { return m_copyPath; }

    // Copies left by other sessions, newest first. Each one returned is claimed (its lock is
    // held by this session until remove() or destruction), so two windows started together
    // never offer the same copy. Locks left without a copy are removed.
    std::vector<LeftCopy> claimLeftCopies();
    // Deletes a claimed copy and its lock: after it was restored and saved again, or discarded.
    void remove(const LeftCopy& copy);

signals:
    void saveFailed(const QString& message);

private:
    void saveInBackground();
    // Writes (or, with no snapshot, removes) the copy unless a newer save or clear came first;
    // any thread. Throws what the write throws.
    void apply(quint64 sequence, const std::optional<QByteArray>& content,
               const QString& originalPath);

    QString m_directory;
    SnapshotSource m_source;
    QString m_copyPath;
    std::unique_ptr<QLockFile> m_lock;
    std::map<QString, std::unique_ptr<QLockFile>> m_claimed; // by copy path
    QTimer m_timer;
    quint64 m_sequence = 0;       // UI thread: numbers every save and clear in the order asked
    std::mutex m_fileMutex;       // the copy's files are written or removed under it
    quint64 m_newestApplied = 0;  // guarded by m_fileMutex
    ThreadMailbox m_mailbox;      // the worker's failures to the UI thread
    LatestRequestWorker m_worker; // last: its jobs use everything above
};

} // namespace attn::ui
