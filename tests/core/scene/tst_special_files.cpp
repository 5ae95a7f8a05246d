// Every reader refuses what is not a regular file, at once and by name: a FIFO in place of a
// model's config.json, weights or tokenizer files, of a word-vector file, a scene or a matrix
// (opening a FIFO for reading waits for a writer, for ever when none comes), and a link to
// /dev/zero (read until memory runs out). Files larger than their kind's limit are refused
// before they are read.
#include "core/error.h"
#include "core/matrix_io.h"
#include "core/model/model_config.h"
#include "core/model/model_loader.h"
#include "core/regular_file.h"
#include "core/scene_json.h"
#include "core/word_vectors.h"
#include "support/error_of.h"
#include "support/raw_safetensors.h"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <fcntl.h>
#include <functional>
#include <future>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace attn::core;

namespace {

bool makeFifo(const QString& path)
{
    QFile::remove(path);
    return ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0;
}

// The message of the Error `read` throws ("" for none). A reader that blocks on `fifo` (the
// bug this file guards against) is released after 10 s by a writer that opens the FIFO and
// closes it, so that it sees the end of the file and the test fails instead of hanging.
QString errorWithin(const std::function<void()>& read, const QString& fifo, bool& prompt)
{
    std::promise<QString> result;
    std::future<QString> done = result.get_future();
    std::thread reader([&] {
        try {
            read();
            result.set_value(QString());
        } catch (const std::exception& error) {
            result.set_value(QString::fromUtf8(error.what()));
        }
    });
    prompt = done.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
    while (!prompt && done.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
        const int fd = ::open(QFile::encodeName(fifo).constData(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            ::close(fd);
    }
    reader.join();
    return done.get();
}

using Read = std::function<void(const QString& folder)>;

} // namespace

Q_DECLARE_METATYPE(Read)

class TestSpecialFiles : public QObject
{
    Q_OBJECT

private slots:
    // Each file of a model folder, replaced by a FIFO: opening the model names it.
    void fifoInAModelFolder_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("file");
        const auto row = [](const char* fixture, const char* file) {
            QTest::addRow("%s %s", fixture, file)
                << QString::fromLatin1(fixture) << QString::fromLatin1(file);
        };
        row("gpt2", "config.json");
        row("gpt2", "model.safetensors");
        row("gpt2", "vocab.json");
        row("gpt2", "merges.txt");
        row("gpt2", "tokenizer_config.json");
        row("llama", "tokenizer.json");
        row("bert", "vocab.txt");
        row("gpt2-noprefix-f16", "model.safetensors.index.json");
        row("gpt2-noprefix-f16", "model-00002-of-00002.safetensors");
    }

    void fifoInAModelFolder()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, file);
        QTemporaryDir dir;
        const QString folder = rawst::copyFixture(fixture, dir.filePath(QStringLiteral("model")));
        const QString fifo = QDir(folder).filePath(file);
        QVERIFY(makeFifo(fifo));
        bool prompt = false;
        const QString error = errorWithin([&] { loadModel(folder); }, fifo, prompt);
        QVERIFY2(prompt, "loading the model blocked on the FIFO");
        QCOMPARE(error, fifo + QStringLiteral(" is not a regular file (a FIFO)"));
    }

    // A scene names a model folder beside it whose weights are a FIFO: the model it names
    // fails to open at once.
    void sceneNamingACheckpointWithAFifo()
    {
        QTemporaryDir dir;
        const QString folder =
            rawst::copyFixture(QStringLiteral("gpt2"), dir.filePath(QStringLiteral("tiny")));
        const QString fifo = QDir(folder).filePath(QStringLiteral("model.safetensors"));
        QVERIFY(makeFifo(fifo));
        const QString scenePath = dir.filePath(QStringLiteral("scene.json"));
        rawst::writeAll(scenePath, R"({"format": "attention-explorer-scene", "version": 2,
                                       "text": "The cat", "checkpoint": {"path": "tiny"}})");
        const Scene scene = loadScene(scenePath);
        QVERIFY(scene.checkpoint);
        QCOMPARE(scene.checkpoint->resolved, folder);
        bool prompt = false;
        const QString error =
            errorWithin([&] { loadModel(scene.checkpoint->resolved); }, fifo, prompt);
        QVERIFY2(prompt, "opening the scene's model blocked on the FIFO");
        QCOMPARE(error, fifo + QStringLiteral(" is not a regular file (a FIFO)"));
    }

    // The Hugging Face cache's refs/main as a FIFO: the newest snapshot is taken instead.
    void fifoRefInTheCache()
    {
        QTemporaryDir hub;
        const QString repo = hub.filePath(QStringLiteral("models--org--tiny"));
        const QString snapshot =
            rawst::copyFixture(QStringLiteral("gpt2"), repo + QStringLiteral("/snapshots/abc"));
        QVERIFY(QDir().mkpath(repo + QStringLiteral("/refs")));
        const QString fifo = repo + QStringLiteral("/refs/main");
        QVERIFY(makeFifo(fifo));
        qputenv("HF_HUB_CACHE", hub.path().toUtf8());
        bool prompt = false;
        QString resolved;
        const QString error = errorWithin(
            [&] { resolved = resolveModelFolder(QStringLiteral("org/tiny")); }, fifo, prompt);
        qunsetenv("HF_HUB_CACHE");
        QVERIFY2(prompt, "resolving the model id blocked on refs/main");
        QCOMPARE(error, QString());
        QCOMPARE(resolved, snapshot);
    }

    // Files that are not part of a model: word vectors (alone and named by a scene), a scene,
    // matrices.
    void fifoAsAnotherFile_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<Read>("read");
        QTest::addColumn<QString>("prefix"); // what the reader puts before the helper's message
        QTest::newRow("word vectors")
            << QStringLiteral("vectors.txt")
            << Read([](const QString& path) { WordVectors::load(path); }) << QString();
        QTest::newRow("a scene's word vectors")
            << QStringLiteral("vectors.txt") << Read([](const QString& path) {
                   const QString scene =
                       QFileInfo(path).dir().filePath(QStringLiteral("scene.json"));
                   rawst::writeAll(
                       scene,
                       R"({"format": "attention-explorer-scene", "version": 1, "text": "the cat",
                                             "embedding": {"kind": "wordvectors", "file": "vectors.txt"},
                                             "model": {"d_model": 4, "heads": 1}})");
                   loadScene(scene);
               })
            << QStringLiteral("scene.json: embedding.file: ");
        QTest::newRow("scene") << QStringLiteral("scene.json")
                               << Read([](const QString& path) { loadScene(path); }) << QString();
        for (const char* name : {"m.npy", "m.csv", "m.safetensors"})
            QTest::newRow(name) << QString::fromLatin1(name)
                                << Read([](const QString& path) { readMatrixFile(path); })
                                << QString();
    }

    void fifoAsAnotherFile()
    {
        QFETCH(QString, file);
        QFETCH(Read, read);
        QFETCH(QString, prefix);
        QTemporaryDir dir;
        const QString fifo = dir.filePath(file);
        QVERIFY(makeFifo(fifo));
        bool prompt = false;
        const QString error = errorWithin([&] { read(fifo); }, fifo, prompt);
        QVERIFY2(prompt, "the reader blocked on the FIFO");
        QCOMPARE(error, prefix + fifo + QStringLiteral(" is not a regular file (a FIFO)"));
    }

    // config.json linked to /dev/zero was read until memory ran out.
    void configLinkedToDevZero()
    {
        QTemporaryDir dir;
        const QString folder =
            rawst::copyFixture(QStringLiteral("gpt2"), dir.filePath(QStringLiteral("model")));
        const QString config = QDir(folder).filePath(QStringLiteral("config.json"));
        QVERIFY(QFile::remove(config));
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), config));
        QCOMPARE(attn::test::errorOf([&] { loadModel(folder); }),
                 config + QStringLiteral(
                              " is not a regular file (a link to /dev/zero, a character device)"));
    }

    // Each kind's limit, one byte past it (sparse files: nothing is written but the size).
    void largerThanItsKindAllows_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<qint64>("size");
        QTest::addColumn<QString>("limit");
        QTest::newRow("config.json") << QStringLiteral("config.json") << (qint64(16) << 20) + 1
                                     << QStringLiteral("16 MiB (16777217 bytes)");
        QTest::newRow("tokenizer_config.json")
            << QStringLiteral("tokenizer_config.json") << (qint64(16) << 20) + 1
            << QStringLiteral("16 MiB (16777217 bytes)");
        QTest::newRow("vocab.json") << QStringLiteral("vocab.json") << (qint64(256) << 20) + 1
                                    << QStringLiteral("256 MiB (268435457 bytes)");
    }

    void largerThanItsKindAllows()
    {
        QFETCH(QString, file);
        QFETCH(qint64, size);
        QFETCH(QString, limit);
        QTemporaryDir dir;
        const QString folder =
            rawst::copyFixture(QStringLiteral("gpt2"), dir.filePath(QStringLiteral("model")));
        const QString path = QDir(folder).filePath(file);
        QFile big(path);
        QVERIFY(big.open(QIODevice::ReadWrite) && big.resize(size));
        big.close();
        QCOMPARE(attn::test::errorOf([&] { loadModel(folder); }),
                 path + QStringLiteral(" is larger than ") + limit);
    }

    // The helper itself: at the limit a file is read, one byte past it refused; a folder and a
    // missing file are named.
    void limitsExactly()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ten"));
        rawst::writeAll(path, "0123456789");
        QCOMPARE(readRegularFile(path, 10), QByteArray("0123456789"));
        QCOMPARE(attn::test::errorOf([&] { readRegularFile(path, 9); }),
                 path + QStringLiteral(" is larger than 9 bytes (10 bytes)"));
        QCOMPARE(attn::test::errorOf([&] { readRegularFile(path, 1024 * 3); }), QString());
        rawst::writeAll(path, QByteArray(3 * 1024 + 1, 'x'));
        QCOMPARE(attn::test::errorOf([&] { readRegularFile(path, 1024 * 3); }),
                 path + QStringLiteral(" is larger than 3 KiB (3073 bytes)"));
        QCOMPARE(attn::test::errorOf([&] { readRegularFile(dir.path(), 100); }),
                 dir.path() + QStringLiteral(" is not a regular file (a folder)"));
        const QString missing = dir.filePath(QStringLiteral("missing"));
        QCOMPARE(attn::test::errorOf([&] { readRegularFile(missing, 100); }),
                 QStringLiteral("cannot read ") + missing +
                     QStringLiteral(": No such file or directory"));
        // A regular file reached through a link is read.
        const QString link = dir.filePath(QStringLiteral("link"));
        QVERIFY(QFile::link(path, link));
        QCOMPARE(readRegularFile(link, 1 << 20).size(), 3 * 1024 + 1);
        // Qt resources are read as they are.
        QVERIFY(!attn::test::errorOf([] {
                     readRegularFile(QStringLiteral(":/no/such/resource"), 100);
                 }).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSpecialFiles)
#include "tst_special_files.moc"
