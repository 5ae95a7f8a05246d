// attention-explorer --seq2seq-train tagging|classification, run as a user runs it: the final
// loss and held-out accuracy, the labels of --text, the dump, and the options that do not go
// with an encoder and a classifier.
#include "support/run_executable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

constexpr auto run = [](const QStringList& arguments) {
    return attn::test::runExplorer(arguments);
};

constexpr auto readJson = attn::test::readJsonObject;

} // namespace

class TestOutputTypesCommand : public QObject
{
    Q_OBJECT

private slots:
    // 60 steps tag every held-out word right (tst_output_types); each word of --text gets its
    // part of speech, and the dump holds a loss per step and the accuracy.
    void taggingPrintsTheTags()
    {
        QTemporaryDir dir;
        const QString dump = dir.filePath(QStringLiteral("tags.json"));
        const auto r =
            run({QStringLiteral("--seq2seq-train"), QStringLiteral("tagging"),
                 QStringLiteral("--steps"), QStringLiteral("60"), QStringLiteral("--text"),
                 QStringLiteral("the black cat ate a mouse"), QStringLiteral("--dump"), dump});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QVERIFY2(lines[0].startsWith(QStringLiteral("tagging: 60 steps, loss ")),
                 qPrintable(r.out));
        QVERIFY2(lines[0].endsWith(QStringLiteral("held-out accuracy 100.0 % (words)")),
                 qPrintable(r.out));
        QCOMPARE(lines[1], QStringLiteral("the/DET black/ADJ cat/NOUN ate/VERB a/DET mouse/NOUN"));
        const QJsonObject got = readJson(dump);
        const QJsonObject training = got[QStringLiteral("training")].toObject();
        QCOMPARE(training[QStringLiteral("task")].toString(), QStringLiteral("tagging"));
        QCOMPARE(training[QStringLiteral("loss")].toArray().size(), 60);
        QCOMPARE(training[QStringLiteral("accuracy")].toDouble(), 1.0);
        const QJsonObject head = got[QStringLiteral("output_head")].toObject();
        QCOMPARE(head[QStringLiteral("labels")].toArray().size(), 6);
        QCOMPARE(head[QStringLiteral("probabilities")].toArray().size(), 6);
        QCOMPARE(head[QStringLiteral("probabilities")].toArray()[0].toArray().size(), 5);
    }

    // One class for the sentence, read from the pooled states.
    void classificationPrintsTheClass()
    {
        const auto r =
            run({QStringLiteral("--seq2seq-train"), QStringLiteral("classification"),
                 QStringLiteral("--steps"), QStringLiteral("300"), QStringLiteral("--text"),
                 QStringLiteral("the cat saw a dog and the sad bird took a book")});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        // 98.5 % here; the promise is 95 % (other builds may round differently)
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("held-out accuracy ([0-9.]+) % \\(sentences\\)$"))
                .match(lines[0]);
        QVERIFY2(m.hasMatch(), qPrintable(r.out));
        QVERIFY(m.captured(1).toDouble() >= 95.0);
        QCOMPARE(lines[1], QStringLiteral("sad"));
    }

    void badUseIsRefused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        const QString tagging = QStringLiteral("tagging");
        const QString train = QStringLiteral("--seq2seq-train");
        QTest::newRow("save") << QStringList{train, tagging, QStringLiteral("--save"),
                                             QStringLiteral("/tmp/x")}
                              << 2
                              << QStringLiteral("--save cannot be used with --seq2seq-train "
                                                "tagging: its model is an encoder and a "
                                                "classifier, trained here or in the window and "
                                                "not saved");
        QTest::newRow("pooling for tagging")
            << QStringList{train, tagging, QStringLiteral("--seq2seq-pooling"),
                           QStringLiteral("first")}
            << 2 << QStringLiteral("--seq2seq-pooling needs --seq2seq-train classification");
        QTest::newRow("unknown pooling")
            << QStringList{train, QStringLiteral("classification"),
                           QStringLiteral("--seq2seq-pooling"), QStringLiteral("max")}
            << 2 << QStringLiteral("--seq2seq-pooling: expected mean, first or last, got \"max\"");
        QTest::newRow("a word outside the grammar")
            << QStringList{train,
                           tagging,
                           QStringLiteral("--steps"),
                           QStringLiteral("2"),
                           QStringLiteral("--text"),
                           QStringLiteral("the dragon ate")}
            << 3 << QStringLiteral("error: the word \"dragon\" is not in the vocabulary");
        QTest::newRow("export") << QStringList{train,
                                               tagging,
                                               QStringLiteral("--steps"),
                                               QStringLiteral("2"),
                                               QStringLiteral("--text"),
                                               QStringLiteral("the cat"),
                                               QStringLiteral("--export"),
                                               QStringLiteral("/tmp/never.png")}
                                << 2
                                << QStringLiteral("error: --export: the output types are drawn "
                                                  "in the sequence-to-sequence window's Output "
                                                  "Types tab");
    }

    void badUseIsRefused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, code);
        QFETCH(QString, message);
        const auto r = run(arguments);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestOutputTypesCommand)
#include "tst_output_types_command.moc"
