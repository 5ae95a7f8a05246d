#pragma once

#include "core/hub/hub_repo.h"
#include "core/hub/hub_settings.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QFile>
#include <QObject>
#include <QPointer>
#include <QUrl>

#include <functional>
#include <memory>

class QNetworkAccessManager;
class QNetworkReply;

namespace attn::core::hub {

// Why a download stopped, for callers that act on it (an exit code, a dialog's button).
enum class DownloadFailure {
    Offline,      // HF_HUB_OFFLINE is set and the model is not in the cache
    Network,      // the Hub cannot be reached, or the connection dropped too often
    Unauthorized, // 401/403: gated or private, no token or a token without access
    NotFound,     // 404: no such model, revision or file
    Invalid,      // the model has no safetensors weights, or the Hub's answer is malformed
    Checksum,     // a file's bytes do not hash to what the Hub lists
    DiskFull,     // not enough free space, or a write failed
    Cancelled,
};

// Downloads a model's config, tokenizer and safetensors files from the Hugging Face Hub into
// the cache exactly as huggingface_hub lays it out (its file_download.py), so that Python and
// the explorer share downloads both ways:
//   CACHE/models--ORG--NAME/blobs/BLOB        the sha256 for LFS files, the git blob id else
//   CACHE/models--ORG--NAME/snapshots/COMMIT/FILE -> ../../blobs/BLOB (relative links)
//   CACHE/models--ORG--NAME/refs/REVISION     the commit, for a branch or tag (refs/ always)
// A file is written to BLOB.incomplete and renamed once its hash matches the Hub's; a dropped
// connection resumes from the .incomplete's size with a Range request, now or in a later run.
// The snapshot folder appears whole, by a rename, only once every file is in place (it is made
// in CACHE/models--ORG--NAME/.incomplete-snapshots/COMMIT, outside snapshots/). While a blob
// is written its lock file is held as huggingface_hub holds it (flock on
// CACHE/.locks/models--ORG--NAME/BLOB.lock), so that Python and the explorer never write one
// .incomplete together.
// Asynchronous on the thread it lives on: never blocks, reports through signals.
class HubDownloader : public QObject
{
    Q_OBJECT

public:
    explicit HubDownloader(HubSettings settings, QObject* parent = nullptr);
    ~HubDownloader() override;

    // Starts a download; ends with finished() or failed(), never both. Ignored while running.
    void start(const ModelRef& ref);
    // Stops at once: the .incomplete file is kept for the next download to resume, no
    // snapshot is made. failed(..., Cancelled) follows.
    void cancel();
    bool isRunning() const { return m_running; }
    const HubSettings& settings() const { return m_settings; }

    // The free bytes of the disk holding the cache folder (QStorageInfo unless set).
    void setFreeSpaceProbe(std::function<qint64(const QString& folder)> probe);
    // Tests: writes fail as on a full disk once this many bytes have been written.
    void setWriteLimitForTesting(qint64 bytes) { m_writeLimit = bytes; }
    // Tries per file after a dropped connection (progress resets the count) and the pause
    // between them.
    void setRetries(int attempts, int delayMs);

signals:
    // The revision is known: its commit, and the bytes of the files it needs in all.
    void revisionResolved(const QString& commit, qint64 totalBytes);
    // Bytes in the cache out of totalBytes (files already there count as done).
    void progress(qint64 doneBytes, qint64 totalBytes);
    void fileStarted(const QString& path, qint64 size);
    void finished(const QString& snapshotFolder);
    void failed(const QString& message, attn::core::hub::DownloadFailure failure);

private:
    enum class Request { Api, File };

    void finishOffline();
    void send(const QUrl& url, Request kind);
    void onReadyRead();
    void onFinished();
    void onRevision(const QByteArray& body);
    void nextFile();
    bool openFile();
    void sendFileRequest();
    void retryFile(const QString& reason);
    void finishFile();
    void makeSnapshot();
    bool writeChunk(const QByteArray& data);
    void fail(const QString& message, DownloadFailure failure);
    void stopReply();
    QString httpFailure(int status, const QByteArray& errorCode, DownloadFailure& failure) const;
    QString blobPath(const RepoFile& file) const;
    QString keptBytes() const;
    bool lockBlob(const RepoFile& file);
    void unlockBlob();

    HubSettings m_settings;
    QNetworkAccessManager* m_network = nullptr; // a child: its headers stay out of this one
    std::function<qint64(const QString&)> m_freeSpace;
    qint64 m_writeLimit = -1;
    qint64 m_written = 0;
    int m_maxAttempts = 5;
    int m_retryDelayMs = 1000;
    // A connection that sends nothing for this long counts as dropped.
    static constexpr int kStallTimeoutMs = 60000;

    bool m_running = false;
    ModelRef m_ref;
    QString m_repoFolder;
    RepoRevision m_revision;
    std::vector<RepoFile> m_files;
    qint64 m_total = 0;
    qint64 m_doneBefore = 0; // bytes of the files finished before the current one

    QPointer<QNetworkReply> m_reply;
    Request m_kind = Request::Api;
    QUrl m_url;
    int m_redirects = 0;
    bool m_bodyChecked = false;

    size_t m_index = 0;
    QFile m_file;      // the current file's .incomplete
    int m_lockFd = -1; // huggingface_hub's lock on the current blob, held while it is written
    std::unique_ptr<QCryptographicHash> m_hash;
    qint64 m_offset = 0;       // bytes in the .incomplete
    qint64 m_attemptStart = 0; // m_offset when the current attempt began
    int m_attempt = 0;
};

// A size as the progress lines show it, in powers of 1000 as the Hub's pages: "812 bytes",
// "39.3 kB", "548.1 MB", "2.20 GB".
QString formatSize(qint64 bytes);

} // namespace attn::core::hub

Q_DECLARE_METATYPE(attn::core::hub::DownloadFailure)
