// attention-explorer --seq2seq and --seq2seq-train, run as a user runs them: the dump against
// PyTorch's decoding of the tutorial's model (tests/data/seq2seq), training and saving a task's
// model that then opens, the figure, and the usage and input errors with their exit codes.
#include "support/run_executable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace {

constexpr auto run = [](const QStringList& arguments) {
    return attn::test::runExplorer(arguments);
};

constexpr auto readJson = attn::test::readJsonObject;

QString fixture(const QString& name)
{
    return QStringLiteral(ATTN_TEST_DATA_DIR "/seq2seq/") + name;
}

} // namespace

class TestSeq2SeqCommand : public QObject
{
    Q_OBJECT

private slots:
    // Every sentence PyTorch decoded: the same ids, the attention and log-probabilities of
    // each step within float32's rounding.
    void dumpIsPyTorchsDecoding()
    {
        const QJsonArray cases = readJson(fixture(
            QStringLiteral("tutorial-bahdanau/expected.json")))[QStringLiteral("cases")]
                                     .toArray();
        QCOMPARE(cases.size(), 3);
        QTemporaryDir dir;
        for (const QJsonValue& value : cases) {
            const QJsonObject expected = value.toObject();
            const QString dump = dir.filePath(QStringLiteral("out.json"));
            const auto r =
                run({QStringLiteral("--seq2seq"), fixture(QStringLiteral("tutorial-bahdanau")),
                     QStringLiteral("--text"), expected[QStringLiteral("text")].toString(),
                     QStringLiteral("--dump"), dump});
            QCOMPARE(r.code, 0);
            const QJsonObject got = readJson(dump)[QStringLiteral("seq2seq")].toObject();
            QCOMPARE(got[QStringLiteral("source_ids")].toArray(),
                     expected[QStringLiteral("source_ids")].toArray());
            QCOMPARE(got[QStringLiteral("output_ids")].toArray(),
                     expected[QStringLiteral("output_ids")].toArray());
            const QJsonArray steps = got[QStringLiteral("steps")].toArray();
            const QJsonArray want = expected[QStringLiteral("steps")].toArray();
            QCOMPARE(steps.size(), want.size());
            for (int s = 0; s < steps.size(); ++s) {
                for (const char* key : {"attention", "log_probs"}) {
                    const QJsonArray a = steps[s].toObject()[QLatin1String(key)].toArray();
                    const QJsonArray b = want[s].toObject()[QLatin1String(key)].toArray();
                    QCOMPARE(a.size(), b.size());
                    for (int k = 0; k < a.size(); ++k)
                        QVERIFY2(std::abs(a[k].toDouble() - b[k].toDouble()) < 1e-5, key);
                }
            }
        }
        // The translation on stdout: ids [6, 7, 3, 1] are "mouse . black" and EOS.
        const auto r =
            run({QStringLiteral("--seq2seq"), fixture(QStringLiteral("tutorial-bahdanau")),
                 QStringLiteral("--text"), QStringLiteral("Le chat noir a mangé la souris.")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out.trimmed(), QStringLiteral("mouse . black"));
    }

    // A task trained, saved and opened again: the saved model translates as the trained one.
    void trainedModelIsSavedAndOpens()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("reverse"));
        const QString dump = dir.filePath(QStringLiteral("training.json"));
        const auto trained = run({QStringLiteral("--seq2seq-train"), QStringLiteral("reverse"),
                                  QStringLiteral("--steps"), QStringLiteral("5"),
                                  QStringLiteral("--save"), folder, QStringLiteral("--text"),
                                  QStringLiteral("a b c"), QStringLiteral("--dump"), dump});
        QCOMPARE(trained.code, 0);
        QVERIFY(trained.out.startsWith(QStringLiteral("reverse: 5 steps, loss ")));
        // The held-out accuracy by source length, in buckets of five tokens (Bahdanau et al.
        // 2015, Fig. 2): reverse's 3 to 8 letters fall in two, 200 pairs in all.
        const QStringList lines = trained.out.split(QLatin1Char('\n'));
        QCOMPARE(lines.value(1), QStringLiteral("source tokens  pairs  exact match  words right"));
        int pairs = 0;
        for (int i = 2; i <= 3; ++i) {
            const QStringList fields = lines.value(i).simplified().split(QLatin1Char(' '));
            QCOMPARE(fields.size(), 6);
            QCOMPARE(fields[0], i == 2 ? QStringLiteral("0-4") : QStringLiteral("5-9"));
            pairs += fields[1].toInt();
        }
        QCOMPARE(pairs, 200);
        const QJsonObject training = readJson(dump)[QStringLiteral("training")].toObject();
        QCOMPARE(training[QStringLiteral("loss")].toArray().size(), 5);
        QVERIFY(training[QStringLiteral("accuracy")].toDouble() >= 0.0);
        const QString translation = trained.out.trimmed().section(QLatin1Char('\n'), -1);
        const auto reopened = run({QStringLiteral("--seq2seq"), folder, QStringLiteral("--text"),
                                   QStringLiteral("a b c")});
        QCOMPARE(reopened.code, 0);
        QCOMPARE(reopened.out.trimmed(), translation);
    }

    // A pairs file in eng-fra.txt's format trains a model, without attention here; the dump
    // has the held-out accuracy by source length. A malformed line exits 3 naming it, and
    // nothing is written.
    void pairsFileTrainsAndMalformedLineIsNamed()
    {
        QTemporaryDir dir;
        const QString pairs = dir.filePath(QStringLiteral("eng-fra.txt"));
        QFile file(pairs);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 0; i < 20; ++i)
            file.write("I am cold.\tJ'ai froid.\tCC-BY 2.0\nHe is tall.\tIl est grand.\n"
                       "You are kind.\tTu es gentil.\n");
        file.close();
        const QString dump = dir.filePath(QStringLiteral("training.json"));
        const auto trained =
            run({QStringLiteral("--seq2seq-train"), pairs, QStringLiteral("--steps"),
                 QStringLiteral("3"), QStringLiteral("--seq2seq-attention"), QStringLiteral("none"),
                 QStringLiteral("--pairs-english-prefixes"), QStringLiteral("--dump"), dump});
        QCOMPARE(trained.code, 0);
        QVERIFY2(trained.out.startsWith(pairs + QStringLiteral(": 3 steps, loss ")),
                 qPrintable(trained.out));
        const QJsonObject training = readJson(dump)[QStringLiteral("training")].toObject();
        const QJsonArray byLength = training[QStringLiteral("accuracy_by_length")].toArray();
        // 60 pairs, 6 held out (a tenth), every source 4 words ("i am cold ."): one length
        QCOMPARE(byLength.size(), 1);
        QCOMPARE(byLength[0].toObject()[QStringLiteral("length")].toInt(), 4);
        QCOMPARE(byLength[0].toObject()[QStringLiteral("pairs")].toInt(), 6);

        QVERIFY(file.open(QIODevice::Append));
        file.write("Run!   Cours !\n");
        file.close();
        const QString broken = dir.filePath(QStringLiteral("broken.json"));
        const auto refused =
            run({QStringLiteral("--seq2seq-train"), pairs, QStringLiteral("--steps"),
                 QStringLiteral("3"), QStringLiteral("--dump"), broken});
        QCOMPARE(refused.code, 3);
        QVERIFY2(refused.err.contains(QStringLiteral("error: eng-fra.txt: line 61: expected the "
                                                     "two sentences separated by a tab\n")),
                 qPrintable(refused.err));
        QVERIFY(!QFile::exists(broken));
    }

    // A variant trained and saved: its config.json names it, and it opens and translates.
    void variantIsTrainedAndSaved()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("variant"));
        const auto trained =
            run({QStringLiteral("--seq2seq-train"), QStringLiteral("copy"),
                 QStringLiteral("--steps"), QStringLiteral("3"), QStringLiteral("--seq2seq-cell"),
                 QStringLiteral("lstm"), QStringLiteral("--seq2seq-layers"), QStringLiteral("2"),
                 QStringLiteral("--seq2seq-bidirectional"), QStringLiteral("--seq2seq-attention"),
                 QStringLiteral("general"), QStringLiteral("--save"), folder});
        QCOMPARE(trained.code, 0);
        const QJsonObject config = readJson(folder + QStringLiteral("/config.json"));
        QCOMPARE(config[QStringLiteral("cell")].toString(), QStringLiteral("lstm"));
        QCOMPARE(config[QStringLiteral("num_layers")].toInt(), 2);
        QCOMPARE(config[QStringLiteral("bidirectional")].toBool(), true);
        QCOMPARE(config[QStringLiteral("attention")].toString(), QStringLiteral("general"));
        const auto reopened = run({QStringLiteral("--seq2seq"), folder, QStringLiteral("--text"),
                                   QStringLiteral("a b c")});
        QCOMPARE(reopened.code, 0);
    }

    void figureIsWritten()
    {
        QTemporaryDir dir;
        const QString svg = dir.filePath(QStringLiteral("alignment.svg"));
        const auto r =
            run({QStringLiteral("--seq2seq"), fixture(QStringLiteral("tutorial-bahdanau")),
                 QStringLiteral("--text"), QStringLiteral("le chat noir"), QStringLiteral("--view"),
                 QStringLiteral("alignment"), QStringLiteral("--export"), svg});
        QCOMPARE(r.code, 0);
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("noir"));
    }

    void errorsHaveTheirExitCodes_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        const QString model = fixture(QStringLiteral("tutorial-bahdanau"));
        QTest::newRow("unknown word")
            << QStringList{QStringLiteral("--seq2seq"), model, QStringLiteral("--text"),
                           QStringLiteral("le chien")}
            << 3 << QStringLiteral("the word \"chien\" is not in the source vocabulary");
        QTest::newRow("no such folder")
            << QStringList{QStringLiteral("--seq2seq"), QStringLiteral("/nonexistent/model"),
                           QStringLiteral("--text"), QStringLiteral("le")}
            << 3 << QStringLiteral("config.json");
        QTest::newRow("beam 0") << QStringList{QStringLiteral("--seq2seq"), model,
                                               QStringLiteral("--beam"),    QStringLiteral("0"),
                                               QStringLiteral("--text"),    QStringLiteral("le")}
                                << 2
                                << QStringLiteral("--beam: expected a whole number from 1 to 64");
        QTest::newRow("save without training")
            << QStringList{QStringLiteral("--seq2seq"), model, QStringLiteral("--save"),
                           QStringLiteral("/tmp/x")}
            << 2 << QStringLiteral("--save needs --seq2seq-train TASK");
        QTest::newRow("unknown task")
            << QStringList{QStringLiteral("--seq2seq-train"), QStringLiteral("poems")} << 2
            << QStringLiteral("--seq2seq-train: expected dates, reverse, copy, sort, "
                              "english-french, tagging, classification or a file of sentence "
                              "pairs, got \"poems\"");
        QTest::newRow("unknown attention")
            << QStringList{QStringLiteral("--seq2seq-train"), QStringLiteral("reverse"),
                           QStringLiteral("--seq2seq-attention"), QStringLiteral("soft")}
            << 2
            << QStringLiteral("--seq2seq-attention: expected none, bahdanau, dot, general, "
                              "concat or hard, got \"soft\"");
        QTest::newRow("three layers")
            << QStringList{QStringLiteral("--seq2seq-train"), QStringLiteral("reverse"),
                           QStringLiteral("--seq2seq-layers"), QStringLiteral("3")}
            << 2 << QStringLiteral("--seq2seq-layers: expected 1 or 2, got \"3\"");
        QTest::newRow("dot over a bidirectional encoder")
            << QStringList{QStringLiteral("--seq2seq-train"), QStringLiteral("reverse"),
                           QStringLiteral("--seq2seq-attention"), QStringLiteral("dot"),
                           QStringLiteral("--seq2seq-bidirectional")}
            << 2 << QStringLiteral("--seq2seq-bidirectional: dot attention needs");
        QTest::newRow("a filter without training")
            << QStringList{QStringLiteral("--seq2seq"), model, QStringLiteral("--pairs-max-words"),
                           QStringLiteral("5")}
            << 2 << QStringLiteral("--pairs-max-words needs --seq2seq-train");
        QTest::newRow("with --model")
            << QStringList{QStringLiteral("--seq2seq"), model, QStringLiteral("--model"),
                           QStringLiteral("gpt2")}
            << 2 << QStringLiteral("--model cannot be used with --seq2seq");
        QTest::newRow("a transformer's view")
            << QStringList{QStringLiteral("--seq2seq"), model, QStringLiteral("--view"),
                           QStringLiteral("grid")}
            << 2 << QStringLiteral("--view: with --seq2seq, expected alignment or states");
    }

    void errorsHaveTheirExitCodes()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, code);
        QFETCH(QString, message);
        const auto r = run(arguments);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestSeq2SeqCommand)
#include "tst_seq2seq_command.moc"
