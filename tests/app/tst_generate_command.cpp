// attention-explorer --model DIR --text "..." --generate N, run as a user runs it: the ids of
// the dump against PyTorch's greedy search (tests/data/models/generation_expected.json) on the
// CPU and on Vulkan, the continuation printed, a seeded draw repeated, masked models' [MASK]s
// filled, and every bad value with its exit code and message.

#include "support/model_fixtures.h"
#include "support/run_executable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

constexpr auto run = [](const QStringList& arguments) {
    return attn::test::runExplorer(arguments);
};

QJsonObject expectedGeneration()
{
    return attn::test::readJsonObject(attn::test::modelFixturesDir() +
                                      QStringLiteral("/generation_expected.json"));
}

} // namespace

class TestGenerateCommand : public QObject
{
    Q_OBJECT

private slots:
    void greedyMatchesPyTorch_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("backend");
        const QJsonObject models = expectedGeneration()[QLatin1String("models")].toObject();
        QVERIFY(models.size() >= 6);
        for (const QString& name : models.keys())
            for (const char* backend : {"cpu", "vulkan"})
                QTest::addRow("%s %s", qPrintable(name), backend)
                    << name << QString::fromLatin1(backend);
    }

    void greedyMatchesPyTorch()
    {
        QFETCH(QString, name);
        QFETCH(QString, backend);
        const QJsonObject all = expectedGeneration();
        const QJsonObject expected = all[QLatin1String("models")][name].toObject();
        QTemporaryDir dir;
        const QString dump = dir.filePath(QStringLiteral("out.json"));
        const auto result =
            run({QStringLiteral("--model"), attn::test::modelFixture(name),
                 QStringLiteral("--text"), all[QLatin1String("prompt")].toString(),
                 QStringLiteral("--generate"), QStringLiteral("20"), QStringLiteral("--dump"), dump,
                 QStringLiteral("--backend"), backend});
        QVERIFY2(result.code == 0, qPrintable(result.err));
        const QJsonObject out = attn::test::readJsonObject(dump);
        if (backend == QLatin1String("vulkan") &&
            qEnvironmentVariable("CI") != QLatin1String("true") &&
            out[QLatin1String("backend")].toString() != QLatin1String("Vulkan"))
            QSKIP("no Vulkan device (CI=true makes this a failure)");
        QCOMPARE(out[QLatin1String("backend")].toString(), backend == QLatin1String("cpu")
                                                               ? QStringLiteral("CPU")
                                                               : QStringLiteral("Vulkan"));
        QCOMPARE(out[QLatin1String("tokenIds")].toArray(),
                 expected[QLatin1String("prompt_ids")].toArray());
        const QJsonArray generated = out[QLatin1String("generated")].toArray();
        QCOMPARE(generated, expected[QLatin1String("generated")].toArray());
        const QJsonArray steps = out[QLatin1String("steps")].toArray();
        QCOMPARE(steps.size(), generated.size());
        for (int n = 0; n < steps.size(); ++n) {
            const QJsonObject step = steps[n].toObject();
            QCOMPARE(step[QLatin1String("token_id")], generated[n]);
            // Greedy: the first alternative is the token itself, with its probability.
            const QJsonArray top = step[QLatin1String("top")].toArray();
            QCOMPARE(top.size(), 5);
            QCOMPARE(top[0][QLatin1String("id")], generated[n]);
            QCOMPARE(top[0][QLatin1String("probability")].toDouble(),
                     step[QLatin1String("probability")].toDouble());
            QVERIFY(top[1][QLatin1String("probability")].toDouble() <=
                    top[0][QLatin1String("probability")].toDouble());
        }
        QCOMPARE(out[QLatin1String("stop")].toString(), QStringLiteral("length"));
        // Printed: the continuation, as the dump has it.
        QCOMPARE(result.out.trimmed(), out[QLatin1String("continuation")].toString().trimmed());
    }

    void seededSampleRepeats()
    {
        const QStringList arguments{QStringLiteral("--model"),
                                    attn::test::modelFixture(QStringLiteral("llama")),
                                    QStringLiteral("--text"),
                                    QStringLiteral("The cat"),
                                    QStringLiteral("--generate"),
                                    QStringLiteral("10"),
                                    QStringLiteral("--temperature"),
                                    QStringLiteral("1.5"),
                                    QStringLiteral("--top-k"),
                                    QStringLiteral("50"),
                                    QStringLiteral("--top-p"),
                                    QStringLiteral("0.95"),
                                    QStringLiteral("--repetition-penalty"),
                                    QStringLiteral("1.2"),
                                    QStringLiteral("--backend"),
                                    QStringLiteral("cpu")};
        const auto one =
            run(arguments + QStringList{QStringLiteral("--seed"), QStringLiteral("5")});
        const auto two =
            run(arguments + QStringList{QStringLiteral("--seed"), QStringLiteral("5")});
        const auto other =
            run(arguments + QStringList{QStringLiteral("--seed"), QStringLiteral("6")});
        QVERIFY2(one.code == 0, qPrintable(one.err));
        QCOMPARE(two.out, one.out);
        QVERIFY(other.out != one.out);
    }

    // DistilBERT: both [MASK]s filled, no [MASK] left in what is printed.
    void fillsMasks()
    {
        QTemporaryDir dir;
        const QString dump = dir.filePath(QStringLiteral("out.json"));
        const auto result =
            run({QStringLiteral("--model"), attn::test::modelFixture(QStringLiteral("distilbert")),
                 QStringLiteral("--text"), QStringLiteral("the [MASK] sat on the [MASK]."),
                 QStringLiteral("--generate"), QStringLiteral("5"), QStringLiteral("--dump"), dump,
                 QStringLiteral("--backend"), QStringLiteral("cpu")});
        QVERIFY2(result.code == 0, qPrintable(result.err));
        QVERIFY(!result.out.contains(QLatin1String("[MASK]")));
        const QJsonObject out = attn::test::readJsonObject(dump);
        QCOMPARE(out[QLatin1String("generated")].toArray().size(), 2);
        QCOMPARE(out[QLatin1String("stop")].toString(), QStringLiteral("no-mask"));
    }

    void badValues_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        const QStringList gpt2{QStringLiteral("--model"),
                               attn::test::modelFixture(QStringLiteral("gpt2")),
                               QStringLiteral("--text"), QStringLiteral("The cat sat on the")};
        auto with = [&](std::initializer_list<const char*> more) {
            QStringList arguments = gpt2;
            for (const char* a : more)
                arguments << QString::fromLatin1(a);
            return arguments;
        };
        QTest::newRow("top-p 0") << with({"--generate", "5", "--top-p", "0"}) << 2
                                 << "--top-p: expected a probability above 0 and at most 1, got "
                                    "\"0\"";
        QTest::newRow("top-p 1.5") << with({"--generate", "5", "--top-p", "1.5"}) << 2
                                   << "--top-p: expected a probability above 0 and at most 1, "
                                      "got \"1.5\"";
        QTest::newRow("temperature -1")
            << with({"--generate", "5", "--temperature", "-1"}) << 2
            << "--temperature: expected 0 (greedy) or a number above 0, got \"-1\"";
        QTest::newRow("top-k -1") << with({"--generate", "5", "--top-k", "-1"}) << 2
                                  << "--top-k: expected 0 (every token) or a whole number above "
                                     "0, got \"-1\"";
        QTest::newRow("penalty 0")
            << with({"--generate", "5", "--repetition-penalty", "0"}) << 2
            << "--repetition-penalty: expected a number above 0 (1: none), got \"0\"";
        QTest::newRow("generate 0") << with({"--generate", "0"}) << 2
                                    << "--generate: expected a whole number from 1 to 100000, got "
                                       "\"0\"";
        QTest::newRow("top-p without --generate")
            << with({"--top-p", "0.5"}) << 2 << "--top-p needs --generate";
        QTest::newRow("generate without --model")
            << QStringList{QStringLiteral("--text"), QStringLiteral("a"),
                           QStringLiteral("--generate"), QStringLiteral("3")}
            << 2 << "--generate needs --model";
        QTest::newRow("past the context")
            << with({"--generate", "40"}) << 3
            << "error: generation: the prompt's 5 tokens and 40 new ones make 45, more than the "
               "model's context of 32 tokens; ask for at most 27";
    }

    void badValues()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, code);
        QFETCH(QString, message);
        const auto result = run(arguments << QStringLiteral("--backend") << QStringLiteral("cpu"));
        QCOMPARE(result.code, code);
        QVERIFY2(result.err.contains(message), qPrintable(result.err));
    }

    // Temperature 0 is greedy: the same as no sampling option at all.
    void temperatureZeroIsGreedy()
    {
        const QStringList arguments{
            QStringLiteral("--model"),    attn::test::modelFixture(QStringLiteral("qwen2")),
            QStringLiteral("--text"),     QStringLiteral("The cat sat on the"),
            QStringLiteral("--generate"), QStringLiteral("6"),
            QStringLiteral("--backend"),  QStringLiteral("cpu")};
        const auto greedy = run(arguments);
        const auto zero =
            run(arguments + QStringList{QStringLiteral("--temperature"), QStringLiteral("0")});
        QVERIFY2(greedy.code == 0, qPrintable(greedy.err));
        QCOMPARE(zero.code, 0);
        QCOMPARE(zero.out, greedy.out);
    }
};

QTEST_GUILESS_MAIN(TestGenerateCommand)
#include "tst_generate_command.moc"
