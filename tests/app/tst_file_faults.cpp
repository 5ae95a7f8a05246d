// The command line's outputs as an attacker of files would try them: a dump read
// back by a plain JSON reader against a reference computed here, dumps to a FIFO and to
// standard output, a dump too large refused up front, --export-all stopped half-way by a
// folder in its way or a full disk (no partial set), an output path that is a folder.
#include "support/reference_attention.h"
#include "support/run_executable.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace reference = attn::test::reference;
using reference::Dense;

namespace {

const QString kExe = QStringLiteral(ATTN_EXPLORER_EXE);
const QString kMultiHead =
    QStringLiteral(ATTN_RESOURCES_DIR "/examples/12-multi-head-one-off.json");

constexpr auto run = [](const QStringList& arguments) {
    return attn::test::runExplorer(arguments);
};

// Under `ulimit -f` (512-byte blocks) with SIGXFSZ ignored, as a disk that fills up: a write
// past the limit fails with "File too large".
attn::test::Run runWithFileSizeLimit(int blocks, const QStringList& arguments)
{
    return attn::test::runExecutable(
        QStringLiteral("/bin/sh"),
        QStringList{QStringLiteral("-c"),
                    QStringLiteral("trap '' XFSZ; ulimit -f %1; exec \"$0\" \"$@\"").arg(blocks),
                    kExe} +
            arguments);
}

QJsonArray matrixJson(const Dense& m)
{
    QJsonArray rows;
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        QJsonArray row;
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            row.append(m(i, j));
        rows.append(row);
    }
    return rows;
}

// The reference problem as a scene file: table embeddings, no positions, its weights.
QByteArray sceneFor(const reference::Spec& s)
{
    QJsonObject table;
    for (Eigen::Index i = 0; i < s.X.rows(); ++i)
        table.insert(QLatin1String(reference::kFiveTokenWords[i]), matrixJson(s.X.row(i)).at(0));
    QJsonArray heads;
    for (const reference::Head& h : s.heads)
        heads.append(QJsonObject{{QStringLiteral("enabled"), true},
                                 {QStringLiteral("W_q"), matrixJson(h.Wq)},
                                 {QStringLiteral("W_k"), matrixJson(h.Wk)},
                                 {QStringLiteral("W_v"), matrixJson(h.Wv)}});
    QJsonArray custom;
    for (const auto& [i, j] : s.custom)
        custom.append(QJsonArray{i, j});
    QJsonArray padding;
    for (std::size_t j = 0; j < s.padding.size(); ++j)
        if (s.padding[j])
            padding.append(int(j));
    const QJsonObject scene{
        {QStringLiteral("format"), QStringLiteral("attention-explorer-scene")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("text"), QStringLiteral("the pad cat sat down")},
        {QStringLiteral("tokenizer"),
         QJsonObject{{QStringLiteral("mode"), QStringLiteral("whitespace")}}},
        {QStringLiteral("padding"), QJsonObject{{QStringLiteral("positions"), padding}}},
        {QStringLiteral("embedding"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("table")},
                                                  {QStringLiteral("table"), table}}},
        {QStringLiteral("positional"),
         QJsonObject{{QStringLiteral("kind"), QStringLiteral("none")}}},
        {QStringLiteral("model"), QJsonObject{{QStringLiteral("d_model"), int(s.X.cols())},
                                              {QStringLiteral("heads"), int(s.heads.size())},
                                              {QStringLiteral("d_k"), int(s.heads[0].Wq.cols())},
                                              {QStringLiteral("d_v"), int(s.heads[0].Wv.cols())}}},
        {QStringLiteral("heads"), heads},
        {QStringLiteral("W_o"), matrixJson(s.Wo)},
        {QStringLiteral("attention"),
         QJsonObject{
             {QStringLiteral("score"), s.scaled ? QStringLiteral("scaled") : QStringLiteral("dot")},
             {QStringLiteral("normalize"), QStringLiteral("softmax")},
             {QStringLiteral("fill"),
              s.minusNineE15 ? QStringLiteral("-9e15") : QStringLiteral("-inf")}}},
        {QStringLiteral("mask"),
         QJsonObject{{QStringLiteral("causal"), s.causal},
                     {QStringLiteral("window"), s.window < 0 ? QJsonValue() : QJsonValue(s.window)},
                     {QStringLiteral("padding"), s.maskPadding},
                     {QStringLiteral("custom"), custom}}},
    };
    return QJsonDocument(scene).toJson();
}

