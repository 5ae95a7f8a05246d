// The attention-explorer executable, run as a user runs it: figures of the requested size
// and kind, --dump equal to the in-process result, the exit codes.
#include "core/cpu_backend.h"
#include "core/result_json.h"
#include "core/scene.h"
#include "core/scene_json.h"
#include "support/run_executable.h"
#include "support/unwritable_path.h"

#include <QDir>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <array>

namespace core = attn::core;

namespace {

const QString kExe = QStringLiteral(ATTN_EXPLORER_EXE);
const QString kCatScene = QStringLiteral(ATTN_TEST_DATA_DIR "/scenes/valid/this_is_a_cat.json");

using attn::test::Run;

// `environment`: variables to set ("NAME=value") or, without '=', to remove.
Run run(const QStringList& arguments, const QString& workingDirectory = QString(),
        const QStringList& environment = {})
{
    return attn::test::runExecutable(kExe, arguments, workingDirectory, environment);
}

QString tool(const char* name)
{
    const QString path = QStandardPaths::findExecutable(QString::fromLatin1(name));
    if (path.isEmpty())
        qFatal("%s is missing: install poppler-utils (cmake/deps.sh does)", name);
    return path;
}

QString toolOutput(const char* name, const QStringList& arguments)
{
    QProcess process;
    process.start(tool(name), arguments);
    process.waitForFinished(60000);
    return QString::fromUtf8(process.readAllStandardOutput());
}

// The dump without what legitimately differs between two runs: timings.
QJsonObject withoutTimings(QJsonObject dump)
{
    QJsonObject diagnostics = dump.value(QStringLiteral("diagnostics")).toObject();
    diagnostics.remove(QStringLiteral("computeMilliseconds"));
    diagnostics.remove(QStringLiteral("stages"));
    dump.insert(QStringLiteral("diagnostics"), diagnostics);
    return dump;
}

constexpr auto readJson = attn::test::readJsonObject;

double number(const QJsonValue& v)
{
    if (v.isString()) { // non-finite values are written as strings
        const QString s = v.toString();
        return s == QLatin1String("NaN") || s == QLatin1String("nan") ? std::nan("")
               : s.startsWith(QLatin1Char('-'))                       ? -INFINITY
                                                                      : INFINITY;
    }
    return v.toDouble();
}

// Largest |a - b| over two JSON matrices (arrays of rows); infinite if shapes differ.
double maxDifference(const QJsonValue& a, const QJsonValue& b)
{
    const QJsonArray ra = a.toArray(), rb = b.toArray();
    if (ra.size() != rb.size())
        return INFINITY;
    double worst = 0;
    for (qsizetype i = 0; i < ra.size(); ++i) {
        const QJsonArray x = ra[i].toArray(), y = rb[i].toArray();
        if (x.size() != y.size())
            return INFINITY;
        for (qsizetype j = 0; j < x.size(); ++j) {
            const double p = number(x[j]), q = number(y[j]);
            if (p == q || (std::isnan(p) && std::isnan(q)))
                continue;
            worst = std::max(worst, std::abs(p - q));
        }
    }
    return worst;
}

// In CI the GPU checks run on lavapipe and are never skipped.
#define REQUIRE_VULKAN(present)                                                                    \
    do {                                                                                           \
        if (!(present)) {                                                                          \
            if (qgetenv("CI") == "true")                                                           \
                QFAIL("no Vulkan device in CI: install mesa-vulkan-drivers (cmake/deps.sh does)"); \
            QSKIP("no Vulkan device here");                                                        \
        }                                                                                          \
    } while (0)

// One line of --list-devices: "0: llvmpipe (LLVM 15.0.6, 256 bits) [CPU] driver llvmpipe
// (Mesa 22.3.6 (LLVM 15.0.6)), Vulkan 1.3.230" (gpu::describe).
const QRegularExpression kDeviceLine(QStringLiteral(
    "^(\\d+): (.+) \\[(discrete GPU|integrated GPU|virtual GPU|CPU|other)\\] driver (.+), "
    "Vulkan (\\d+\\.\\d+\\.\\d+)$"));

struct ListedDevice
{
    QString index;
    QString name;
};

// The devices --list-devices prints; empty when it says there is none.
std::vector<ListedDevice> listedDevices()
{
    std::vector<ListedDevice> devices;
    const Run r = run({QStringLiteral("--list-devices")});
    for (const QString& line : r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QRegularExpressionMatch m = kDeviceLine.match(line);
        if (m.hasMatch())
            devices.push_back({m.captured(1), m.captured(2)});
    }
    return devices;
}

} // namespace

