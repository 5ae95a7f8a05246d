// The command line's figures and presentations, run as a user runs it:
// --export-presentation (one PDF page a step, its text text), --theme, --color-scale, and
// the 3,000-token figure that came out almost uniformly dark.
#include "support/run_executable.h"

#include <QColor>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <utility>
#include <vector>

using namespace attn;

namespace {

test::Run explorer(const QStringList& arguments)
{
    return test::runExecutable(QStringLiteral(ATTN_EXPLORER_EXE), arguments);
}

QString tool(const QString& program, const QStringList& arguments)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(60000) || process.exitCode() != 0)
        return {};
    return QString::fromUtf8(process.readAllStandardOutput());
}

QString words(int count)
{
    static const QStringList vocabulary{
        QStringLiteral("the"),   QStringLiteral("cat"),  QStringLiteral("sat"),
        QStringLiteral("on"),    QStringLiteral("a"),    QStringLiteral("mat"),
        QStringLiteral("while"), QStringLiteral("dogs"), QStringLiteral("ran"),
        QStringLiteral("far"),   QStringLiteral("away"), QStringLiteral("quickly")};
    QStringList out;
    for (int k = 0; k < count; ++k)
        out.append(vocabulary[(k * 7 + k / 5) % vocabulary.size()]);
    return out.join(QLatin1Char(' '));
}

} // namespace

class TestPresentationCommand : public QObject
{
    Q_OBJECT

private slots:
    void exportPresentationWritesEveryStep_data()
    {
        QTest::addColumn<QString>("theme");
        QTest::newRow("light") << "light";
        QTest::newRow("dark") << "dark";
    }

