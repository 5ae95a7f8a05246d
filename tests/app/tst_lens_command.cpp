// attention-explorer --model with --view logit-lens, patching and attribution, run as a user
// runs it: the dump's logitLens, patching and attribution read back with a plain JSON parser
// and compared with lens_reference.py's float64 numbers (tests/data/models/lens_expected.json),
// the figures written, and every bad input with its exit code and message.

#include "support/lens_fixtures.h"
#include "support/model_fixtures.h"
#include "support/run_executable.h"

#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace {

const QString kExe = QStringLiteral(ATTN_EXPLORER_EXE);

attn::test::Run run(QStringList arguments)
{
    return attn::test::runExecutable(kExe, arguments << QStringLiteral("--backend")
                                                     << QStringLiteral("cpu"));
}

QString gpt2()
{
    return attn::test::modelFixturesDir() + QStringLiteral("/gpt2");
}

// "The cat sat on the" and "The dog sat on the": lens_reference.py's prompts.
const QStringList kPatching{QStringLiteral("--view"),    QStringLiteral("patching"),
                            QStringLiteral("--clean"),   QStringLiteral("The cat sat on the"),
                            QStringLiteral("--corrupt"), QStringLiteral("The dog sat on the"),
                            QStringLiteral("--metric"),  QStringLiteral(" cat, dog")};

} // namespace

class TestLensCommand : public QObject
{
    Q_OBJECT

private slots:
    void logitLensDump();
    void patchingDumpAndFigure();
    void attributionDumpAndFigure();
    void badInput_data();
    void badInput();
};

void TestLensCommand::logitLensDump()
{
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("lens.json"));
    const QString pdf = dir.filePath(QStringLiteral("lens.pdf"));
    const auto result = run({QStringLiteral("--model"), gpt2(), QStringLiteral("--text"),
                             QStringLiteral("The cat sat on the"), QStringLiteral("--view"),
                             QStringLiteral("logit-lens"), QStringLiteral("--dump"), json,
                             QStringLiteral("--export"), pdf});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    const QJsonArray layers =
        attn::test::readJsonObject(json)[QStringLiteral("logitLens")].toArray();
    const QJsonArray expected = attn::test::lensExpected()[QStringLiteral("lens")]
                                    .toObject()[QStringLiteral("layers")]
                                    .toArray(); // bottom first, as the dump
    QCOMPARE(layers.size(), 2);
    for (int l = 0; l < 2; ++l) {
        QCOMPARE(layers[l][QStringLiteral("layer")].toInt(), l + 1);
        const QJsonObject want = expected[l].toObject();
        QCOMPARE(layers[l][QStringLiteral("top")].toArray(), want[QStringLiteral("top")].toArray());
        QCOMPARE(layers[l][QStringLiteral("rank")].toArray(),
                 want[QStringLiteral("rank")].toArray());
    }
    QCOMPARE(layers[1][QStringLiteral("rank")].toArray(),
             (QJsonArray{1, 1, 1, 1, 1})); // the last layer's lens is the model's own prediction
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.read(5) == "%PDF-");
}

void TestLensCommand::patchingDumpAndFigure()
{
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("patching.json"));
    const QString png = dir.filePath(QStringLiteral("patching.png"));
    const auto result =
        run(QStringList{QStringLiteral("--model"), gpt2()}
            << kPatching << QStringLiteral("--dump") << json << QStringLiteral("--export") << png);
    QVERIFY2(result.code == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains(QStringLiteral(
                 "Patching logit(“ cat”) − logit(“ dog”): clean 0.9359, corrupted 0.5798")),
             qPrintable(result.out));
    const QJsonObject patching =
        attn::test::readJsonObject(json)[QStringLiteral("patching")].toObject();
    const QJsonObject expected = attn::test::lensExpected()["patching"].toObject();
    const double clean = expected["clean"].toDouble();
    const double corrupt = expected["corrupt"].toDouble();
    for (const char* key : {"heads", "positions"}) {
        const QJsonArray rows = patching[QLatin1String(key)].toArray();
        const QJsonArray want = expected[QLatin1String(key)].toArray();
        QCOMPARE(rows.size(), 2);
        for (int l = 0; l < 2; ++l) {
            QCOMPARE(rows[l].toArray().size(), want[l].toArray().size());
            for (int c = 0; c < want[l].toArray().size(); ++c) {
                const double fraction = (want[l][c].toDouble() - corrupt) / (clean - corrupt);
                QVERIFY2(std::abs(rows[l][c].toDouble() - fraction) < 1e-4,
                         qPrintable(QStringLiteral("%1 %2 %3").arg(key).arg(l).arg(c)));
            }
        }
    }
    QCOMPARE(patching[QStringLiteral("metric")][QStringLiteral("token_a")].toInt(), 297);
    QCOMPARE(patching[QStringLiteral("metric")][QStringLiteral("token_b")].toInt(), 298);
    QCOMPARE(QImage(png).size(), QSize(1200, 900));

    // The figure as text: the corrupted token that differs starred, and a cell that restores
    // nothing (the layer 2 stream before the last position: float32 rounding of -1e-8 at most)
    // written 0.00, never as a negative zero.
    const QString svg = dir.filePath(QStringLiteral("patching.svg"));
    QVERIFY(run(QStringList{QStringLiteral("--model"), gpt2()} << kPatching
                                                               << QStringLiteral("--export") << svg)
                .code == 0);
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY(text.contains(QStringLiteral(">“ dog” *<")));
    QVERIFY(text.contains(QStringLiteral(">0.00<")));
    QVERIFY(!text.contains(QStringLiteral(">−0.00<")) && !text.contains(QStringLiteral(">-0.00<")));
}

