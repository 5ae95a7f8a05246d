#include "core/hub/hub_downloader.h"

#include "core/atomic_file.h"
#include "core/error.h"

#include <QDir>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QStorageInfo>
#include <QTimer>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace attn::core::hub {

namespace {

// The Hub answers a model's file list in a few kilobytes; a megabyte-sized answer is wrong.
constexpr qint64 kMaxApiBytes = 32 * 1024 * 1024;
// As browsers and huggingface_hub's requests: a chain longer than this is a loop.
constexpr int kMaxRedirects = 10;
constexpr qint64 kHashChunk = 1 << 20;
// Where a snapshot is made before it is renamed into snapshots/ (makeSnapshot).
constexpr QLatin1String kStagingFolder(".incomplete-snapshots");

bool isRedirect(int status)
{
    return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

// The free bytes where `folder` is or would be made (its nearest existing parent).
qint64 freeBytes(const QString& folder)
{
    QFileInfo info(folder);
    while (!info.exists() && !info.absolutePath().isEmpty() && info.absoluteFilePath() != "/")
        info = QFileInfo(info.absolutePath());
    return QStorageInfo(info.absoluteFilePath()).bytesAvailable();
}

// "bytes 100-999/1000" -> 100; -1 when malformed.
qint64 contentRangeStart(const QByteArray& header)
{
    const QByteArray value = header.trimmed();
    if (!value.startsWith("bytes "))
        return -1;
    bool ok = false;
    const qint64 start = value.mid(6, value.indexOf('-') - 6).toLongLong(&ok);
    return ok ? start : -1;
}

bool sameOrigin(const QUrl& a, const QUrl& b)
{
    return a.scheme() == b.scheme() && a.host() == b.host() && a.port() == b.port();
}

// huggingface_hub's _create_symlink: a link relative to the link's own folder, so that the cache
// can be moved whole. `path` is relative to the snapshot (snapshots/COMMIT/PATH).
QByteArray relativeBlobTarget(const QString& path, const QString& blobName)
{
    QString target;
    for (qsizetype i = 0; i < 2 + path.count('/'); ++i)
        target += QStringLiteral("../");
    return QFile::encodeName(target + QStringLiteral("blobs/") + blobName);
}

// Makes (or replaces) the link `linkPath` -> `target` by a rename, so that it is never missing
// or half there.
void makeLink(const QString& linkPath, const QByteArray& target)
{
    core::createFolders(QFileInfo(linkPath).absolutePath());
    const QString temporary = QFileInfo(linkPath).absolutePath() + QStringLiteral("/.") +
                              QFileInfo(linkPath).fileName() + QStringLiteral(".link");
    const QByteArray temporaryName = QFile::encodeName(temporary);
    ::unlink(temporaryName.constData());
    if (::symlink(target.constData(), temporaryName.constData()) != 0 ||
        ::rename(temporaryName.constData(), QFile::encodeName(linkPath).constData()) != 0) {
        const std::string cause = std::strerror(errno);
        ::unlink(temporaryName.constData());
        throw core::Error("cannot make the link " + linkPath.toStdString() + ": " + cause);
    }
}

} // namespace

QString formatSize(qint64 bytes)
{
    const double value = static_cast<double>(bytes);
    if (bytes < 1000)
        return QStringLiteral("%1 bytes").arg(bytes);
    if (bytes < 1000 * 1000)
        return QString::number(value / 1e3, 'f', 1) + QStringLiteral(" kB");
    if (bytes < 1000 * 1000 * 1000)
        return QString::number(value / 1e6, 'f', 1) + QStringLiteral(" MB");
    return QString::number(value / 1e9, 'f', 2) + QStringLiteral(" GB");
}

HubDownloader::HubDownloader(HubSettings settings, QObject* parent)
    : QObject(parent), m_settings(std::move(settings)), m_network(new QNetworkAccessManager(this)),
      m_freeSpace(freeBytes)
{
    qRegisterMetaType<DownloadFailure>();
    // Redirects are followed here, not by Qt: the token goes to the Hub only, never to the
    // storage host a file redirects to.
    m_network->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
}

HubDownloader::~HubDownloader()
{
    stopReply();
    unlockBlob();
}

bool HubDownloader::lockBlob(const RepoFile& file)
{
    const QString path = QDir(m_settings.cacheFolder)
                             .filePath(QStringLiteral(".locks/") + repoFolderName(m_ref.id) + '/' +
                                       file.blobName() + QStringLiteral(".lock"));
    try {
        core::createFolders(QFileInfo(path).absolutePath());
    } catch (const core::Error& error) {
        fail(QString::fromStdString(error.what()), DownloadFailure::DiskFull);
        return false;
    }
    m_lockFd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (m_lockFd < 0) {
        fail(QStringLiteral("cannot open %1: %2")
                 .arg(path, QString::fromLocal8Bit(std::strerror(errno))),
             DownloadFailure::DiskFull);
        return false;
    }
    if (::flock(m_lockFd, LOCK_EX | LOCK_NB) != 0) {
        unlockBlob();
        fail(QStringLiteral("%1: %2 is being downloaded by another process (it holds %3); try "
                            "again once it is done")
                 .arg(m_ref.id, file.path, path),
             DownloadFailure::Network);
        return false;
    }
    return true;
}

void HubDownloader::unlockBlob()
{
    if (m_lockFd >= 0)
        ::close(m_lockFd); // closing releases the flock
    m_lockFd = -1;
}

void HubDownloader::setFreeSpaceProbe(std::function<qint64(const QString&)> probe)
{
    m_freeSpace = std::move(probe);
}

void HubDownloader::setRetries(int attempts, int delayMs)
{
    m_maxAttempts = std::max(1, attempts);
    m_retryDelayMs = std::max(0, delayMs);
}

void HubDownloader::start(const ModelRef& ref)
{
    if (m_running)
        return;
    m_running = true;
    m_ref = ref;
    m_repoFolder = QDir(m_settings.cacheFolder).filePath(repoFolderName(ref.id));
    m_revision = {};
    m_files.clear();
    m_total = 0;
    m_doneBefore = 0;
    m_index = 0;
    m_offset = 0;
    m_written = 0;
    m_redirects = 0;
    if (m_settings.offline) {
        // Answered from the event loop, as a download would be: callers connect after start().
        QTimer::singleShot(0, this, &HubDownloader::finishOffline);
        return;
    }
    QByteArray revision = QUrl::toPercentEncoding(ref.revision);
    send(QUrl(m_settings.endpoint + QStringLiteral("/api/models/") + ref.id +
              QStringLiteral("/revision/") + QString::fromLatin1(revision) +
              QStringLiteral("?blobs=true")),
         Request::Api);
}

void HubDownloader::finishOffline()
{
    if (!m_running)
        return;
    QString commit = m_ref.revision;
    if (!isCommitHash(commit)) {
        QFile ref(QDir(m_repoFolder).filePath(QStringLiteral("refs/") + m_ref.revision));
        if (ref.open(QIODevice::ReadOnly))
            commit = QString::fromUtf8(ref.read(4096)).trimmed();
    }
    const QString snapshot = QDir(m_repoFolder).filePath(QStringLiteral("snapshots/") + commit);
    if (isCommitHash(commit) && QFileInfo(snapshot).isDir()) {
        m_running = false;
        emit finished(snapshot);
        return;
    }
    fail(QStringLiteral("%1: HF_HUB_OFFLINE is set and revision %2 is not in the cache (%3); "
                        "unset HF_HUB_OFFLINE to download it")
             .arg(m_ref.id, m_ref.revision, m_repoFolder),
         DownloadFailure::Offline);
}

void HubDownloader::cancel()
{
    if (!m_running)
        return;
    fail(QStringLiteral("%1: download cancelled%2").arg(m_ref.id, keptBytes()),
         DownloadFailure::Cancelled);
}

QString HubDownloader::keptBytes() const
{
    if (m_offset <= 0 || m_index >= m_files.size())
        return QString();
    return QStringLiteral("; the %1 of %2 downloaded so far are kept in %3.incomplete and the "
                          "next download resumes there")
        .arg(formatSize(m_offset), m_files[m_index].path, blobPath(m_files[m_index]));
}

void HubDownloader::stopReply()
{
    if (m_reply) {
        QNetworkReply* reply = m_reply;
        m_reply = nullptr;
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

void HubDownloader::fail(const QString& message, DownloadFailure failure)
{
    stopReply();
    m_file.close();
    unlockBlob();
    m_running = false;
    emit failed(message, failure);
}

void HubDownloader::send(const QUrl& url, Request kind)
{
    m_kind = kind;
    m_url = url;
    m_bodyChecked = false;
    QNetworkRequest request(url);
    request.setTransferTimeout(kStallTimeoutMs);
    request.setHeader(QNetworkRequest::UserAgentHeader, QStringLiteral("attention-explorer"));
    // The bytes as stored: the hashes are of the file, not of a compressed transfer.
    request.setRawHeader("Accept-Encoding", "identity");
    if (!m_settings.token.isEmpty() && sameOrigin(url, QUrl(m_settings.endpoint)))
        request.setRawHeader("Authorization", "Bearer " + m_settings.token.toUtf8());
    if (kind == Request::File && m_offset > 0)
        request.setRawHeader("Range", "bytes=" + QByteArray::number(m_offset) + "-");
    m_reply = m_network->get(request);
    connect(m_reply, &QNetworkReply::readyRead, this, &HubDownloader::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &HubDownloader::onFinished);
}

void HubDownloader::onReadyRead()
{
    QNetworkReply* reply = m_reply;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 200 && status != 206)
        return; // a redirect's or an error's body, read when it finishes
    if (m_kind == Request::Api) {
        if (reply->bytesAvailable() > kMaxApiBytes)
            fail(QStringLiteral("%1: the Hub's answer is larger than %2")
                     .arg(m_ref.id, formatSize(kMaxApiBytes)),
                 DownloadFailure::Invalid);
        return;
    }
    if (!m_bodyChecked) {
        m_bodyChecked = true;
        // A server that ignores the Range sends the whole file: start it again from byte 0.
        if (m_offset > 0 &&
            (status == 200 || contentRangeStart(reply->rawHeader("Content-Range")) != m_offset)) {
            m_offset = 0;
            m_attemptStart = 0;
            if (!m_file.resize(0)) {
                fail(QStringLiteral("cannot truncate %1: %2")
                         .arg(m_file.fileName(), m_file.errorString()),
                     DownloadFailure::DiskFull);
                return;
            }
            m_hash->reset();
            const RepoFile& file = m_files[m_index];
            if (!file.isLfs())
                m_hash->addData("blob " + QByteArray::number(file.size) + '\0');
        }
    }
    const QByteArray data = reply->readAll();
    if (m_offset + data.size() > m_files[m_index].size) {
        const QString path = m_file.fileName();
        m_file.close();
        QFile::remove(path);
        m_offset = 0;
        fail(QStringLiteral("%1: the Hub sent more than the %2 bytes it lists for it; the partial "
                            "file was removed")
                 .arg(m_files[m_index].path)
                 .arg(m_files[m_index].size),
             DownloadFailure::Checksum);
        return;
    }
    if (!writeChunk(data))
        return;
    emit progress(m_doneBefore + m_offset, m_total);
}

bool HubDownloader::writeChunk(const QByteArray& data)
{
    qint64 allowed = data.size();
    if (m_writeLimit >= 0)
        allowed = std::min(allowed, std::max<qint64>(0, m_writeLimit - m_written));
    // Unbuffered: what write() reports written is on disk, so the .incomplete and the hash
    // agree even after a failed write.
    const qint64 written = allowed > 0 ? m_file.write(data.constData(), allowed) : 0;
    if (written > 0) {
        m_hash->addData(QByteArrayView(data.constData(), written));
        m_offset += written;
        m_written += written;
    }
    if (written == data.size())
        return true;
    const QString cause = allowed < data.size() || m_file.error() == QFile::NoError
                              ? QStringLiteral("No space left on device")
                              : m_file.errorString();
    if (written < 0)
        m_file.resize(m_offset);
    fail(QStringLiteral("cannot write %1: %2%3").arg(m_file.fileName(), cause, keptBytes()),
         DownloadFailure::DiskFull);
    return false;
}

void HubDownloader::onFinished()
{
    QNetworkReply* reply = m_reply;
    if (!reply)
        return;
    m_reply = nullptr;
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (isRedirect(status) && reply->hasRawHeader("Location")) {
        if (++m_redirects > kMaxRedirects) {
            fail(QStringLiteral("%1: more than %2 redirects from %3")
                     .arg(m_ref.id)
                     .arg(kMaxRedirects)
                     .arg(m_url.toString()),
                 DownloadFailure::Network);
            return;
        }
        send(m_url.resolved(QUrl::fromEncoded(reply->rawHeader("Location"))), m_kind);
        return;
    }
    if (status >= 400) {
        DownloadFailure failure = DownloadFailure::Network;
        QString message = httpFailure(status, reply->rawHeader("X-Error-Code"), failure);
        if (m_kind == Request::File && status >= 500) {
            retryFile(QStringLiteral("HTTP %1").arg(status));
            return;
        }
        fail(message, failure);
        return;
    }
    if (reply->error() != QNetworkReply::NoError) {
        if (m_kind == Request::File) {
            retryFile(reply->errorString());
            return;
        }
        fail(QStringLiteral("%1: cannot reach %2: %3 (HF_HUB_OFFLINE=1 opens what is in the "
                            "cache)")
                 .arg(m_ref.id, m_settings.endpoint, reply->errorString()),
             DownloadFailure::Network);
        return;
    }
    if (m_kind == Request::Api) {
        onRevision(reply->readAll());
        return;
    }
    if (status != 200 && status != 206) {
        fail(QStringLiteral("%1: the Hub answered HTTP %2 for %3")
                 .arg(m_ref.id)
                 .arg(status)
                 .arg(m_files[m_index].path),
             DownloadFailure::Network);
        return;
    }
    if (m_offset < m_files[m_index].size) {
        retryFile(QStringLiteral("the connection closed after %1 of %2 bytes")
                      .arg(m_offset)
                      .arg(m_files[m_index].size));
        return;
    }
    finishFile();
}

QString HubDownloader::httpFailure(int status, const QByteArray& errorCode,
                                   DownloadFailure& failure) const
{
    const QString what = m_kind == Request::File
                             ? QStringLiteral("%1 (%2)").arg(m_ref.id, m_files[m_index].path)
                             : m_ref.id;
    const QString page = m_settings.endpoint + '/' + m_ref.id;
    // The Hub names the cause in X-Error-Code; it answers 401 RepoNotFound to an anonymous
    // request for a private or missing model, so as not to say which it is.
    if (errorCode == "RepoNotFound" ||
        (status == 404 && errorCode.isEmpty() && m_kind == Request::Api)) {
        failure = DownloadFailure::NotFound;
        return QStringLiteral("%1: no such model on %2 (HTTP %3); check the id, and for a "
                              "private model set HF_TOKEN")
            .arg(m_ref.id, m_settings.endpoint)
            .arg(status);
    }
    if (errorCode == "RevisionNotFound") {
        failure = DownloadFailure::NotFound;
        return QStringLiteral("%1: no revision %2 (HTTP %3)")
            .arg(m_ref.id, m_ref.revision)
            .arg(status);
    }
    if (status == 401 || status == 403 || errorCode == "GatedRepo") {
        failure = DownloadFailure::Unauthorized;
        if (m_settings.token.isEmpty())
            return QStringLiteral("%1: the Hub asks for a token (HTTP %2: a gated or private "
                                  "model). Accept its terms on %3, then set HF_TOKEN or write the "
                                  "token to %4")
                .arg(what)
                .arg(status)
                .arg(page, tokenFilePath());
        return QStringLiteral("%1: the token from %2 has no access (HTTP %3); accept the "
                              "model's terms on %4 with that account")
            .arg(what, m_settings.tokenSource)
            .arg(status)
            .arg(page);
    }
    if (status == 404) {
        failure = DownloadFailure::NotFound;
        return QStringLiteral("%1: not found on %2 (HTTP 404)").arg(what, m_settings.endpoint);
    }
    failure = DownloadFailure::Network;
    return QStringLiteral("%1: the Hub answered HTTP %2").arg(what).arg(status);
}

void HubDownloader::onRevision(const QByteArray& body)
{
    try {
        m_revision = parseRevision(body);
        m_files = wantedFiles(m_revision, m_ref.id);
    } catch (const core::Error& error) {
        fail(QStringLiteral("%1: %2").arg(m_ref.id, QString::fromStdString(error.what())),
             DownloadFailure::Invalid);
        return;
    }
    qint64 missing = 0;
    for (const RepoFile& file : m_files) {
        m_total += file.size;
        const QFileInfo blob(blobPath(file));
        if (!blob.isFile() || blob.size() != file.size)
            missing += file.size -
                       std::min(file.size,
                                QFileInfo(blobPath(file) + QStringLiteral(".incomplete")).size());
    }
    const qint64 available = m_freeSpace(m_settings.cacheFolder);
    if (available >= 0 && available < missing) {
        fail(QStringLiteral("%1: not enough free space in %2: the download needs %3 more, %4 "
                            "are free")
                 .arg(m_ref.id, m_settings.cacheFolder, formatSize(missing), formatSize(available)),
             DownloadFailure::DiskFull);
        return;
    }
    try {
        core::createFolders(QDir(m_repoFolder).filePath(QStringLiteral("blobs")));
    } catch (const core::Error& error) {
        fail(QString::fromStdString(error.what()), DownloadFailure::DiskFull);
        return;
    }
    emit revisionResolved(m_revision.commit, m_total);
    m_index = 0;
    nextFile();
}

QString HubDownloader::blobPath(const RepoFile& file) const
{
    return QDir(m_repoFolder).filePath(QStringLiteral("blobs/") + file.blobName());
}

void HubDownloader::nextFile()
{
    for (; m_index < m_files.size(); ++m_index) {
        const RepoFile& file = m_files[m_index];
        const QFileInfo blob(blobPath(file));
        // A blob in the cache was checked when it was written (by us or huggingface_hub).
        if (blob.isFile() && blob.size() == file.size) {
            m_doneBefore += file.size;
            continue;
        }
        emit fileStarted(file.path, file.size);
        if (!lockBlob(file) || !openFile())
            return;
        if (m_offset == file.size) {
            finishFile();
            return;
        }
        m_attempt = 0;
        sendFileRequest();
        return;
    }
    makeSnapshot();
}

bool HubDownloader::openFile()
{
    const RepoFile& file = m_files[m_index];
    const QString path = blobPath(file) + QStringLiteral(".incomplete");
    m_hash = std::make_unique<QCryptographicHash>(file.isLfs() ? QCryptographicHash::Sha256
                                                               : QCryptographicHash::Sha1);
    // The git blob id: sha1 of "blob SIZE\0" and the content (git's object format).
    if (!file.isLfs())
        m_hash->addData("blob " + QByteArray::number(file.size) + '\0');
    if (QFileInfo(path).size() > file.size)
        QFile::remove(path);
    // What an earlier run left is resumed: its bytes go into the hash first.
    QFile previous(path);
    m_offset = 0;
    if (previous.open(QIODevice::ReadOnly)) {
        while (!previous.atEnd()) {
            const QByteArray chunk = previous.read(kHashChunk);
            if (chunk.isEmpty())
                break;
            m_hash->addData(chunk);
            m_offset += chunk.size();
        }
    }
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered) ||
        m_file.size() != m_offset) {
        fail(QStringLiteral("cannot write %1: %2").arg(path, m_file.errorString()),
             DownloadFailure::DiskFull);
        return false;
    }
    emit progress(m_doneBefore + m_offset, m_total);
    return true;
}