    void exportPresentationWritesEveryStep()
    {
        QFETCH(QString, theme);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("deck.pdf"));
        const test::Run run = explorer(
            {QStringLiteral(ATTN_RESOURCES_DIR "/examples/02-student-scholarship.json"),
             QStringLiteral("--export-presentation"), path, QStringLiteral("--theme"), theme});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const QString info = tool(QStringLiteral("pdfinfo"), {path});
        QVERIFY2(info.contains(QRegularExpression(QStringLiteral("Pages:\\s+12\\b"))),
                 qPrintable(info));
        // Every token label is text on every page.
        for (int page = 1; page <= 12; ++page) {
            const QString p = QString::number(page);
            const QString text =
                tool(QStringLiteral("pdftotext"),
                     {QStringLiteral("-f"), p, QStringLiteral("-l"), p, path, QStringLiteral("-")})
                    .replace(QLatin1Char('\n'), QLatin1Char(' '));
            for (const char* token : {"The", "student", "who", "highest", "grade", "awarded",
                                      "scholarship", "principal"})
                QVERIFY2(text.contains(QLatin1String(token)),
                         qPrintable(QStringLiteral("page %1 lacks %2").arg(page).arg(token)));
        }
        const QString png = dir.filePath(QStringLiteral("first"));
        tool(QStringLiteral("pdftoppm"),
             {QStringLiteral("-f"), QStringLiteral("1"), QStringLiteral("-l"), QStringLiteral("1"),
              QStringLiteral("-r"), QStringLiteral("24"), QStringLiteral("-png"),
              QStringLiteral("-singlefile"), path, png});
        const QImage image(png + QStringLiteral(".png"));
        QVERIFY(!image.isNull());
        const int lightness = QColor(image.pixel(1, 1)).lightness();
        QVERIFY2(theme == QLatin1String("dark") ? lightness < 60 : lightness > 200,
                 qPrintable(QString::number(lightness)));
    }

    // Examples 25 and 26 present their concept after attention's twelve steps: a stacked
    // block (pages 13-16), the fixed against data-dependent mixing weights and seed 004's fixed
    // kernel against learned maps.
    void examplesPresentTheirConceptsSteps_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("page13");
        QTest::addColumn<QString>("page16");
        QTest::newRow("25") << "25-stacked-blocks.json"
                            << "Add & Norm"
                            << "block 2's input";
        QTest::newRow("26") << "26-fixed-vs-data-dependent-weights.json"
                            << "Fixed weights: fully connected"
                            << "attention 0.37";
        QTest::newRow("27") << "27-learned-kernel.json"
                            << "Fixed kernel: one width"
                            << "learns the embedding";
    }

    void examplesPresentTheirConceptsSteps()
    {
        QFETCH(QString, file);
        QFETCH(QString, page13);
        QFETCH(QString, page16);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("deck.pdf"));
        const test::Run run = explorer({QStringLiteral(ATTN_RESOURCES_DIR "/examples/") + file,
                                        QStringLiteral("--export-presentation"), path});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY2(tool(QStringLiteral("pdfinfo"), {path})
                     .contains(QRegularExpression(QStringLiteral("Pages:\\s+16\\b"))),
                 qPrintable(tool(QStringLiteral("pdfinfo"), {path})));
        for (const auto& [page, expected] : {std::pair{13, page13}, std::pair{16, page16}}) {
            const QString p = QString::number(page);
            const QString text =
                tool(QStringLiteral("pdftotext"),
                     {QStringLiteral("-f"), p, QStringLiteral("-l"), p, path, QStringLiteral("-")})
                    .replace(QLatin1Char('\n'), QLatin1Char(' '));
            QVERIFY2(text.contains(QStringLiteral("Step %1 of 16").arg(page)) &&
                         text.contains(expected),
                     qPrintable(text.left(300)));
        }
    }

    void badPresentationArgumentsAreRefused()
    {
        QTemporaryDir dir;
        QCOMPARE(explorer({QStringLiteral("--export-presentation"),
                           dir.filePath(QStringLiteral("deck.png"))})
                     .code,
                 2);
        QCOMPARE(explorer({QStringLiteral("--export-presentation"),
                           dir.filePath(QStringLiteral("deck.pdf")), QStringLiteral("--theme"),
                           QStringLiteral("sepia")})
                     .code,
                 2);
        QCOMPARE(explorer({QStringLiteral("--export"), dir.filePath(QStringLiteral("f.svg")),
                           QStringLiteral("--color-scale"), QStringLiteral("auto")})
                     .code,
                 2);
        // A presentation shows every token: too long an input is invalid input, nothing written.
        const QString path = dir.filePath(QStringLiteral("long.pdf"));
        const test::Run run = explorer(
            {QStringLiteral("--text"), words(600), QStringLiteral("--export-presentation"), path});
        QCOMPARE(run.code, 3);
        QVERIFY(run.err.contains(QLatin1String("at most 512")));
        QVERIFY(!QFile::exists(path));
    }

    void colorScaleIsOnTheColourBar()
    {
        QTemporaryDir dir;
        const QString fixed = dir.filePath(QStringLiteral("fixed.svg"));
        const QString data = dir.filePath(QStringLiteral("data.svg"));
        QCOMPARE(explorer({QStringLiteral("--export"), fixed}).code, 0);
        QCOMPARE(explorer({QStringLiteral("--export"), data, QStringLiteral("--color-scale"),
                           QStringLiteral("data")})
                     .code,
                 0);
        QFile a(fixed), b(data);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray fixedSvg = a.readAll();
        const QByteArray dataSvg = b.readAll();
        QVERIFY(fixedSvg.contains("fixed scale 0 to 1"));
        QVERIFY(dataSvg.contains("scaled to the data"));
        // The axes are named in the file.
        QVERIFY(fixedSvg.contains(">queries<") || fixedSvg.contains("queries"));
        QVERIFY(fixedSvg.contains("keys"));
    }

    // The finding: a 3,000-token figure was one dark colour. Its cells now spread across
    // the map (the largest weight of each block, on a log scale).
    void aLongInputsFigureShowsStructure()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("long.png"));
        const test::Run run =
            explorer({QStringLiteral("--text"), words(3000), QStringLiteral("--export"), path,
                      QStringLiteral("--width"), QStringLiteral("900"), QStringLiteral("--height"),
                      QStringLiteral("900")});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        const QImage image(path);
        QVERIFY(!image.isNull());
        // The middle of the matrix, away from labels and colour bar.
        std::vector<int> lightness;
        for (int y = image.height() * 3 / 10; y < image.height() * 7 / 10; y += 2)
            for (int x = image.width() * 3 / 10; x < image.width() * 6 / 10; x += 2)
                lightness.push_back(qGray(image.pixel(x, y)));
        std::sort(lightness.begin(), lightness.end());
        const int low = lightness[lightness.size() / 10];
        const int high = lightness[lightness.size() * 9 / 10];
        // On the old linear scale these cells (weights near 1/3000) were one colour, a grey
        // level or two apart; the log scale spreads them over the map's lower half.
        QVERIFY2(high - low > 12,
                 qPrintable(QStringLiteral("grey levels %1 to %2").arg(low).arg(high)));
    }
};

QTEST_MAIN(TestPresentationCommand)
#include "tst_presentation_command.moc"
