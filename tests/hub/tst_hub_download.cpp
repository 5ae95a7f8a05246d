// The Hub downloader against a loopback server (hub/hub_test_server.h): the cache layout
// huggingface_hub writes, and each fault with its message and what is left in the cache.

#include "core/error.h"
#include "core/hub/hub_downloader.h"
#include "core/hub/hub_repo.h"
#include "core/hub/transfer_meter.h"
#include "hub/hub_test_server.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

using namespace attn::core;
using namespace attn::core::hub;
using attn::test::HubTestServer;

namespace {

// tests/data/models/distilbert, hashed once by hand: `git hash-object FILE`, `sha256sum FILE`.
const QString kConfigBlob = QStringLiteral("a2b09d06d95a026948ba8f278ced1dc7d137592c");
const QString kVocabBlob = QStringLiteral("d80f1a6af9d399a6ddac898705155a9bd4416220");
const QString kWeightsSha256 =
    QStringLiteral("8e46c5391340c19ba51c0296e5dd272fc45f9a3b6447228bed22f58da7244727");
constexpr qint64 kConfigBytes = 499;
constexpr qint64 kWeightsBytes = 31384;
// config.json, model.safetensors, tokenizer.json, tokenizer_config.json, vocab.txt.
constexpr qint64 kTotalBytes = kConfigBytes + kWeightsBytes + 6229 + 319 + 851;

QString modelFolder()
{
    return QStringLiteral(ATTN_TEST_DATA_DIR "/models/distilbert");
}

// A link's target as written in it (QFile::symLinkTarget makes it absolute).
QString rawLink(const QString& path)
{
    char target[4096];
    const ssize_t size = ::readlink(QFile::encodeName(path).constData(), target, sizeof target);
    return size < 0 ? QString() : QString::fromUtf8(target, size);
}

struct Outcome
{
    bool finished = false;
    QString snapshot;
    QString message;
    DownloadFailure failure = DownloadFailure::Network;
};

// Runs a download to its end (a few hundred milliseconds on loopback).
Outcome run(HubDownloader& downloader,
            const QString& ref = QStringLiteral("test-org/tiny-distilbert"))
{
    Outcome outcome;
    bool done = false;
    QObject::connect(&downloader, &HubDownloader::finished, [&](const QString& snapshot) {
        outcome.finished = true;
        outcome.snapshot = snapshot;
        done = true;
    });
    QObject::connect(&downloader, &HubDownloader::failed,
                     [&](const QString& message, DownloadFailure failure) {
                         outcome.message = message;
                         outcome.failure = failure;
                         done = true;
                     });
    downloader.start(parseModelRef(ref));
    if (!QTest::qWaitFor([&] { return done; }, 20000))
        qFatal("the download neither finished nor failed");
    QTest::qWait(0);
    return outcome;
}

} // namespace

class TestHubDownload : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_cache;
    std::unique_ptr<HubTestServer> m_server;

    HubSettings settings() const
    {
        HubSettings s;
        s.endpoint = m_server->endpoint();
        s.cacheFolder = m_cache.path();
        return s;
    }
    QString repo() const
    {
        return m_cache.filePath(QStringLiteral("models--test-org--tiny-distilbert"));
    }
    QString snapshot() const { return repo() + "/snapshots/" + m_server->commit; }
    QStringList entries(const QString& folder) const
    {
        return QDir(folder).entryList(
            QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System, QDir::Name);
    }
    void expectNoSnapshot() const
    {
        QCOMPARE(entries(repo() + "/snapshots"), QStringList());
        QVERIFY(!QFileInfo::exists(repo() + "/refs/main"));
    }
    void expectComplete() const
    {
        QCOMPARE(entries(snapshot()),
                 QStringList({"config.json", "model.safetensors", "tokenizer.json",
                              "tokenizer_config.json", "vocab.txt"}));
        QCOMPARE(QFileInfo(snapshot() + "/config.json").symLinkTarget(),
                 repo() + "/blobs/" + kConfigBlob);
        // Relative links, as huggingface_hub makes them: the cache can move.
        QCOMPARE(rawLink(snapshot() + "/model.safetensors"), "../../blobs/" + kWeightsSha256);
        QFile weights(snapshot() + "/model.safetensors");
        QVERIFY(weights.open(QIODevice::ReadOnly));
        QFile original(modelFolder() + "/model.safetensors");
        QVERIFY(original.open(QIODevice::ReadOnly));
        QVERIFY(weights.readAll() == original.readAll());
        for (const QString& blob : entries(repo() + "/blobs"))
            QVERIFY2(!blob.endsWith(".incomplete"), qPrintable(blob));
    }