void HubDownloader::sendFileRequest()
{
    if (!m_running)
        return;
    ++m_attempt;
    m_attemptStart = m_offset;
    m_redirects = 0;
    const RepoFile& file = m_files[m_index];
    // By commit, not by branch: every file comes from the one revision the API listed.
    send(QUrl(m_settings.endpoint + '/' + m_ref.id + QStringLiteral("/resolve/") +
              m_revision.commit + '/' +
              QString::fromLatin1(QUrl::toPercentEncoding(file.path, "/"))),
         Request::File);
}

void HubDownloader::retryFile(const QString& reason)
{
    if (m_offset > m_attemptStart)
        m_attempt = 0; // it moved on: a new run of tries
    if (m_attempt >= m_maxAttempts) {
        fail(QStringLiteral("%1: the download of %2 failed %3 times (%4)%5")
                 .arg(m_ref.id, m_files[m_index].path)
                 .arg(m_attempt)
                 .arg(reason, keptBytes()),
             DownloadFailure::Network);
        return;
    }
    QTimer::singleShot(m_retryDelayMs, this, &HubDownloader::sendFileRequest);
}

void HubDownloader::finishFile()
{
    const RepoFile& file = m_files[m_index];
    m_file.close();
    const QString incomplete = m_file.fileName();

    const QString digest = QString::fromLatin1(m_hash->result().toHex());
    const QString expected = file.isLfs() ? file.sha256 : file.blobId;
    if (digest != expected) {
        QFile::remove(incomplete);
        m_offset = 0;
        fail(QStringLiteral("%1: %2 is damaged: its %3 is %4, the Hub lists %5; the file was "
                            "removed, download again")
                 .arg(m_ref.id, file.path,
                      file.isLfs() ? QStringLiteral("sha256") : QStringLiteral("git blob id"),
                      digest, expected),
             DownloadFailure::Checksum);
        return;
    }
    const QString blob = blobPath(file);
    if (QFileInfo(blob).isFile())
        QFile::remove(incomplete); // another process finished it meanwhile
    else if (!QFile::rename(incomplete, blob)) {
        fail(QStringLiteral("cannot rename %1 to %2").arg(incomplete, blob),
             DownloadFailure::DiskFull);
        return;
    }
    unlockBlob(); // after the rename: the blob is whole before another process may look
    m_doneBefore += file.size;
    m_offset = 0;
    emit progress(m_doneBefore, m_total);
    ++m_index;
    nextFile();
}

