// attention-explorer --train, run as a user runs it: the loss history in --dump
// as training.loss (first step to last), the dump's weights being the trained ones,
// --train-save, and the usage and input errors with their exit codes.
#include "core/scene_json.h"
#include "support/run_executable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace core = attn::core;

namespace {

constexpr auto run = [](const QStringList& arguments) {
    return attn::test::runExplorer(arguments);
};

constexpr auto readJson = attn::test::readJsonObject;

// The argmax of each row of head 1's weights in a dump.
QList<int> rowArgmax(const QJsonObject& dump)
{
    QList<int> best;
    const QJsonArray rows =
        dump[QStringLiteral("heads")].toArray()[0].toObject()[QStringLiteral("weights")].toArray();
    for (const QJsonValue& row : rows) {
        const QJsonArray cells = row.toArray();
        int arg = 0;
        for (int j = 1; j < cells.size(); ++j)
            if (cells[j].toDouble() > cells[arg].toDouble())
                arg = j;
        best << arg;
    }
    return best;
}

} // namespace

class TestTrainCommand : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void dumpHoldsTheLossHistory()
    {
        QTemporaryDir dir;
        const QString dump = dir.filePath(QStringLiteral("out.json"));
        const QString saved = dir.filePath(QStringLiteral("trained.json"));
        const auto r = run({QStringLiteral("--text"), QStringLiteral("one two three four five six"),
                            QStringLiteral("--train"), QStringLiteral("reverse"),
                            QStringLiteral("--steps"), QStringLiteral("150"),
                            QStringLiteral("--dump"), dump, QStringLiteral("--train-save"), saved});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QLatin1String("trained reverse: 150 steps")), qPrintable(r.out));
        const QJsonObject json = readJson(dump);
        const QJsonObject training = json[QStringLiteral("training")].toObject();
        QCOMPARE(training[QStringLiteral("task")].toString(), QStringLiteral("reverse"));
        QCOMPARE(training[QStringLiteral("steps")].toInt(), 150);
        const QJsonArray loss = training[QStringLiteral("loss")].toArray();
        QCOMPARE(loss.size(), 150);
        QVERIFY(loss.last().toDouble() < 0.2 * loss.first().toDouble());
        QCOMPARE(
            training[QStringLiteral("final")].toObject()[QStringLiteral("accuracy")].toDouble(),
            1.0);
        QCOMPARE(training[QStringLiteral("attention_loss")].toString(),
                 QStringLiteral("cross-entropy"));
        // The dump's own matrices are the trained scene's: every row on its mirror token.
        QCOMPARE(rowArgmax(json), (QList<int>{5, 4, 3, 2, 1, 0}));
        // The trained scene saved like any other, and it computes the same.
        const core::Scene scene = core::loadScene(saved);
        QCOMPARE(scene.text, QStringLiteral("one two three four five six"));
        const QString again = dir.filePath(QStringLiteral("again.json"));
        const auto r2 = run({saved, QStringLiteral("--dump"), again});
        QVERIFY2(r2.code == 0, qPrintable(r2.err));
        QCOMPARE(rowArgmax(readJson(again)), rowArgmax(json));
    }

    // Seed 001's pair under hard attention: learned only through a surrogate gradient.
    void translationUnderHardAttention()
    {
        QTemporaryDir dir;
        const QString scene =
            QStringLiteral(ATTN_RESOURCES_DIR "/examples/05-translation-hard-alignment.json");
        const QString dump = dir.filePath(QStringLiteral("out.json"));
        auto r = run({scene, QStringLiteral("--train"), QStringLiteral("translation"),
                      QStringLiteral("--steps"), QStringLiteral("300"),
                      QStringLiteral("--hard-gradient"), QStringLiteral("straight-through"),
                      QStringLiteral("--dump"), dump});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(readJson(dump)[QStringLiteral("training")]
                     .toObject()[QStringLiteral("final")]
                     .toObject()[QStringLiteral("accuracy")]
                     .toDouble(),
                 1.0);
        // With the true gradient a note says why W_q and W_k do not move.
        r = run({scene, QStringLiteral("--train"), QStringLiteral("translation"),
                 QStringLiteral("--steps"), QStringLiteral("5")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains(QLatin1String("hard attention")), qPrintable(r.err));
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        const QString text = QStringLiteral("a b c d");
        QTest::addRow("steps without train")
            << QStringList{QStringLiteral("--text"), text, QStringLiteral("--steps"),
                           QStringLiteral("9")}
            << 2 << "--steps needs --train";
        QTest::addRow("unknown task")
            << QStringList{QStringLiteral("--text"), text, QStringLiteral("--train"),
                           QStringLiteral("sort")}
            << 2 << "key-value";
        QTest::addRow("zero steps")
            << QStringList{QStringLiteral("--text"),  text,
                           QStringLiteral("--train"), QStringLiteral("copy"),
                           QStringLiteral("--steps"), QStringLiteral("0")}
            << 2 << "--steps";
        QTest::addRow("bad learning rate")
            << QStringList{QStringLiteral("--text"),          text,
                           QStringLiteral("--train"),         QStringLiteral("copy"),
                           QStringLiteral("--learning-rate"), QStringLiteral("-1")}
            << 2 << "--learning-rate";
        QTest::addRow("with a model")
            << QStringList{QStringLiteral("--model"),
                           QStringLiteral(ATTN_TEST_DATA_DIR "/models/gpt2"),
                           QStringLiteral("--text"),
                           text,
                           QStringLiteral("--train"),
                           QStringLiteral("copy")}
            << 2 << "--model";
        QTest::addRow("translation without a source")
            << QStringList{QStringLiteral("--text"), text, QStringLiteral("--train"),
                           QStringLiteral("translation")}
            << 3 << "translation";
    }
    void errors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, code);
        QFETCH(QString, message);
        const auto r = run(arguments);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestTrainCommand)
#include "tst_train_command.moc"