private slots:
    void init()
    {
        m_server = std::make_unique<HubTestServer>(modelFolder());
        QDir(m_cache.path()).removeRecursively();
        QDir().mkpath(m_cache.path());
    }

    void modelRefs()
    {
        QCOMPARE(parseModelRef("gpt2").id, QString("gpt2"));
        QCOMPARE(parseModelRef("gpt2").revision, QString("main"));
        QCOMPARE(parseModelRef("Qwen/Qwen2.5-0.5B@v1.0").revision, QString("v1.0"));
        QCOMPARE(repoFolderName("Helsinki-NLP/opus-mt-en-fr"),
                 QString("models--Helsinki-NLP--opus-mt-en-fr"));
        for (const char* bad : {"", "a/b/c", "a--b", "../x", "gpt2@", "x y"})
            QVERIFY_THROWS_EXCEPTION(Error, parseModelRef(bad));
    }

    void wantedFilesOnly()
    {
        for (const char* name : {"config.json", "tokenizer.json", "vocab.txt", "merges.txt",
                                 "model.safetensors", "model-00001-of-00002.safetensors",
                                 "model.safetensors.index.json", "spiece.model", "source.spm"})
            QVERIFY2(isWantedFile(name), name);
        for (const char* name : {"pytorch_model.bin", "tf_model.h5", "flax_model.msgpack",
                                 "model.onnx", "onnx/model.safetensors", "README.md"})
            QVERIFY2(!isWantedFile(name), name);
        RepoRevision revision;
        revision.commit = QString(40, 'a');
        revision.files = {{"config.json", 10, QString(40, 'b'), {}},
                          {"pytorch_model.bin", 10, QString(40, 'c'), QString(64, 'd')}};
        try {
            wantedFiles(revision, "org/old");
            QFAIL("no error");
        } catch (const Error& error) {
            QCOMPARE(QString(error.what()),
                     "org/old: revision " + QString(40, 'a') +
                         " has no .safetensors weights (only pytorch_model.bin); the explorer "
                         "reads safetensors only");
        }
    }

    void sizesAndSpeed()
    {
        QCOMPARE(formatSize(999), QString("999 bytes"));
        QCOMPARE(formatSize(39282), QString("39.3 kB"));
        QCOMPARE(formatSize(548105171), QString("548.1 MB"));
        QCOMPARE(formatSize(2200119864), QString("2.20 GB"));
        TransferMeter meter;
        meter.start(0, 0);
        meter.update(1000, 400); // under half a second: no sample yet
        QCOMPARE(meter.bytesPerSecond(), -1.0);
        QCOMPARE(meter.secondsLeft(1000, 2000), qint64(-1));
        meter.update(1000000, 1000); // 1e6 bytes in 1 s
        QCOMPARE(meter.bytesPerSecond(), 1e6);
        QCOMPARE(meter.secondsLeft(1000000, 11000000), qint64(10));
        meter.update(2500000, 2000); // 1.5e6 B/s: 0.3 * 1.5e6 + 0.7 * 1e6
        QCOMPARE(meter.bytesPerSecond(), 1.15e6);
        QCOMPARE(meter.secondsLeft(2500000, 4800000), qint64(2));
    }

    void downloadsInHuggingFaceLayout()
    {
        HubSettings s = settings();
        s.token = "hf_secret";
        HubDownloader downloader(s);
        QSignalSpy progress(&downloader, &HubDownloader::progress);
        const Outcome outcome = run(downloader);
        QVERIFY2(outcome.finished, qPrintable(outcome.message));
        QCOMPARE(outcome.snapshot, snapshot());
        expectComplete();
        QCOMPARE(rawLink(snapshot() + "/vocab.txt"), "../../blobs/" + kVocabBlob);
        QFile refs(repo() + "/refs/main");
        QVERIFY(refs.open(QIODevice::ReadOnly));
        QCOMPARE(refs.readAll(), m_server->commit.toUtf8());
        QCOMPARE(progress.last().at(0).toLongLong(), kTotalBytes);
        QCOMPARE(progress.last().at(1).toLongLong(), kTotalBytes);
        QStringList paths;
        for (const auto& request : m_server->requests) {
            paths << QString::fromUtf8(request.path);
            QCOMPARE(request.authorization, QByteArray("Bearer hf_secret"));
        }
        QCOMPARE(paths.first(), "/api/models/test-org/tiny-distilbert/revision/main?blobs=true");
        QCOMPARE(paths.size(), 6);
        QVERIFY(!paths.join(' ').contains("pytorch_model.bin"));

        // Again: everything is in the cache, only the API is asked.
        m_server->requests.clear();
        HubDownloader again(settings());
        QVERIFY(run(again).finished);
        QCOMPARE(m_server->requests.size(), 1);
    }

    void commitMakesEmptyRefsFolder()
    {
        HubDownloader downloader(settings());
        const Outcome outcome =
            run(downloader, QStringLiteral("test-org/tiny-distilbert@") + m_server->commit);
        QVERIFY2(outcome.finished, qPrintable(outcome.message));
        QCOMPARE(outcome.snapshot, snapshot());
        expectComplete();
        QCOMPARE(m_server->requests.first().path, "/api/models/test-org/tiny-distilbert/revision/" +
                                                      m_server->commit.toUtf8() + "?blobs=true");
        // No ref names a commit (huggingface_hub writes none), but the folder is there: the
        // JavaScript hub library's scanCacheDir skips a repository without refs/.
        QCOMPARE(entries(repo()), QStringList({"blobs", "refs", "snapshots"}));
        QVERIFY(QFileInfo(repo() + "/refs").isDir());
        QCOMPARE(entries(repo() + "/refs"), QStringList());
    }

    // A snapshot is made outside snapshots/ (where a cache scan would list a folder a killed
    // run left as a revision) and renamed in; what a killed run left there goes.
    void snapshotIsMadeOutsideSnapshots()
    {
        const QString stale = repo() + "/.incomplete-snapshots/" + m_server->commit;
        QVERIFY(QDir().mkpath(stale));
        QFile leftover(stale + "/config.json");
        QVERIFY(leftover.open(QIODevice::WriteOnly));
        leftover.close();
        HubDownloader downloader(settings());
        const Outcome outcome = run(downloader);
        QVERIFY2(outcome.finished, qPrintable(outcome.message));
        expectComplete();
        QCOMPARE(entries(repo() + "/snapshots"), QStringList({m_server->commit}));
        QCOMPARE(entries(repo()), QStringList({"blobs", "refs", "snapshots"}));
    }

    void followsRedirectChain()
    {
        m_server->redirects = 3;
        HubDownloader downloader(settings());
        const Outcome outcome = run(downloader);
        QVERIFY2(outcome.finished, qPrintable(outcome.message));
        expectComplete();
        QStringList paths;
        for (const auto& request : m_server->requests)
            paths << QString::fromUtf8(request.path);
        QVERIFY(paths.contains("/redirect/3/model.safetensors"));
        QVERIFY(paths.contains("/cdn/model.safetensors"));
    }

    void tooManyRedirects()
    {
        m_server->redirects = 20;
        HubDownloader downloader(settings());
        const Outcome outcome = run(downloader);
        QCOMPARE(outcome.failure, DownloadFailure::Network);
        QVERIFY2(
            outcome.message.startsWith("test-org/tiny-distilbert: more than 10 redirects from "),
            qPrintable(outcome.message));
        expectNoSnapshot();
    }

    void resumesDroppedConnection()
    {
        m_server->dropFile = "model.safetensors";
        m_server->dropAfter = 10000;
        m_server->drops = 2;
        HubDownloader downloader(settings());
        downloader.setRetries(5, 0);
        const Outcome outcome = run(downloader);
        QVERIFY2(outcome.finished, qPrintable(outcome.message));
        expectComplete();
        QList<QByteArray> ranges;
        for (const auto& request : m_server->requests)
            if (request.path.endsWith("model.safetensors"))
                ranges << request.range;
        // The first from 0, then from what each dropped connection had delivered.
        QCOMPARE(ranges, QList<QByteArray>({"", "bytes=10000-", "bytes=20000-"}));
    }

    void givesUpAfterRepeatedDrops()
    {
        m_server->dropFile = "model.safetensors";
        m_server->dropAfter = 0;
        m_server->drops = 100;
        HubDownloader downloader(settings());
        downloader.setRetries(3, 0);
        const Outcome outcome = run(downloader);
        QCOMPARE(outcome.failure, DownloadFailure::Network);
        QVERIFY2(
            outcome.message.startsWith(
                "test-org/tiny-distilbert: the download of model.safetensors failed 3 times ("),
            qPrintable(outcome.message));
        expectNoSnapshot();
    }

    void resumesWhenServerIgnoresRange()
    {
        m_server->dropFile = "model.safetensors";
        m_server->dropAfter = 10000;
        m_server->drops = 1;
        m_server->ignoreRange = true;
        HubDownloader downloader(settings());
        downloader.setRetries(5, 0);
        const Outcome outcome = run(downloader);
        QVERIFY2(outcome.finished, qPrintable(outcome.message));
        expectComplete();
    }

    void rejectsWrongChecksum()
    {
        m_server->wrongSha256 = {"model.safetensors"};
        HubDownloader downloader(settings());
        const Outcome outcome = run(downloader);
        QCOMPARE(outcome.failure, DownloadFailure::Checksum);
        QVERIFY2(outcome.message.startsWith(
                     "test-org/tiny-distilbert: model.safetensors is damaged: its sha256 is " +
                     kWeightsSha256 + ", the Hub lists "),
                 qPrintable(outcome.message));
        QVERIFY(outcome.message.endsWith("; the file was removed, download again"));
        // config.json was good and stays; nothing of the weights is left.
        QCOMPARE(entries(repo() + "/blobs"), QStringList({kConfigBlob}));
        expectNoSnapshot();
    }

    void gatedModelNeedsToken()
    {
        m_server->apiStatus = 401;
        m_server->apiErrorCode = "GatedRepo";
        HubDownloader downloader(settings());
        const Outcome outcome = run(downloader);
        QCOMPARE(outcome.failure, DownloadFailure::Unauthorized);
        QVERIFY2(outcome.message.startsWith(
                     "test-org/tiny-distilbert: the Hub asks for a token (HTTP 401: a gated or "
                     "private model). Accept its terms on " +
                     m_server->endpoint() +
                     "/test-org/tiny-distilbert, then set HF_TOKEN or write the token to "),
                 qPrintable(outcome.message));
        QVERIFY(!QFileInfo::exists(repo()));
    }

    void unknownModel()
    {
        m_server->apiStatus = 404;
        m_server->apiErrorCode = "RepoNotFound";
        HubDownloader downloader(settings());
        const Outcome outcome = run(downloader);
        QCOMPARE(outcome.failure, DownloadFailure::NotFound);
        QCOMPARE(outcome.message, "test-org/tiny-distilbert: no such model on " +
                                      m_server->endpoint() +
                                      " (HTTP 404); check the id, and for a private model set "
                                      "HF_TOKEN");
        QVERIFY(!QFileInfo::exists(repo()));
    }

    void missingFile()
    {
        m_server->fileStatus.insert("tokenizer.json", 404);
        HubDownloader downloader(settings());
        const Outcome outcome = run(downloader);
        QCOMPARE(outcome.failure, DownloadFailure::NotFound);
        QCOMPARE(outcome.message, "test-org/tiny-distilbert (tokenizer.json): not found on " +
                                      m_server->endpoint() + " (HTTP 404)");
        expectNoSnapshot();
    }

    void slowConnectionCancelledThenResumed()
    {
        m_server->slowFile = "model.safetensors";
        m_server->slowIntervalMs = 5;
        HubDownloader downloader(settings());
        connect(&downloader, &HubDownloader::progress, &downloader, [&](qint64 done, qint64) {
            if (done > kConfigBytes + 3)
                downloader.cancel();
        });
        const Outcome outcome = run(downloader);
        QCOMPARE(outcome.failure, DownloadFailure::Cancelled);
        const QString incomplete = repo() + "/blobs/" + kWeightsSha256 + ".incomplete";
        QCOMPARE(outcome.message, "test-org/tiny-distilbert: download cancelled; the 4 bytes of "
                                  "model.safetensors downloaded so far are kept in " +
                                      incomplete + " and the next download resumes there");
        QCOMPARE(QFileInfo(incomplete).size(), 4);
        expectNoSnapshot();

        m_server->slowFile.clear();
        m_server->requests.clear();
        HubDownloader resumed(settings());
        QVERIFY(run(resumed).finished);
        expectComplete();
        QCOMPARE(m_server->requests.at(1).range, QByteArray("bytes=4-"));
    }

    void notEnoughFreeSpace()
    {
        HubDownloader downloader(settings());
        downloader.setFreeSpaceProbe([](const QString&) { return qint64(20000); });
        const Outcome outcome = run(downloader);
        QCOMPARE(outcome.failure, DownloadFailure::DiskFull);
        QCOMPARE(outcome.message, "test-org/tiny-distilbert: not enough free space in " +
                                      m_cache.path() +
                                      ": the download needs 39.3 kB more, 20.0 kB are free");
        QVERIFY(!QFileInfo::exists(repo()));
    }

    void diskFillsUp()
    {
        HubDownloader downloader(settings());
        downloader.setWriteLimitForTesting(kConfigBytes + 5000);
        const Outcome outcome = run(downloader);
        QCOMPARE(outcome.failure, DownloadFailure::DiskFull);
        const QString incomplete = repo() + "/blobs/" + kWeightsSha256 + ".incomplete";
        QCOMPARE(outcome.message, "cannot write " + incomplete +
                                      ": No space left on device; the 5.0 kB of "
                                      "model.safetensors downloaded so far are kept in " +
                                      incomplete + " and the next download resumes there");
        QCOMPARE(QFileInfo(incomplete).size(), 5000);
        expectNoSnapshot();

        HubDownloader resumed(settings());
        QVERIFY(run(resumed).finished);
        expectComplete();
    }

    void blobLockedByAnotherProcess()
    {
        // huggingface_hub's lock file, held as its filelock holds it (flock).
        const QString lockFolder = m_cache.filePath(".locks/models--test-org--tiny-distilbert");
        QVERIFY(QDir().mkpath(lockFolder));
        const QString lock = lockFolder + "/" + kWeightsSha256 + ".lock";
        const int fd = ::open(QFile::encodeName(lock).constData(), O_RDWR | O_CREAT, 0644);
        QVERIFY(fd >= 0);
        QCOMPARE(::flock(fd, LOCK_EX | LOCK_NB), 0);
        HubDownloader downloader(settings());
        const Outcome outcome = run(downloader);
        ::close(fd);
        QCOMPARE(outcome.failure, DownloadFailure::Network);
        QCOMPARE(outcome.message, "test-org/tiny-distilbert: model.safetensors is being "
                                  "downloaded by another process (it holds " +
                                      lock + "); try again once it is done");
        QVERIFY(!QFileInfo::exists(repo() + "/blobs/" + kWeightsSha256 + ".incomplete"));
        expectNoSnapshot();
        // Released: the next download goes through, and leaves the lock files unlocked.
        HubDownloader again(settings());
        QVERIFY(run(again).finished);
        const int probe = ::open(QFile::encodeName(lock).constData(), O_RDWR);
        QCOMPARE(::flock(probe, LOCK_EX | LOCK_NB), 0);
        ::close(probe);
    }

    void offline()
    {
        HubSettings s = settings();
        s.offline = true;
        HubDownloader missing(s);
        Outcome outcome = run(missing);
        QCOMPARE(outcome.failure, DownloadFailure::Offline);
        QCOMPARE(outcome.message, "test-org/tiny-distilbert: HF_HUB_OFFLINE is set and revision "
                                  "main is not in the cache (" +
                                      repo() + "); unset HF_HUB_OFFLINE to download it");
        QVERIFY(m_server->requests.isEmpty());

        HubDownloader online(settings());
        QVERIFY(run(online).finished);
        m_server->requests.clear();
        HubDownloader cached(s);
        outcome = run(cached);
        QCOMPARE(outcome.snapshot, snapshot());
        QVERIFY(m_server->requests.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestHubDownload)
#include "tst_hub_download.moc"