void HubDownloader::makeSnapshot()
{
    const QDir repo(m_repoFolder);
    const QString commit = m_revision.commit;
    const QString snapshot = repo.filePath(QStringLiteral("snapshots/") + commit);
    try {
        if (!QFileInfo(snapshot).isDir()) {
            // Made aside and renamed into place: a snapshot is never seen half made. Aside is
            // outside snapshots/, where the cache scans of huggingface_hub and @huggingface/hub
            // would list a folder left by a killed run as a revision; at the same depth, so the
            // relative links hold after the rename.
            const QString stagingRoot = repo.filePath(kStagingFolder);
            const QString staging = stagingRoot + QLatin1Char('/') + commit;
            QDir(staging).removeRecursively();
            for (const RepoFile& file : m_files)
                makeLink(QDir(staging).filePath(file.path),
                         relativeBlobTarget(file.path, file.blobName()));
            core::createFolders(repo.filePath(QStringLiteral("snapshots")));
            if (!QDir().rename(staging, snapshot))
                QDir(staging).removeRecursively(); // made by another process meanwhile
            QDir().rmdir(stagingRoot);             // unless another download is staging
        }
        // A snapshot huggingface_hub began may lack some of the files.
        for (const RepoFile& file : m_files) {
            const QString link = QDir(snapshot).filePath(file.path);
            if (!QFileInfo(link).exists())
                makeLink(link, relativeBlobTarget(file.path, file.blobName()));
        }
        // huggingface_hub writes a ref for a branch or tag only, the commit without a newline.
        // refs/ is made even for a commit: Hugging Face's JavaScript hub library (scanCacheDir
        // in @huggingface/hub 2.17.5) skips a cached repository without it; Python's does not.
        core::createFolders(repo.filePath(QStringLiteral("refs")));
        if (m_ref.revision != commit) {
            const QString ref = repo.filePath(QStringLiteral("refs/") + m_ref.revision);
            core::createFolders(QFileInfo(ref).absolutePath());
            core::writeFileAtomically(ref, commit.toUtf8());
        }
    } catch (const core::Error& error) {
        fail(QString::fromStdString(error.what()), DownloadFailure::DiskFull);
        return;
    }
    m_running = false;
    emit finished(snapshot);
}

} // namespace attn::core::hub