void TestLensCommand::attributionDumpAndFigure()
{
    QTemporaryDir dir;
    const QString json = dir.filePath(QStringLiteral("attribution.json"));
    const QString svg = dir.filePath(QStringLiteral("attribution.svg"));
    const auto result = run({QStringLiteral("--model"), gpt2(), QStringLiteral("--text"),
                             QStringLiteral("The cat sat on the"), QStringLiteral("--view"),
                             QStringLiteral("attribution"), QStringLiteral("--dump"), json,
                             QStringLiteral("--export"), svg});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    const QJsonObject attribution =
        attn::test::readJsonObject(json)[QStringLiteral("attribution")].toObject();
    const QJsonObject expected = attn::test::lensExpected()["attribution"].toObject();
    QCOMPARE(attribution[QStringLiteral("token")].toInt(), expected["token"].toInt());
    QVERIFY(attn::test::maxDifference(attn::test::matrixOf(attribution[QStringLiteral("heads")]),
                                      attn::test::matrixOf(expected["heads"])) < 2e-5);
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY(text.contains(QStringLiteral("Layer 2")));
    QVERIFY(text.contains(QStringLiteral("Head 4")));
}

void TestLensCommand::badInput_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QStringList model{QStringLiteral("--model"), gpt2()};
    QStringList lengths = model + kPatching;
    lengths[lengths.indexOf(QStringLiteral("The dog sat on the"))] = QStringLiteral("The dog");
    QTest::newRow("different lengths")
        << lengths << 3
        << QStringLiteral("error: activation patching needs prompts of the same length in tokens: "
                          "the clean prompt has 5 tokens, the corrupted one 2");
    QStringList twoTokens = model + kPatching;
    twoTokens.last() = QStringLiteral(" cat sat, dog");
    QTest::newRow("metric of two tokens")
        << twoTokens << 3
        << QStringLiteral("error: --metric: metric token ' cat sat': is 2 tokens of the "
                          "vocabulary (' cat', ' sat'), not one");
    QTest::newRow("patching without a metric")
        << (model + kPatching.mid(0, 6)) << 2
        << QStringLiteral("error: --view patching needs --clean \"...\", --corrupt \"...\" and "
                          "--metric \"A,B\"");
    QTest::newRow("clean without patching")
        << (model + QStringList{QStringLiteral("--text"), QStringLiteral("The cat"),
                                QStringLiteral("--clean"), QStringLiteral("The cat"),
                                QStringLiteral("--dump"), QStringLiteral("out.json")})
        << 2 << QStringLiteral("error: --clean needs --view patching");
    QTest::newRow("metric without a model")
        << QStringList{QStringLiteral("--metric"), QStringLiteral("a,b")} << 2
        << QStringLiteral("--metric needs --model");
    QTest::newRow("attribution of a post-norm model")
        << QStringList{QStringLiteral("--model"),
                       attn::test::modelFixturesDir() + QStringLiteral("/bert"),
                       QStringLiteral("--text"),
                       QStringLiteral("the cat [MASK]."),
                       QStringLiteral("--view"),
                       QStringLiteral("attribution"),
                       QStringLiteral("--dump"),
                       QStringLiteral("out.json")}
        << 3 << QStringLiteral("error: direct logit attribution needs a pre-norm model");
}

void TestLensCommand::badInput()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, code);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const auto result = attn::test::runExecutable(
        kExe, arguments << QStringLiteral("--backend") << QStringLiteral("cpu"), dir.path());
    QCOMPARE(result.code, code);
    QVERIFY2(result.err.contains(message), qPrintable(result.err));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("out.json")))); // nothing half-written
}

QTEST_GUILESS_MAIN(TestLensCommand)
#include "tst_lens_command.moc"
