#pragma once

#include "ui/document/latest_request_worker.h"
#include "ui/document/thread_mailbox.h"

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>
#include <atomic>
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
// A session writes scene-<id>.json and holds scene-<id>.lock while it runs. A copy whose lock
// nobody holds was left by a session that ended without closing (a crash, kill -9, a power
// cut). The id is random, not the process id: a restarted container or sandbox gets the
// crashed process's id again and would otherwise take the crash's copy for its own.
//
// A copy is one file, replaced by one rename: a first line of JSON says which window's work
// it is, the file it was opened from and its name; the work (a scene file's bytes) follows.
// Copies written before that header existed (the work alone, its original path in
// scene-<id>.json.path) are still read.
class RecoveryStore : public QObject
{
    Q_OBJECT

public:
    // Which window's work a copy holds.
    enum class Kind {
        Scene, // the explorer's scene
        Model, // the model window's checkpoint scene
    };
    struct Snapshot
    {
        // What a restore reads back (a scene file's bytes). The timed autosave calls it on a
        // worker thread (a large scene takes a second to write out as JSON), so it must own
        // what it reads: a copy of the scene, never a reference to the document.
        std::function<QByteArray()> content;
        QString originalPath; // the file it was opened from; empty for untitled work
        QString name;         // what the window calls the work ("gpt2", a scene's title)
    };
    // A copy left by a session that ended without closing.
    struct LeftCopy
    {
        QString path; // the copy itself
        Kind kind = Kind::Scene;
        QString originalPath; // the file its work was opened from; empty for untitled work
        QString name;         // as the window called it; empty in copies without a header
        QDateTime written;
    };
    // What to save when the clock runs out; nullopt when nothing is unsaved.
    using SnapshotSource = std::function<std::optional<Snapshot>()>;

    // Removes the temporary files of copies whose writing was killed (their writers are gone).
    RecoveryStore(const QString& directory, Kind kind, SnapshotSource source,
                  QObject* parent = nullptr);
    ~RecoveryStore() override;

    // An edit happened. The first edit after a save starts the clock and later ones do not
    // restart it, so continuous editing is saved at least every interval. When it runs out, the
    // snapshot is taken here and written on a worker thread. A copy that took long to write
    // (a scene of hundreds of megabytes) waits longer, and the clock does not run while a copy
    // is being written: writing copies takes at most a tenth of the time.
    void noteEdit();
    void setInterval(int milliseconds) { m_interval = milliseconds; }
    // How long the clock runs from the next first edit.
    int nextDelay() const;
    // An edit waits to be copied.
    bool isPending() const { return m_timer.isActive() || m_editedWhileWriting; }
    // Writes this session's copy now, on this thread (or removes it when nothing is unsaved);
    // false and saveFailed() when the copy could not be written.
    bool saveNow();
    // The work is saved or given up: this session's copy goes, and a timed save still being
    // written out does not bring it back.
    void clear();
    QString copyPath() const { return m_copyPath; }

    // Copies left by other sessions (of `kind`; all without), newest first. Each one returned
    // is claimed (its lock is held by this session until remove(), release() or destruction),
    // so two windows started together never offer the same copy. Locks left without a copy are
    // removed.
    std::vector<LeftCopy> claimLeftCopies(std::optional<Kind> kind = std::nullopt);
    // Claims one left copy by its path (another window of this session released it for this
    // one); nullopt when it is gone or another session holds it.
    std::optional<LeftCopy> claim(const QString& path);
    // Deletes a claimed copy and its lock: after it was restored and saved again, or discarded.
    void remove(const LeftCopy& copy);
    // Gives a claimed copy up, kept on disk, for another window to claim.
    void release(const LeftCopy& copy);

    // What a copy's header says (legacy copies: their .path file). Reads the first line only.
    static LeftCopy describe(const QString& path);
    // The work a copy holds, without its header. Throws core::Error when it cannot be read.
    static QByteArray readContent(const QString& path);

signals:
    void saveFailed(const QString& message);

private:
    void saveInBackground();
    // Writes (or, with no snapshot, removes) the copy unless a newer save or clear came first;
    // any thread. Throws what the write throws.
    void apply(quint64 sequence, const std::optional<QByteArray>& content,
               const QByteArray& header);
    // Writes a snapshot out (content and file), timed for the next delay; any thread.
    void write(quint64 sequence, const std::optional<Snapshot>& snapshot);

    QString m_directory;
    Kind m_kind;
    SnapshotSource m_source;
    QString m_copyPath;
    std::unique_ptr<QLockFile> m_lock;
    std::map<QString, std::unique_ptr<QLockFile>> m_claimed; // by copy path
    QTimer m_timer;
    int m_interval;
    std::atomic<qint64> m_lastWriteMs{0}; // the last copy's content and write, any thread
    quint64 m_sequence = 0;               // UI thread: numbers every save and clear in order
    bool m_writing = false;               // UI thread: a timed copy is being written
    bool m_editedWhileWriting = false;    // UI thread
    std::mutex m_fileMutex;               // the copy's files are written or removed under it
    quint64 m_newestApplied = 0;          // guarded by m_fileMutex
    ThreadMailbox m_mailbox;              // the worker's failures to the UI thread
    LatestRequestWorker m_worker;         // last: its jobs use everything above
};

} // namespace attn::ui