class TestCommandLine : public QObject
{
    Q_OBJECT

private slots:
    // 16,384 tokens with 8 heads: the weights of every head in full would take 8 GiB, so the
    // figure must be computed pooled (the backend refuses the full matrices); the heatmap
    // comes out, pooled to at most 1024 cells a side.
    void longInputExportsAPooledFigure()
    {
        QStringList words;
        for (int i = 0; i < 16384; ++i)
            words << QStringLiteral("w%1").arg(i % 700);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("long.png"));
        const Run r =
            run({QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--text"),
                 words.join(u' '), QStringLiteral("--heads"), QStringLiteral("8"),
                 QStringLiteral("--d-model"), QStringLiteral("16"), QStringLiteral("--causal"),
                 QStringLiteral("--export"), out, QStringLiteral("--width"), QStringLiteral("640"),
                 QStringLiteral("--height"), QStringLiteral("480")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(QImage(out).size(), QSize(640, 480));
    }

    void pngHasTheRequestedSizeAndDpi()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("figure.png"));
        const Run r =
            run({QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--export"),
                 out, QStringLiteral("--width"), QStringLiteral("800"), QStringLiteral("--height"),
                 QStringLiteral("600"), QStringLiteral("--dpi"), QStringLiteral("300")});
        QCOMPARE(r.code, 0);
        const QImage image(out);
        QCOMPARE(image.size(), QSize(800, 600));
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 300);
        // Not blank: a heatmap has many colours.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 8, "the figure is blank");
    }

    void svgParsesAndHoldsTheTokenLabelsAsText()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("figure.svg"));
        const Run r = run({QStringLiteral("--scene"), kCatScene, QStringLiteral("--backend"),
                           QStringLiteral("cpu"), QStringLiteral("--export"), out});
        QCOMPARE(r.code, 0);
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        QStringList texts;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement &&
                xml.name() == QLatin1String("text"))
                texts.append(xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed());
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        const core::Scene scene = core::loadScene(kCatScene);
        const auto problem = core::resolveProblem(scene);
        for (const core::Token& token : problem->queryTokens)
            QVERIFY2(texts.count(token.text) >= 2, qPrintable(token.text)); // row and column label
    }

    // One figure path: a scene saved on the lines view exports the lines figure (it was the
    // heatmap: the export's views and the window's were two lists), and --view lines:N does.
    void linesViewExportsTheLinesFigure()
    {
        QTemporaryDir dir;
        QFile file(kCatScene);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject scene = QJsonDocument::fromJson(file.readAll()).object();
        QJsonObject view = scene.value(QStringLiteral("view")).toObject();
        view.insert(QStringLiteral("view"), QStringLiteral("lines:1"));
        scene.insert(QStringLiteral("view"), view);
        const QString scenePath = dir.filePath(QStringLiteral("lines.attention.json"));
        QFile out(scenePath);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(scene).toJson());
        out.close();
        auto svgTexts = [](const QString& path) {
            QFile svg(path);
            QStringList texts;
            if (!svg.open(QIODevice::ReadOnly))
                return texts;
            QXmlStreamReader xml(&svg);
            while (!xml.atEnd())
                if (xml.readNext() == QXmlStreamReader::StartElement &&
                    xml.name() == QLatin1String("text"))
                    texts.append(
                        xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed());
            return texts;
        };
        for (const QStringList& arguments :
             {QStringList{scenePath},
              QStringList{QStringLiteral("--scene"), kCatScene, QStringLiteral("--view"),
                          QStringLiteral("lines:1")}}) {
            const QString figure = dir.filePath(QStringLiteral("figure.svg"));
            QFile::remove(figure);
            const Run r =
                run(arguments + QStringList{QStringLiteral("--backend"), QStringLiteral("cpu"),
                                            QStringLiteral("--export"), figure});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            const QStringList texts = svgTexts(figure);
            // The lines figure heads its two columns; the heatmap names its axes instead.
            QVERIFY2(texts.contains(QStringLiteral("Queries")) &&
                         texts.contains(QStringLiteral("Keys")),
                     qPrintable(texts.join(u'|')));
            QVERIFY2(!texts.contains(QStringLiteral("queries")), qPrintable(texts.join(u'|')));
        }
    }

    void pdfIsOneVectorPageOfTheRequestedSize()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("figure.pdf"));
        const Run r =
            run({QStringLiteral("--scene"), kCatScene, QStringLiteral("--backend"),
                 QStringLiteral("cpu"), QStringLiteral("--export"), out, QStringLiteral("--width"),
                 QStringLiteral("1500"), QStringLiteral("--height"), QStringLiteral("1200"),
                 QStringLiteral("--dpi"), QStringLiteral("300")});
        QCOMPARE(r.code, 0);
        const QString info = toolOutput("pdfinfo", {out});
        QVERIFY2(info.contains(QRegularExpression(QStringLiteral("Pages:\\s+1\\n"))),
                 qPrintable(info));
        // 1500 x 1200 px at 300 DPI = 5 x 4 inches = 360 x 288 points.
        QVERIFY2(info.contains(QRegularExpression(
                     QStringLiteral("Page size:\\s+360(\\.0+)? x 288(\\.0+)? pts"))),
                 qPrintable(info));
        const QString text = toolOutput("pdftotext", {out, QStringLiteral("-")});
        const auto problem = core::resolveProblem(core::loadScene(kCatScene));
        for (const core::Token& token : problem->queryTokens)
            QVERIFY2(text.contains(token.text), qPrintable(token.text));
        QVERIFY(text.contains(QStringLiteral("attention weight")));
    }

    void dumpEqualsTheInProcessResult()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("dump.json"));
        const Run r =
            run({QStringLiteral("--scene"), kCatScene, QStringLiteral("--backend"),
                 QStringLiteral("cpu"), QStringLiteral("--causal"), QStringLiteral("--dump"), out});
        QCOMPARE(r.code, 0);
        core::Scene scene = core::loadScene(kCatScene);
        scene.mask.causal = true;
        core::CpuBackend backend;
        const auto result = backend.compute(core::resolveProblem(scene), {});
        const QJsonObject expected = withoutTimings(core::resultToJson(*result));
        const QJsonObject actual = withoutTimings(readJson(out));
        QCOMPARE(actual.value(QStringLiteral("backend")).toString(), QStringLiteral("CPU"));
        QVERIFY(actual.value(QStringLiteral("heads")).toArray().size() > 0);
        QCOMPARE(actual, expected);
    }

    // --backend vulkan --dump equals --backend cpu --dump for every mode.
    void vulkanDumpEqualsCpuDumpForEveryMode_data()
    {
        QTest::addColumn<QStringList>("options");
        for (const char* mode : {"dot", "scaled", "additive", "hard", "bilinear", "cosine"})
            QTest::newRow(mode) << QStringList{QStringLiteral("--mode"), QString::fromLatin1(mode)};
        QTest::newRow("relu causal") << QStringList{
            QStringLiteral("--normalize"), QStringLiteral("relu"), QStringLiteral("--causal")};
        QTest::newRow("sparsemax window")
            << QStringList{QStringLiteral("--normalize"), QStringLiteral("sparsemax"),
                           QStringLiteral("--window"), QStringLiteral("1")};
        QTest::newRow("cross") << QStringList{
            QStringLiteral("--text"),   QStringLiteral("Le chat noir a mangé la souris"),
            QStringLiteral("--source"), QStringLiteral("Black cat ate the mouse"),
            QStringLiteral("--heads"),  QStringLiteral("4")};
    }
    void vulkanDumpEqualsCpuDumpForEveryMode()
    {
        QFETCH(QStringList, options);
        QTemporaryDir dir;
        QJsonObject dumps[2];
        const char* backends[2] = {"cpu", "vulkan"};
        for (int b = 0; b < 2; ++b) {
            const QString out =
                dir.filePath(QStringLiteral("%1.json").arg(QLatin1String(backends[b])));
            const Run r = run(options + QStringList{QStringLiteral("--backend"),
                                                    QString::fromLatin1(backends[b]),
                                                    QStringLiteral("--dump"), out});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            dumps[b] = readJson(out);
        }
        REQUIRE_VULKAN(dumps[1].value(QStringLiteral("backend")).toString() ==
                       QLatin1String("Vulkan"));
        QVERIFY(!dumps[1].value(QStringLiteral("device")).toString().isEmpty());
        const QJsonArray cpuHeads = dumps[0].value(QStringLiteral("heads")).toArray();
        const QJsonArray gpuHeads = dumps[1].value(QStringLiteral("heads")).toArray();
        QCOMPARE(gpuHeads.size(), cpuHeads.size());
        for (qsizetype h = 0; h < cpuHeads.size(); ++h) {
            const QJsonObject c = cpuHeads[h].toObject(), g = gpuHeads[h].toObject();
            for (const char* name : {"Q", "K", "V", "rawScores", "scaledScores", "maskedScores"})
                QVERIFY2(maxDifference(c[QLatin1String(name)], g[QLatin1String(name)]) <= 1e-4,
                         name);
            QVERIFY2(maxDifference(c[QStringLiteral("weights")], g[QStringLiteral("weights")]) <=
                         1e-5,
                     "weights");
            QVERIFY2(maxDifference(c[QStringLiteral("output")], g[QStringLiteral("output")]) <=
                         1e-4,
                     "output");
        }
        QVERIFY(maxDifference(dumps[0][QStringLiteral("output")],
                              dumps[1][QStringLiteral("output")]) <= 1e-4);
    }

    // --list-devices prints each device with its type, driver and API version.
    void listDevicesPrintsTypeDriverAndApiVersion()
    {
        const Run r = run({QStringLiteral("--list-devices")});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(!lines.isEmpty(), "--list-devices printed nothing");
        REQUIRE_VULKAN(!lines.first().startsWith(QLatin1String("No Vulkan device")));
        QSet<QString> indices;
        for (const QString& line : lines) {
            const QRegularExpressionMatch m = kDeviceLine.match(line);
            QVERIFY2(m.hasMatch(),
                     qPrintable(QStringLiteral("not 'INDEX: NAME [TYPE] driver DRIVER, "
                                               "Vulkan X.Y.Z': ") +
                                line));
            indices.insert(m.captured(1));
        }
        QCOMPARE(indices.size(), lines.size()); // one line per device
        // CI installs mesa-vulkan-drivers: lavapipe is there, a CPU device named llvmpipe.
        if (qgetenv("CI") == "true")
            QVERIFY2(lines.filter(QRegularExpression(QStringLiteral(
                                      "^\\d+: llvmpipe.* \\[CPU\\] driver llvmpipe")))
                             .size() == 1,
                     qPrintable(r.out));
    }

    // --vk-device INDEX|NAME and ATTN_VK_DEVICE pick the device, which --dump records; the
    // option wins over the variable.
    void vkDeviceIsRecordedInTheDump_data()
    {
        QTest::addColumn<QString>("how");
        for (const char* how : {"option index", "option name", "environment index",
                                "environment name", "option over environment"})
            QTest::newRow(how) << QString::fromLatin1(how);
    }
    void vkDeviceIsRecordedInTheDump()
    {
        QFETCH(QString, how);
        const auto devices = listedDevices();
        REQUIRE_VULKAN(!devices.empty());
        // The last device, so that the preferred one (the default) is not picked by accident
        // on a machine with several; by name, a case-insensitive part of it.
        const ListedDevice& device = devices.back();
        const QString selector =
            how.endsWith(QLatin1String("name")) ? device.name.left(4).toUpper() : device.index;
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("dump.json"));
        QStringList arguments{QStringLiteral("--backend"), QStringLiteral("vulkan"),
                              QStringLiteral("--dump"), out};
        QStringList environment;
        if (how.startsWith(QLatin1String("option")))
            arguments << QStringLiteral("--vk-device") << selector;
        if (how.startsWith(QLatin1String("environment")))
            environment << QStringLiteral("ATTN_VK_DEVICE=") + selector;
        if (how == QLatin1String("option over environment"))
            environment << QStringLiteral("ATTN_VK_DEVICE=no such device");
        const Run r = run(arguments, QString(), environment);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject dump = readJson(out);
        QCOMPARE(dump.value(QStringLiteral("backend")).toString(), QStringLiteral("Vulkan"));
        QCOMPARE(dump.value(QStringLiteral("device")).toString(), device.name);
    }

    // A selector that names no device is a usage error (exit 2) with one line naming it and the
    // devices there are; nothing is written, and there is no silent fallback to the CPU.
    void unknownVkDeviceIsAUsageError_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QStringList>("environment");
        QTest::addColumn<QString>("selector");
        const QString name = QStringLiteral("nonexistent");
        const QStringList vulkan{QStringLiteral("--backend"), QStringLiteral("vulkan")};
        QTest::newRow("--vk-device name")
            << QStringList{QStringLiteral("--vk-device"), name} << QStringList() << name;
        QTest::newRow("--vk-device name, --backend vulkan")
            << (vulkan + QStringList{QStringLiteral("--vk-device"), name}) << QStringList() << name;
        QTest::newRow("--vk-device index out of range")
            << QStringList{QStringLiteral("--vk-device"), QStringLiteral("99")} << QStringList()
            << QStringLiteral("99");
        QTest::newRow("ATTN_VK_DEVICE name")
            << QStringList() << QStringList{QStringLiteral("ATTN_VK_DEVICE=") + name} << name;
        QTest::newRow("ATTN_VK_DEVICE name, --backend vulkan")
            << vulkan << QStringList{QStringLiteral("ATTN_VK_DEVICE=") + name} << name;
    }
    void unknownVkDeviceIsAUsageError()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, environment);
        QFETCH(QString, selector);
        const auto devices = listedDevices();
        REQUIRE_VULKAN(!devices.empty());
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("dump.json"));
        const Run r =
            run(arguments + QStringList{QStringLiteral("--dump"), out}, QString(), environment);
        QCOMPARE(r.code, 2);
        const QString message =
            QStringLiteral("error: Vulkan device '%1' not found; available: %2: %3")
                .arg(selector, devices.front().index, devices.front().name);
        QVERIFY2(r.err.count(message) == 1, qPrintable(r.err));
        QCOMPARE(r.err.count(QStringLiteral("not found")), 1); // said once
        QVERIFY2(!r.err.contains(QStringLiteral("CPU backend")), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    void exitCodes_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        const QString malformed = QStringLiteral(ATTN_TEST_DATA_DIR "/scenes/malformed/");
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("--frobnicate")} << 2 << QStringLiteral("frobnicate");
        QTest::newRow("bad mode") << QStringList{QStringLiteral("--mode"),
                                                 QStringLiteral("quadratic"),
                                                 QStringLiteral("--dump"), QStringLiteral("x.json")}
                                  << 2 << QStringLiteral("--mode");
        QTest::newRow("bad export suffix")
            << QStringList{QStringLiteral("--export"), QStringLiteral("figure.txt")} << 2
            << QStringLiteral(".png, .svg or .pdf");
        QTest::newRow("head out of range")
            << QStringList{QStringLiteral("--view"), QStringLiteral("head:0"),
                           QStringLiteral("--export"), QStringLiteral("f.png")}
            << 2 << QStringLiteral("--view");
        QTest::newRow("missing scene")
            << QStringList{QStringLiteral("--scene"), QStringLiteral("/nonexistent/scene.json"),
                           QStringLiteral("--dump"), QStringLiteral("x.json")}
            << 3 << QStringLiteral("/nonexistent/scene.json");
        QTest::newRow("wrong shape")
            << QStringList{QStringLiteral("--scene"),
                           malformed + QStringLiteral("heads_not_dividing.json"),
                           QStringLiteral("--export"), QStringLiteral("f.png")}
            << 3 << QStringLiteral("heads");
        QTest::newRow("newer version")
            << QStringList{QStringLiteral("--scene"),
                           malformed + QStringLiteral("newer_version.json"),
                           QStringLiteral("--export"), QStringLiteral("f.png")}
            << 3 << QStringLiteral("version");
        QTest::newRow("no head 9")
            << QStringList{QStringLiteral("--view"), QStringLiteral("head:9"),
                           QStringLiteral("--export"), QStringLiteral("f.png")}
            << 3 << QStringLiteral("no head 9");
        QTest::newRow("unwritable")
            << QStringList{QStringLiteral("--export"), QStringLiteral("/nonexistent-dir/f.png")}
            << 4 << QStringLiteral("/nonexistent-dir/f.png");
        QTest::newRow("empty sentence")
            << QStringList{QStringLiteral("--text"), QStringLiteral("   "),
                           QStringLiteral("--dump"), QStringLiteral("x.json")}
            << 3 << QStringLiteral("token");
    }
    void exitCodes()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, code);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const Run r =
            run(arguments + QStringList{QStringLiteral("--backend"), QStringLiteral("cpu")},
                dir.path());
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message, Qt::CaseInsensitive), qPrintable(r.err));
        QVERIFY2(!QFile::exists(dir.filePath(QStringLiteral("f.png"))),
                 "a failed run wrote a figure");
    }

    void aFailedExportLeavesTheOldFileIntact()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("f.png"));
        QFile old(out);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("the figure from last week");
        old.close();
        const Run r = run({QStringLiteral("--scene"),
                           QStringLiteral(ATTN_TEST_DATA_DIR "/scenes/malformed/heads_zero.json"),
                           QStringLiteral("--export"), out});
        QCOMPARE(r.code, 3);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("the figure from last week"));
    }

    void exportAllWritesEveryFigureOfTheScene()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("lecture"));
        const QString scene =
            QStringLiteral(ATTN_RESOURCES_DIR "/examples/12-multi-head-one-off.json");
        const Run r = run({QStringLiteral("--scene"), scene, QStringLiteral("--backend"),
                           QStringLiteral("cpu"), QStringLiteral("--export-all"), out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QStringList expected;
        for (const char* name : {"heads", "head-1", "head-2", "head-mean", "pipeline-1",
                                 "pipeline-2", "difference-1", "difference-2"})
            for (const char* suffix : {".pdf", ".png"})
                expected.append(QLatin1String(name) + QLatin1String(suffix));
        expected.sort();
        QStringList written = QDir(out).entryList(QDir::Files);
        written.sort();
        QCOMPARE(written, expected);
        QVERIFY(toolOutput("pdftotext",
                           {QDir(out).filePath(QStringLiteral("heads.pdf")), QStringLiteral("-")})
                    .contains(QStringLiteral("Head 2 (off)")));
    }

    void exportMatrixWritesOneStageOfOneHead()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("weights.csv"));
        const Run r = run({QStringLiteral("--scene"), kCatScene, QStringLiteral("--backend"),
                           QStringLiteral("cpu"), QStringLiteral("--stage"),
                           QStringLiteral("weights"), QStringLiteral("--export-matrix"), out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        core::CpuBackend backend;
        const auto result = backend.compute(core::resolveProblem(core::loadScene(kCatScene)), {});
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), result->heads[0].weights.rows());
        QCOMPARE(lines[0].split(',').first().toFloat(), result->heads[0].weights(0, 0));
    }

    // --- The first ten minutes, from the command line -----------------------------

    // --help and --version print once, and the usage line names the program.
    void helpAndVersionPrintOnce()
    {
        const Run help = run({QStringLiteral("--help")});
        QCOMPARE(help.code, 0);
        QCOMPARE(help.out.count(QStringLiteral("Usage:")), 1);
        QVERIFY2(!help.out.contains(QStringLiteral("<executable_name>")), qPrintable(help.out));
        QVERIFY(help.out.contains(QStringLiteral("attention-explorer")));
        for (const char* option : {"--embedding", "--positional", "--fill", "--d-k", "none"})
            QVERIFY2(help.out.contains(QLatin1String(option)), option);
        const Run version = run({QStringLiteral("--version")});
        QCOMPARE(version.code, 0);
        QCOMPARE(version.out.trimmed().split(QLatin1Char('\n')).size(), 1);
        QVERIFY(version.out.startsWith(QStringLiteral("attention-explorer ")));
    }

    // A user's own sentence computes on the built-in example and on every example file: the
    // words an example's embedding lacks get hashed vectors, and a note names them.
    void ownSentenceOnEveryExample_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("--source alone on the example")
            << QStringList{QStringLiteral("--source"), QStringLiteral("Black cat")};
        QTest::newRow("--text on the example")
            << QStringList{QStringLiteral("--text"), QStringLiteral("The student did not get it")};
        const QDir examples(QStringLiteral(ATTN_RESOURCES_DIR "/examples"));
        for (const QString& file :
             examples.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(file)) << QStringList{
                QStringLiteral("--scene"), examples.filePath(file), QStringLiteral("--text"),
                QStringLiteral("The student did not get the scholarship because she was lazy")};
    }
    void ownSentenceOnEveryExample()
    {
        QFETCH(QStringList, arguments);
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("dump.json"));
        const Run r =
            run(arguments + QStringList{QStringLiteral("--backend"), QStringLiteral("cpu"),
                                        QStringLiteral("--dump"), out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject dump = readJson(out);
        QVERIFY(!dump.value(QStringLiteral("heads")).toArray().isEmpty());
        if (arguments.first() == QLatin1String("--source")) {
            QVERIFY(dump.value(QStringLiteral("cross")).toBool());
            QVERIFY2(r.err.contains(QStringLiteral("note: ")) &&
                         r.err.contains(QStringLiteral("Black")),
                     qPrintable(r.err));
            QVERIFY(r.err.contains(QStringLiteral("hashed vectors")));
        }
    }

    // The settings that were only in scene files, on the command line.
    void sceneFileSettingsAsOptions()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("dump.json"));
        const QStringList common{QStringLiteral("--backend"), QStringLiteral("cpu"),
                                 QStringLiteral("--dump"),    out,
                                 QStringLiteral("--text"),    QStringLiteral("a b a c")};
        Run r = run(common + QStringList{QStringLiteral("--embedding"), QStringLiteral("onehot"),
                                         QStringLiteral("--positional"), QStringLiteral("none"),
                                         QStringLiteral("--fill"), QStringLiteral("-9e15"),
                                         QStringLiteral("--d-k"), QStringLiteral("3"),
                                         QStringLiteral("--normalize"), QStringLiteral("none"),
                                         QStringLiteral("--causal")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QJsonObject dump = readJson(out);
        const QJsonObject settings = dump.value(QStringLiteral("settings")).toObject();
        QCOMPARE(settings.value(QStringLiteral("normalize")).toString(), QStringLiteral("none"));
        QCOMPARE(settings.value(QStringLiteral("fill")).toString(), QStringLiteral("-9e15"));
        QCOMPARE(settings.value(QStringLiteral("d_k")).toInt(), 3);
        QCOMPARE(settings.value(QStringLiteral("d_v")).toInt(), 8); // d_model 16 / 2 heads
        // One-hot rows, no positions: "a b a c" is e0 e1 e0 e2.
        const QJsonArray x = dump.value(QStringLiteral("queryInput")).toArray();
        for (int i = 0; i < 4; ++i) {
            const int hot = std::array{0, 1, 0, 2}[std::size_t(i)];
            for (int j = 0; j < 16; ++j)
                QCOMPARE(x[i].toArray()[j].toDouble(), j == hot ? 1.0 : 0.0);
        }
        // No normalization: the weights are the scaled scores, masked cells 0 (not -9e15).
        const QJsonObject head = dump.value(QStringLiteral("heads")).toArray()[0].toObject();
        const QJsonArray weights = head.value(QStringLiteral("weights")).toArray();
        const QJsonArray scaled = head.value(QStringLiteral("scaledScores")).toArray();
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
                QCOMPARE(weights[i].toArray()[j].toDouble(),
                         j > i ? 0.0 : scaled[i].toArray()[j].toDouble());

        // --fill=-inf, sinusoidal positions, a table from the vectors in use.
        r = run(common + QStringList{QStringLiteral("--fill=-inf"), QStringLiteral("--positional"),
                                     QStringLiteral("sinusoidal"), QStringLiteral("--embedding"),
                                     QStringLiteral("table")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(readJson(out)
                     .value(QStringLiteral("settings"))
                     .toObject()
                     .value(QStringLiteral("fill"))
                     .toString(),
                 QStringLiteral("-inf"));

        // Word vectors: the file's width must be d_model.
        const QString vectors = QStringLiteral(ATTN_TEST_DATA_DIR "/scenes/valid/vectors.txt");
        r = run(common + QStringList{QStringLiteral("--word-vectors"), vectors});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("--word-vectors")) &&
                     r.err.contains(QStringLiteral("--d-model")),
                 qPrintable(r.err));

        // Names the options do not know are usage errors that list the choices.
        for (const auto& [option, value] :
             {std::pair{"--embedding", "glove"}, std::pair{"--positional", "rotary"},
              std::pair{"--fill", "0"}, std::pair{"--normalize", "tanh"}}) {
            r = run(common + QStringList{QLatin1String(option), QLatin1String(value)});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(QLatin1String(option)), qPrintable(r.err));
        }
        r = run(common + QStringList{QStringLiteral("--normalize"), QStringLiteral("tanh")});
        QVERIFY2(r.err.contains(QStringLiteral("softmax|hard|relu|sparsemax|none")),
                 qPrintable(r.err));
    }

    // The Difference figure never compares a score with itself, as in the window.
    void differenceFigureComparesAnotherScore()
    {
        QTemporaryDir dir;
        core::Scene scene = core::makeScene(QStringLiteral("one two three four"), 8, 2, 3);
        scene.view.compareScore = QStringLiteral("scaled"); // the score in use
        const QString path = dir.filePath(QStringLiteral("scene.json"));
        core::saveScene(scene, path);
        const QString out = dir.filePath(QStringLiteral("diff.svg"));
        const Run r = run({QStringLiteral("--scene"), path, QStringLiteral("--view"),
                           QStringLiteral("difference:1"), QStringLiteral("--export"), out,
                           QStringLiteral("--backend"), QStringLiteral("cpu")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray svg = file.readAll();
        QVERIFY2(svg.contains("minus dot product"),
                 "the difference is against the dot product, not itself");
    }

    // --compare takes any one change of the scene; one that changes nothing, or a word it
    // does not know, is refused with the choices this scene has.
    void differenceFigureComparesAnySetting()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("diff.svg"));
        const QStringList common{QStringLiteral("--text"),    QStringLiteral("one two three four"),
                                 QStringLiteral("--view"),    QStringLiteral("difference:1"),
                                 QStringLiteral("--export"),  out,
                                 QStringLiteral("--backend"), QStringLiteral("cpu")};
        Run r =
            run(common + QStringList{QStringLiteral("--compare"), QStringLiteral("mask:causal")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("minus the same with causal mask on"));
        file.close();
        for (const char* refused :
             {"mask:no-causal", "normalization:softmax", "positions:sinusoidal", "sideways"}) {
            r = run(common + QStringList{QStringLiteral("--compare"), QLatin1String(refused)});
            QCOMPARE(r.code, 3);
            QVERIFY2(r.err.contains(QStringLiteral("--compare")) &&
                         r.err.contains(QStringLiteral("mask:causal")) &&
                         r.err.contains(QStringLiteral("normalization:sparsemax")),
                     qPrintable(r.err));
        }
    }

    // The concept views on the command line: --view NAME on any scene or --text, and a scene
    // whose own view is one (the examples); --query picks the gradient view's query.
    void conceptViewsExportFromTheCommandLine()
    {
        QTemporaryDir dir;
        const QString examples = QStringLiteral(ATTN_RESOURCES_DIR "/examples/");
        struct Case
        {
            QStringList arguments;
            QString file;
            QByteArray magic;
        };
        const Case cases[] = {
            {{QStringLiteral("--scene"), examples + QStringLiteral("14-gradient-saturation.json")},
             QStringLiteral("g.pdf"),
             "%PDF-"},
            {{QStringLiteral("--text"), QStringLiteral("one two three four"),
              QStringLiteral("--view"), QStringLiteral("kernel")},
             QStringLiteral("k.svg"),
             "<?xml"},
            {{QStringLiteral("--text"), QStringLiteral("one two three four"),
              QStringLiteral("--view"), QStringLiteral("positions")},
             QStringLiteral("p.png"),
             "\x89PNG"},
            {{QStringLiteral("--scene"),
              examples + QStringLiteral("17-embedding-space-king-queen.json")},
             QStringLiteral("e.png"),
             "\x89PNG"},
            {{QStringLiteral("--text"), QStringLiteral("one two three four"),
              QStringLiteral("--view"), QStringLiteral("train"), QStringLiteral("--train"),
              QStringLiteral("reverse"), QStringLiteral("--steps"), QStringLiteral("30")},
             QStringLiteral("t.png"),
             "\x89PNG"},
            {{QStringLiteral("--text"), QStringLiteral("one two three"), QStringLiteral("--view"),
              QStringLiteral("gradient"), QStringLiteral("--query"), QStringLiteral("2")},
             QStringLiteral("q.png"),
             "\x89PNG"},
        };
        for (const Case& c : cases) {
            const QString out = dir.filePath(c.file);
            const Run r =
                run(c.arguments + QStringList{QStringLiteral("--export"), out,
                                              QStringLiteral("--backend"), QStringLiteral("cpu")});
            QVERIFY2(r.code == 0,
                     qPrintable(c.arguments.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
            QFile file(out);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.read(c.magic.size()), c.magic);
        }
        const Run r = run({QStringLiteral("--text"), QStringLiteral("one two three"),
                           QStringLiteral("--view"), QStringLiteral("gradient"),
                           QStringLiteral("--query"), QStringLiteral("4"),
                           QStringLiteral("--export"), dir.filePath(QStringLiteral("no.png"))});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("--query 4: the input has 3 queries")),
                 qPrintable(r.err));
    }

    // Two outputs to one file: the second would replace the first without a word. Refused as
    // a usage error naming both options, with the paths compared as the file system sees them
    // (./a.json is a.json), before anything is written.
    void twoOutputsToOneFileAreRefused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("unwritten");
        QTest::newRow("dump, export-matrix")
            << QStringList{QStringLiteral("--dump"), QStringLiteral("x.json"),
                           QStringLiteral("--export-matrix"), QStringLiteral("./x.json")}
            << QStringLiteral("--dump and --export-matrix both write to ./x.json")
            << QStringLiteral("x.json");
        QTest::newRow("export, export-presentation")
            << QStringList{QStringLiteral("--export"), QStringLiteral("sub/../f.pdf"),
                           QStringLiteral("--export-presentation"), QStringLiteral("f.pdf")}
            << QStringLiteral("--export and --export-presentation both write to f.pdf")
            << QStringLiteral("f.pdf");
        QTest::newRow("dump, train-save")
            << QStringList{QStringLiteral("--train"),      QStringLiteral("copy"),
                           QStringLiteral("--steps"),      QStringLiteral("2"),
                           QStringLiteral("--dump"),       QStringLiteral("t.json"),
                           QStringLiteral("--train-save"), QStringLiteral("t.json")}
            << QStringLiteral("--dump and --train-save both write to t.json")
            << QStringLiteral("t.json");
        QTest::newRow("a file named as the export-all folder")
            << QStringList{QStringLiteral("--dump"), QStringLiteral("figs"),
                           QStringLiteral("--export-all"), QStringLiteral("figs")}
            << QStringLiteral("--dump and --export-all both write to figs")
            << QStringLiteral("figs");
        // The example has one head: --export-all writes head-1.png among others.
        QTest::newRow("a file export-all writes")
            << QStringList{QStringLiteral("--export-all"), QStringLiteral("figs"),
                           QStringLiteral("--export"), QStringLiteral("figs/head-1.png")}
            << QStringLiteral("--export and --export-all both write to figs/head-1.png")
            << QStringLiteral("figs");
    }
    void twoOutputsToOneFileAreRefused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        QFETCH(QString, unwritten);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));
        const Run r =
            run(arguments + QStringList{QStringLiteral("--backend"), QStringLiteral("cpu")},
                dir.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY2(!QFileInfo::exists(dir.filePath(unwritten)), "a refused run wrote an output");
    }

    // A link and its target are one file; a file beside --export-all's that it does not write
    // is a file of its own.
    void outputsCompareAsTheFileSystemSeesThem()
    {
        QTemporaryDir dir;
        QFile target(dir.filePath(QStringLiteral("b.json")));
        QVERIFY(target.open(QIODevice::WriteOnly));
        target.close();
        QVERIFY(QFile::link(QStringLiteral("b.json"), dir.filePath(QStringLiteral("a.json"))));
        Run r = run({QStringLiteral("--dump"), QStringLiteral("a.json"),
                     QStringLiteral("--export-matrix"), dir.filePath(QStringLiteral("b.json")),
                     QStringLiteral("--backend"), QStringLiteral("cpu")},
                    dir.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--dump and --export-matrix both write to")),
                 qPrintable(r.err));
        // The example has one head, so head-2.png is no file of --export-all's.
        r = run({QStringLiteral("--export-all"), QStringLiteral("figs"), QStringLiteral("--export"),
                 QStringLiteral("figs/head-2.png"), QStringLiteral("--backend"),
                 QStringLiteral("cpu")},
                dir.path());
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!QImage(dir.filePath(QStringLiteral("figs/head-2.png"))).isNull());
        QVERIFY(QFileInfo::exists(dir.filePath(QStringLiteral("figs/head-1.png"))));
    }

    // An empty path (an unset shell variable) is a usage error, never "not given": ignored,
    // --model "" ran the single-layer example and --export "" wrote the example's figure
    // into the current folder.
    void emptyPathsAreUsageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        for (const char* option : {"model", "scene", "word-vectors", "export", "dump", "export-all",
                                   "export-matrix", "export-presentation", "train-save"})
            QTest::newRow(option)
                << QStringList{QStringLiteral("--") + QLatin1String(option), QString()}
                << QStringLiteral("--%1: the path is empty").arg(QLatin1String(option));
        QTest::newRow("--model=") << QStringList{QStringLiteral("--model="),
                                                 QStringLiteral("--text"), QStringLiteral("a b")}
                                  << QStringLiteral("--model: the path is empty");
        QTest::newRow("scene argument")
            << QStringList{QString()} << QStringLiteral("the scene file name is empty");
    }
    void emptyPathsAreUsageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const Run r =
            run(arguments + QStringList{QStringLiteral("--backend"), QStringLiteral("cpu")},
                dir.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList());
    }

    // A model's embedding map and positions are drawn from its weights, with no forward pass:
    // a --dump or --export-matrix beside them would not be written, so it is a usage error
    // (it was silently left out, exit 0).
    void modelWeightViewsRefuseRunOutputs_data()
    {
        QTest::addColumn<QString>("view");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("file");
        for (const char* view : {"embedding-space", "positions"}) {
            QTest::newRow(qPrintable(QStringLiteral("%1 --dump").arg(QLatin1String(view))))
                << QString::fromLatin1(view) << QStringLiteral("dump")
                << QStringLiteral("run.json");
            QTest::newRow(qPrintable(QStringLiteral("%1 --export-matrix").arg(QLatin1String(view))))
                << QString::fromLatin1(view) << QStringLiteral("export-matrix")
                << QStringLiteral("weights.csv");
        }
    }
    void modelWeightViewsRefuseRunOutputs()
    {
        QFETCH(QString, view);
        QFETCH(QString, option);
        QFETCH(QString, file);
        QTemporaryDir dir;
        const Run r =
            run({QStringLiteral("--model"), QStringLiteral(ATTN_TEST_DATA_DIR "/models/gpt2"),
                 QStringLiteral("--text"), QStringLiteral("The cat"), QStringLiteral("--view"),
                 view, QStringLiteral("--export"), QStringLiteral("figure.png"),
                 QStringLiteral("--") + option, file, QStringLiteral("--backend"),
                 QStringLiteral("cpu")},
                dir.path());
        QCOMPARE(r.code, 2);
        QVERIFY2(
            r.err.contains(
                QStringLiteral("--%1 cannot be used with --view %2 and --model").arg(option, view)),
            qPrintable(r.err));
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList());
    }

    // Every output that cannot be written exits 4 (README: the exit codes), whatever view or
    // kind of output, of a scene or of a model (whose embedding map and positions exited 3):
    // the path's folder is a regular file, which no user (root included) can write into.
    void everyWriteFailureExitsFour_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("file");
        const QString text = QStringLiteral("one two three");
        for (const char* view :
             {"head:1", "heads", "pipeline:1", "difference:1", "lines:1", "gradient", "kernel",
              "positions", "embedding-space", "projections", "hard"})
            QTest::newRow(view) << QStringList{QStringLiteral("--text"), text,
                                               QStringLiteral("--view"), QLatin1String(view)}
                                << QStringLiteral("--export") << QStringLiteral("f.png");
        QTest::newRow("train") << QStringList{QStringLiteral("--text"),  text,
                                              QStringLiteral("--view"),  QStringLiteral("train"),
                                              QStringLiteral("--train"), QStringLiteral("copy"),
                                              QStringLiteral("--steps"), QStringLiteral("2")}
                               << QStringLiteral("--export") << QStringLiteral("f.png");
        QTest::newRow("dump") << QStringList{} << QStringLiteral("--dump")
                              << QStringLiteral("d.json");
        QTest::newRow("export-matrix")
            << QStringList{} << QStringLiteral("--export-matrix") << QStringLiteral("m.csv");
        QTest::newRow("export-presentation")
            << QStringList{} << QStringLiteral("--export-presentation")
            << QStringLiteral("deck.pdf");
        QTest::newRow("export-all")
            << QStringList{} << QStringLiteral("--export-all") << QStringLiteral("figs");
        QTest::newRow("train-save")
            << QStringList{QStringLiteral("--train"), QStringLiteral("copy"),
                           QStringLiteral("--steps"), QStringLiteral("2")}
            << QStringLiteral("--train-save") << QStringLiteral("t.json");
        const QStringList model{QStringLiteral("--model"),
                                QStringLiteral(ATTN_TEST_DATA_DIR "/models/gpt2"),
                                QStringLiteral("--text"), QStringLiteral("The cat sat")};
        for (const char* view : {"head:1", "heads", "pipeline:1", "difference:1", "grid", "rollout",
                                 "predictions", "importance", "positions", "embedding-space"})
            QTest::addRow("model %s", view)
                << model + QStringList{QStringLiteral("--view"), QLatin1String(view)}
                << QStringLiteral("--export") << QStringLiteral("f.png");
        QTest::newRow("model dump")
            << model << QStringLiteral("--dump") << QStringLiteral("d.json");
        QTest::newRow("model export-matrix")
            << model << QStringLiteral("--export-matrix") << QStringLiteral("m.csv");
    }
    void everyWriteFailureExitsFour()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, option);
        QFETCH(QString, file);
        QTemporaryDir dir;
        const QString out = attn::test::unwritablePath(dir, file);
        QVERIFY(!out.isEmpty());
        const Run r = run(arguments + QStringList{option, out, QStringLiteral("--backend"),
                                                  QStringLiteral("cpu")});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains(out), qPrintable(r.err));
    }

    // --export-presentation shows the query of --query (step 8 follows one query); without
    // it, a query the mask leaves a choice of keys: under a causal mask query 1 has one key.
    void presentationFollowsTheQueryAsked()
    {
        QTemporaryDir dir;
        const QString deck = dir.filePath(QStringLiteral("deck.pdf"));
        auto stepEight = [&] {
            return toolOutput("pdftotext",
                              {QStringLiteral("-f"), QStringLiteral("8"), QStringLiteral("-l"),
                               QStringLiteral("8"), deck, QStringLiteral("-")});
        };
        const QStringList causal{QStringLiteral("--text"),
                                 QStringLiteral("the cat sat on the mat"),
                                 QStringLiteral("--causal"),
                                 QStringLiteral("--export-presentation"),
                                 deck,
                                 QStringLiteral("--backend"),
                                 QStringLiteral("cpu")};
        Run r = run(causal + QStringList{QStringLiteral("--query"), QStringLiteral("4")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(stepEight().contains(QStringLiteral("o4 =")), qPrintable(stepEight()));
        r = run(causal);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(!stepEight().contains(QStringLiteral("o1 =")), qPrintable(stepEight()));
        r = run(causal + QStringList{QStringLiteral("--query"), QStringLiteral("7")});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("--query 7: the input has 6 queries")),
                 qPrintable(r.err));
    }

    void withoutADisplayTheExampleBecomesAFigureFile()
    {
        QTemporaryDir dir;
        const Run r = run({QStringLiteral("--backend"), QStringLiteral("cpu")},
                          dir.path()); // offscreen: no display
        QCOMPARE(r.code, 0);
        const QString expected = dir.filePath(QStringLiteral("attention-explorer-example.png"));
        QVERIFY2(r.out.contains(expected), qPrintable(r.out));
        QVERIFY(!QImage(expected).isNull());
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_command_line.moc"
