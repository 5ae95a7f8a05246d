// --download ID[@REVISION]: the real executable against the loopback Hub of
// tests/hub/hub_test_server.h, with the exit codes of the README.

#include "hub/hub_test_server.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using attn::test::HubTestServer;

namespace {

struct Run
{
    int code = -1;
    QString out;
    QString err;
};

} // namespace

class TestDownloadCommand : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;
    QTemporaryDir m_runtime; // made 0700, as Qt wants XDG_RUNTIME_DIR (else a warning on stderr)
    std::unique_ptr<HubTestServer> m_server;

    // Runs the executable while this thread's event loop serves its requests.
    Run run(const QStringList& arguments, const QStringList& extra = {})
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"HF_TOKEN", "HF_HUB_OFFLINE", "HF_HUB_CACHE",
                                 "HUGGINGFACE_HUB_CACHE", "HF_TOKEN_PATH"})
            env.remove(name);
        env.insert("HF_HOME", m_home.path());
        env.insert("XDG_RUNTIME_DIR", m_runtime.path());
        env.insert("HF_ENDPOINT", m_server->endpoint());
        for (const QString& variable : extra)
            env.insert(variable.section('=', 0, 0), variable.section('=', 1));
        process.setProcessEnvironment(env);
        process.start(ATTN_EXPLORER_EXE, arguments);
        if (!QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; }, 60000)) {
            process.kill();
            process.waitForFinished();
            return {};
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()),
                QString::fromUtf8(process.readAllStandardError())};
    }
    QString snapshot() const
    {
        return m_home.filePath("hub/models--test-org--tiny-distilbert/snapshots/" +
                               m_server->commit);
    }

private slots:
    void init()
    {
        m_server = std::make_unique<HubTestServer>(
            QStringLiteral(ATTN_TEST_DATA_DIR "/models/distilbert"));
        QDir(m_home.path()).removeRecursively();
        QDir().mkpath(m_home.path());
    }

    void downloadsThenOpensById()
    {
        const Run download = run({"--download", "test-org/tiny-distilbert"});
        QCOMPARE(download.code, 0);
        QCOMPARE(download.out, snapshot() + "\n");
        // Not a terminal: one line per file instead of a progress bar.
        QCOMPARE(download.err, "test-org/tiny-distilbert: revision " + m_server->commit +
                                   ", 39.3 kB\n"
                                   "  config.json (499 bytes)\n"
                                   "  model.safetensors (31.4 kB)\n"
                                   "  tokenizer.json (6.2 kB)\n"
                                   "  tokenizer_config.json (319 bytes)\n"
                                   "  vocab.txt (851 bytes)\n");
        QVERIFY(QFileInfo(snapshot() + "/model.safetensors").isSymLink());

        // The cached id opens as a model, offline.
        const Run open =
            run({"--model", "test-org/tiny-distilbert", "--model-info"}, {"HF_HUB_OFFLINE=1"});
        QVERIFY2(open.code == 0, qPrintable(open.err));
        const Run again = run({"--download", "test-org/tiny-distilbert"}, {"HF_HUB_OFFLINE=1"});
        QCOMPARE(again.code, 0);
        QCOMPARE(again.out, snapshot() + "\n");
    }

    void modelThatCannotBeDownloaded()
    {
        m_server->apiStatus = 404;
        m_server->apiErrorCode = "RepoNotFound";
        const Run result = run({"--download", "test-org/tiny-distilbert@v2"});
        QCOMPARE(result.code, 3);
        QCOMPARE(result.out, QString());
        QCOMPARE(result.err, "attention-explorer: test-org/tiny-distilbert: no such model on " +
                                 m_server->endpoint() +
                                 " (HTTP 404); check the id, and for a private model set "
                                 "HF_TOKEN\n");
        QCOMPARE(m_server->requests.first().path,
                 "/api/models/test-org/tiny-distilbert/revision/v2?blobs=true");

        const Run offline = run({"--download", "gpt2"}, {"HF_HUB_OFFLINE=1"});
        QCOMPARE(offline.code, 3);
        QVERIFY2(offline.err.startsWith("attention-explorer: gpt2: HF_HUB_OFFLINE is set"),
                 qPrintable(offline.err));
    }

    void cacheThatCannotBeWritten()
    {
        // HF_HOME under a regular file: no folder can be made there.
        QFile file(m_home.filePath("file"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const Run result = run({"--download", "test-org/tiny-distilbert"},
                               {"HF_HOME=" + file.fileName() + "/home"});
        QCOMPARE(result.code, 4);
        QVERIFY2(result.err.startsWith("attention-explorer: cannot create the folder "),
                 qPrintable(result.err));
    }

    void usage()
    {
        Run result = run({"--download", "a--b"});
        QCOMPARE(result.code, 2);
        QVERIFY2(result.err.startsWith("attention-explorer: --download: a--b: not a model id"),
                 qPrintable(result.err));
        result = run({"--download", "gpt2", "--text", "x"});
        QCOMPARE(result.code, 2);
        QVERIFY2(result.err.startsWith("attention-explorer: --download takes no other option"),
                 qPrintable(result.err));
        QVERIFY(m_server->requests.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDownloadCommand)
#include "tst_download_command.moc"