// A dump's matrix as plain numbers; the strings "inf", "-inf" and "nan" are what JSON
// cannot hold (docs/DUMP_FORMAT.md).
Dense matrixOf(const QJsonValue& value)
{
    const QJsonArray rows = value.toArray();
    Dense m(rows.size(), rows.isEmpty() ? 0 : rows.at(0).toArray().size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QJsonArray row = rows.at(i).toArray();
        if (row.size() != m.cols())
            return Dense(0, 0);
        for (qsizetype j = 0; j < row.size(); ++j) {
            const QJsonValue cell = row.at(j);
            const QString text = cell.toString();
            m(i, j) = cell.isDouble()                 ? cell.toDouble()
                      : text == QLatin1String("-inf") ? -INFINITY
                      : text == QLatin1String("inf")  ? INFINITY
                                                      : NAN;
        }
    }
    return m;
}

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

QStringList entries(const QString& folder)
{
    return QDir(folder).entryList(
        QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

mode_t modeOf(const QString& path)
{
    struct stat status
    {
    };
    return ::stat(QFile::encodeName(path).constData(), &status) == 0 ? status.st_mode : 0;
}

} // namespace

class TestFileFaults : public QObject
{
    Q_OBJECT

private slots:
    void dumpReadBackMatchesTheReference_data()
    {
        QTest::addColumn<bool>("minusNineE15");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<bool>("padding");
        QTest::addColumn<bool>("custom");
        for (const bool fill : {false, true}) {
            const char* f = fill ? "-9e15" : "-inf";
            QTest::addRow("no mask, %s", f) << fill << false << false << false;
            QTest::addRow("causal + padding, %s", f) << fill << true << true << false;
            QTest::addRow("causal + padding + a fully masked row, %s", f)
                << fill << true << true << true;
        }
    }

    // Nothing of the serialiser on the reading side: the dump of the CPU backend parsed by
    // QJsonDocument, every stage of both heads (d_k 2, d_v 3) against the double reference.
    void dumpReadBackMatchesTheReference()
    {
        QFETCH(bool, minusNineE15);
        QFETCH(bool, causal);
        QFETCH(bool, padding);
        QFETCH(bool, custom);
        reference::Spec s = reference::fiveTokens();
        s.minusNineE15 = minusNineE15;
        s.causal = causal;
        s.maskPadding = padding;
        if (custom)
            s.custom = {{0, 0}};
        QTemporaryDir dir;
        const QString scenePath = dir.filePath(QStringLiteral("scene.json"));
        writeFile(scenePath, sceneFor(s));
        const QString dumpPath = dir.filePath(QStringLiteral("dump.json"));
        const auto r = run({scenePath, QStringLiteral("--backend"), QStringLiteral("cpu"),
                            QStringLiteral("--dump"), dumpPath});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile file(dumpPath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonParseError error{};
        const QJsonObject dump = QJsonDocument::fromJson(file.readAll(), &error).object();
        QCOMPARE(error.error, QJsonParseError::NoError);

        const reference::Result want = reference::compute(s);
        const QJsonArray heads = dump.value(QStringLiteral("heads")).toArray();
        QCOMPARE(heads.size(), qsizetype(want.heads.size()));
        for (qsizetype h = 0; h < heads.size(); ++h) {
            const QJsonObject head = heads.at(h).toObject();
            const reference::HeadResult& ref = want.heads[std::size_t(h)];
            const std::pair<const char*, const Dense*> stages[] = {{"rawScores", &ref.raw},
                                                                   {"scaledScores", &ref.scaled},
                                                                   {"maskedScores", &ref.masked},
                                                                   {"weights", &ref.weights},
                                                                   {"output", &ref.output}};
            for (const auto& [key, expected] : stages)
                QVERIFY2(reference::difference(matrixOf(head.value(QLatin1String(key))),
                                               *expected) < 1e-5,
                         qPrintable(QStringLiteral("head %1 %2").arg(h).arg(QLatin1String(key))));
        }
        QVERIFY(reference::difference(matrixOf(dump.value(QStringLiteral("concat"))), want.concat) <
                1e-5);
        QVERIFY(reference::difference(matrixOf(dump.value(QStringLiteral("output"))), want.z) <
                1e-5);
        const QJsonObject settings = dump.value(QStringLiteral("settings")).toObject();
        QCOMPARE(settings.value(QStringLiteral("d_k")).toInt(), 2);
        QCOMPARE(settings.value(QStringLiteral("d_v")).toInt(), 3);
        QVERIFY(std::abs(settings.value(QStringLiteral("scoreScale")).toDouble() -
                         1.0 / std::sqrt(2.0)) < 1e-6);
    }

    // The probe: --dump to a FIFO replaced it with a regular file and exited 0.
    void dumpToAFifoWritesThrough()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("dump.fifo"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        // Opened without blocking, before the app opens it for writing; read while it runs so
        // that a dump larger than the pipe's buffer goes through.
        const int fd = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
        QVERIFY(fd >= 0);
        QProcess process;
        process.start(kExe, {QStringLiteral("--backend"), QStringLiteral("cpu"),
                             QStringLiteral("--dump"), fifo});
        QByteArray received;
        char buffer[65536];
        auto drain = [&] {
            for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
                received.append(buffer, n);
        };
        QElapsedTimer timer;
        timer.start();
        while (!process.waitForFinished(20) && timer.elapsed() < 120000)
            drain();
        drain();
        ::close(fd);
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QVERIFY(S_ISFIFO(modeOf(fifo)));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("dump.fifo")});
        const QJsonObject dump = QJsonDocument::fromJson(received).object();
        QCOMPARE(dump.value(QStringLiteral("format")).toString(),
                 QStringLiteral("attention-explorer-dump"));
    }

    void dumpToStandardOutput()
    {
        const auto r = run({QStringLiteral("--backend"), QStringLiteral("cpu"),
                            QStringLiteral("--dump"), QStringLiteral("-")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject dump = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(dump.value(QStringLiteral("format")).toString(),
                 QStringLiteral("attention-explorer-dump"));
        QVERIFY(!QFile::exists(QStringLiteral("-")));
    }

    void dumpIntoAFolderSaysSo()
    {
        QTemporaryDir dir;
        const auto r = run({QStringLiteral("--backend"), QStringLiteral("cpu"),
                            QStringLiteral("--dump"), dir.path()});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains(QStringLiteral("cannot write %1: Is a directory").arg(dir.path())),
                 qPrintable(r.err));
    }

    void dumpTooLargeIsRefusedUpFront_data()
    {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("heads");
        QTest::addRow("4096 tokens, 1 head") << 4096 << 1;
        QTest::addRow("16384 tokens, 2 heads") << 16384 << 2;
    }

    // Scenes the app accepts, whose dump would end in std::bad_alloc (exit 134 after a
    // minute): refused before computing, with the limit and what to do instead.
    void dumpTooLargeIsRefusedUpFront()
    {
        QFETCH(int, tokens);
        QFETCH(int, heads);
        QStringList words;
        for (int k = 0; k < tokens; ++k)
            words.append(QStringLiteral("w%1").arg(k));
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("dump.json"));
        QElapsedTimer timer;
        timer.start();
        const auto r =
            run({QStringLiteral("--text"), words.join(QLatin1Char(' ')), QStringLiteral("--heads"),
                 QString::number(heads), QStringLiteral("--backend"), QStringLiteral("cpu"),
                 QStringLiteral("--dump"), out});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("more than the 67108864 a dump may hold")),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
        qInfo("refused in %lld ms", timer.elapsed());
    }

    // The set is written whole or not at all: a folder where head-2.png should go stops it
    // before any figure is in place.
    void exportAllWithAFolderInTheWayWritesNothing()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("lecture"));
        QVERIFY(QDir().mkpath(out + QStringLiteral("/head-2.png")));
        const auto r = run({kMultiHead, QStringLiteral("--backend"), QStringLiteral("cpu"),
                            QStringLiteral("--export-all"), out});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains(QStringLiteral("head-2.png: Is a directory")), qPrintable(r.err));
        QCOMPARE(entries(out), QStringList{QStringLiteral("head-2.png")});
    }

    // A disk that fills up half-way (here a file size limit): no figure written, the new
    // folder removed again, the old file of the same name intact, and the cause named.
    void exportAllStoppedByAFullDiskWritesNothing()
    {
        QTemporaryDir dir;
        const QString fresh = dir.filePath(QStringLiteral("fresh"));
        auto r = runWithFileSizeLimit(32, {kMultiHead, QStringLiteral("--backend"),
                                           QStringLiteral("cpu"), QStringLiteral("--export-all"),
                                           fresh});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains(QStringLiteral("File too large")), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(fresh));

        const QString existing = dir.filePath(QStringLiteral("existing"));
        QVERIFY(QDir().mkpath(existing));
        writeFile(existing + QStringLiteral("/heads.png"), "last week's figure");
        r = runWithFileSizeLimit(32,
                                 {kMultiHead, QStringLiteral("--backend"), QStringLiteral("cpu"),
                                  QStringLiteral("--export-all"), existing});
        QCOMPARE(r.code, 4);
        QCOMPARE(entries(existing), QStringList{QStringLiteral("heads.png")});
        QFile old(existing + QStringLiteral("/heads.png"));
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("last week's figure"));
    }
};

QTEST_GUILESS_MAIN(TestFileFaults)
#include "tst_file_faults.moc"
