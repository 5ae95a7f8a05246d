// Figures people can compare: heatmaps name their axes in the figure itself;
// attention weights are coloured on one fixed 0-1 scale unless the user scales them to the
// data, and the colour bar says which; a long input pooled to a few tokens a pixel still
// shows where attention goes.
#include "ui/explorer/explorer_window.h"
#include "ui/export/export_dialog.h"
#include "ui/figures/figure_builder.h"
#include "ui/figures/figure_export.h"
#include "ui/views/heatmap_view.h"

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene.h"
#include "core/scene_json.h"

#include "support/plot_data.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>

using namespace attn;

using test::colorMaps;

namespace {

std::shared_ptr<const core::AttentionResult> compute(const core::Scene& scene,
                                                     const core::ComputeOptions& options = {})
{
    core::CpuBackend backend;
    return backend.compute(core::resolveProblem(scene), options);
}

core::Scene example(const QString& name)
{
    return core::loadScene(QStringLiteral(":/examples/") + name);
}

struct Built
{
    std::unique_ptr<QCustomPlot> plot;
    std::unique_ptr<ui::FigureBuilder> builder;
};

Built build(const core::AttentionResult& result, ui::FigureSpec spec,
            const core::AttentionResult* compare = nullptr, QSize size = QSize(1000, 800))
{
    Built b;
    b.plot = std::make_unique<QCustomPlot>();
    b.plot->setAttribute(Qt::WA_DontShowOnScreen);
    b.plot->resize(size);
    b.builder = std::make_unique<ui::FigureBuilder>(*b.plot, spec);
    b.builder->build(result, size, compare);
    return b;
}

// The first named colour bar: the Pipeline's slim bars beside X, Q, K, V, ... have no name.
QCPColorScale* colorScale(QCustomPlot& plot)
{
    for (int i = 0; i < plot.plotLayout()->elementCount(); ++i) {
        QList<QCPLayoutElement*> all = plot.plotLayout()->elements(true);
        for (QCPLayoutElement* e : all)
            if (auto* scale = qobject_cast<QCPColorScale*>(e);
                scale && !scale->axis()->label().isEmpty())
                return scale;
    }
    return nullptr;
}

// A sentence of `words` words from a small vocabulary, as a long document would be.
QString longText(int words)
{
    static const QStringList vocabulary{
        QStringLiteral("the"),   QStringLiteral("cat"),  QStringLiteral("sat"),
        QStringLiteral("on"),    QStringLiteral("a"),    QStringLiteral("mat"),
        QStringLiteral("while"), QStringLiteral("dogs"), QStringLiteral("ran"),
        QStringLiteral("far"),   QStringLiteral("away"), QStringLiteral("quickly")};
    QStringList out;
    for (int k = 0; k < words; ++k)
        out.append(vocabulary[(k * 7 + k / 5) % vocabulary.size()]);
    return out.join(QLatin1Char(' '));
}

// Where each finite cell falls on its map's range, 0 to 1 (log-aware).
std::vector<double> positions(QCPColorMap* map)
{
    std::vector<double> t;
    const QCPRange range = map->dataRange();
    const bool log = map->dataScaleType() == QCPAxis::stLogarithmic;
    for (int x = 0; x < map->data()->keySize(); ++x)
        for (int y = 0; y < map->data()->valueSize(); ++y) {
            const double v = map->data()->cell(x, y);
            if (!std::isfinite(v))
                continue;
            const double c = std::clamp(v, range.lower, range.upper);
            t.push_back(log ? std::log(c / range.lower) / std::log(range.upper / range.lower)
                            : (c - range.lower) / range.size());
        }
    std::sort(t.begin(), t.end());
    return t;
}

double percentile(const std::vector<double>& sorted, double p)
{
    return sorted.empty() ? 0.0 : sorted[std::size_t(p * double(sorted.size() - 1))];
}

} // namespace

class TestComparableFigures : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_comparable_figures"));
    }

    // Queries down the side, keys along the bottom, named in the figure (and in its files).
    void axesAreNamedInTheFigure_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("view");
        QTest::addColumn<QString>("rows");
        QTest::addColumn<QString>("columns");
        for (auto [view, name] : {std::pair{ui::FigureView::Head, "head"},
                                  {ui::FigureView::Heads, "heads"},
                                  {ui::FigureView::Difference, "difference"},
                                  {ui::FigureView::Pipeline, "pipeline"}}) {
            QTest::addRow("self %s", name) << "01-this-is-a-cat.json" << int(view) << "queries"
                                           << "keys";
            QTest::addRow("cross %s", name)
                << "04-translation-cross-attention.json" << int(view) << "queries (target)"
                << "keys (source)";
        }
    }

    void axesAreNamedInTheFigure()
    {
        QFETCH(QString, file);
        QFETCH(int, view);
        QFETCH(QString, rows);
        QFETCH(QString, columns);
        core::Scene scene = example(file);
        const auto result = compute(scene);
        core::Scene other = scene;
        other.score = core::ScoreKind::Dot;
        const auto compare = compute(other);
        ui::FigureSpec spec;
        spec.view = ui::FigureView(view);
        Built b = build(*result, spec, compare.get());
        QStringList left, bottom;
        for (QCPAxisRect* rect : b.plot->axisRects()) {
            left.append(rect->axis(QCPAxis::atLeft)->label());
            bottom.append(rect->axis(QCPAxis::atBottom)->label());
        }
        QVERIFY2(left.contains(rows), qPrintable(left.join(QLatin1String(" | "))));
        QVERIFY2(bottom.contains(columns), qPrintable(bottom.join(QLatin1String(" | "))));
        const QByteArray svg =
            ui::renderFigure(*b.plot, QSize(1000, 800), spec.dpi, ui::FigureFormat::Svg);
        QVERIFY(svg.contains(rows.toUtf8()) && svg.contains(columns.toUtf8()));
    }

    // The finding: weights were scaled to each figure's largest weight, so two figures'
    // colours meant different numbers. Now 0 to 1 everywhere, and the bar says so.
    void weightsAreColouredZeroToOneByDefault_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("sharp (the example)") << QString();
        QTest::newRow("flat: largest weight under 0.5") << longText(40);
    }

    void weightsAreColouredZeroToOneByDefault()
    {
        QFETCH(QString, text);
        core::Scene scene = text.isEmpty() ? example(QStringLiteral("01-this-is-a-cat.json"))
                                           : core::makeScene(text, 16, 2, 1);
        const auto result = compute(scene);
        float largest = 0.0f;
        for (const core::HeadResult& h : result->heads)
            largest = std::max(largest, h.weights.maxCoeff());
        QVERIFY(text.isEmpty() || largest < 0.5f);
        for (ui::FigureView view :
             {ui::FigureView::Head, ui::FigureView::Heads, ui::FigureView::Pipeline}) {
            ui::FigureSpec spec;
            spec.view = view;
            Built b = build(*result, spec);
            bool weightsSeen = false;
            for (QCPColorMap* map : colorMaps(*b.plot))
                if (map->dataRange().lower == 0.0) { // the weights (signed maps are symmetric)
                    QCOMPARE(map->dataRange().upper, 1.0);
                    weightsSeen = true;
                }
            QVERIFY(weightsSeen);
            QCPColorScale* bar = colorScale(*b.plot);
            QVERIFY(bar);
            QCOMPARE(bar->dataRange(), QCPRange(0.0, 1.0));
            QVERIFY2(bar->axis()->label().contains(QLatin1String("fixed scale 0 to 1")),
                     qPrintable(bar->axis()->label()));
        }
    }

    void theDataScaleIsAnOptionAndSaysSo()
    {
        const auto result = compute(core::makeScene(longText(40), 16, 2, 1));
        const double largest = double(result->heads[0].weights.maxCoeff());
        ui::FigureSpec spec;
        spec.weightScale = ui::WeightScale::Data;
        Built b = build(*result, spec);
        const QCPRange range = colorMaps(*b.plot).front()->dataRange();
        QCOMPARE(range.lower, 0.0);
        QVERIFY2(range.upper >= largest && range.upper < 2 * largest,
                 qPrintable(QString::number(range.upper)));
        QVERIFY(colorScale(*b.plot)->axis()->label().contains(QLatin1String("scaled to the data")));
        // The names the command line and the scene file use.
        QCOMPARE(ui::parseWeightScale(QStringLiteral("data")),
                 std::optional(ui::WeightScale::Data));
        QCOMPARE(ui::parseWeightScale(QStringLiteral("fixed")),
                 std::optional(ui::WeightScale::Fixed));
        QVERIFY(!ui::parseWeightScale(QStringLiteral("auto")));
    }

    // Differences of weights lie in -1..1: fixed there too.
    void differencesAreFixedToo()
    {
        const core::Scene scene = example(QStringLiteral("01-this-is-a-cat.json"));
        core::Scene other = scene;
        other.score = core::ScoreKind::Dot;
        const auto a = compute(scene);
        const auto b = compute(other);
        ui::FigureSpec spec;
        spec.view = ui::FigureView::Difference;
        Built fixed = build(*a, spec, b.get());
        QCOMPARE(colorMaps(*fixed.plot).front()->dataRange(), QCPRange(-1.0, 1.0));
        QVERIFY(colorScale(*fixed.plot)->axis()->label().contains(QLatin1String("fixed scale")));
    }

    // Unnormalized weights (seed 004's (X Xᵀ) V) are scores: no 0-1 range holds them.
    void unnormalizedWeightsAreScaledToTheirData()
    {
        core::Scene scene = example(QStringLiteral("01-this-is-a-cat.json"));
        scene.normalization = core::Normalization::None;
        const auto result = compute(scene);
        Built b = build(*result, ui::FigureSpec{});
        const QCPRange range = colorMaps(*b.plot).front()->dataRange();
        const double top = double(result->heads[0].weights.cwiseAbs().maxCoeff());
        QCOMPARE(range.upper, top);
        QCOMPARE(range.lower, -top);
        QVERIFY(colorScale(*b.plot)->axis()->label().contains(QLatin1String("not normalized")));
    }

    // The 3,000-token figure was almost uniformly dark: weights near 1/3000, averaged over
    // blocks, on a 0-1 scale. Pooled now by the largest weight of a block, on a log scale
    // from a decade below uniform attention, and the figure says both.
    void aPooledLongInputShowsStructure()
    {
        const auto scene = core::makeScene(longText(3000), 16, 2, 1);
        core::ComputeOptions options;
        options.viewRows = options.viewCols = 1024; // as the command line pools a figure
        options.pool = core::PoolMode::Max;
        options.keepIntermediates = false;
        const auto result = compute(scene, options);
        QVERIFY(result->pooling.pooled);
        Built b = build(*result, ui::FigureSpec{});
        QCPColorMap* map = colorMaps(*b.plot).front();
        QCOMPARE(map->dataScaleType(), QCPAxis::stLogarithmic);
        const std::vector<double> t = positions(map);
        const double spread = percentile(t, 0.9) - percentile(t, 0.1);
        QVERIFY2(
            spread > 0.15,
            qPrintable(QStringLiteral("10th to 90th percentile span %1 of the scale").arg(spread)));
        QVERIFY2(percentile(t, 0.5) > 0.15, "the median cell is not the darkest colour");
        const QString label = colorScale(*b.plot)->axis()->label();
        QVERIFY2(label.contains(QStringLiteral("largest weight of each 3 × 3 block")) &&
                     label.contains(QLatin1String("log scale")),
                 qPrintable(label));
        QVERIFY(b.plot->axisRect(0)
                    ->axis(QCPAxis::atLeft)
                    ->label()
                    .contains(QLatin1String("3 per row")));

        // What it replaced, for the record: the mean of each block on 0-1 is one colour.
        options.pool = core::PoolMode::Mean;
        const auto mean = compute(scene, options);
        std::vector<double> linear;
        for (Eigen::Index k = 0; k < mean->heads[0].weights.size(); ++k)
            linear.push_back(double(mean->heads[0].weights.data()[k]));
        std::sort(linear.begin(), linear.end());
        QVERIFY(percentile(linear, 0.9) < 0.02);
    }

    // The window: a check box scales to the data; the scene keeps the choice.
    void theWindowOffersTheDataScale()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setScene(core::makeScene(longText(40), 16, 2, 1), QString());
        QTRY_VERIFY_WITH_TIMEOUT(window.isUpToDate() && window.document()->result(), 10000);
        QTRY_VERIFY(window.headView()->colorMap() && !window.headView()->isRebuildPending());
        QCOMPARE(window.headView()->colorMap()->dataRange().upper, 1.0);
        auto* check = window.findChild<QCheckBox*>(QStringLiteral("dataScaleCheck"));
        QVERIFY(check);
        QVERIFY(!check->isChecked());
        check->click();
        QTRY_VERIFY(window.headView()->colorMap() &&
                    window.headView()->colorMap()->dataRange().upper < 1.0);
        QCOMPARE(window.document()->scene().view.colorScale, QStringLiteral("data"));
        // Saved and read back.
        const core::Scene back = core::sceneFromJson(core::sceneToJson(window.document()->scene()));
        QCOMPARE(back.view.colorScale, QStringLiteral("data"));
        // The export dialog starts from the window's scale.
        QCOMPARE(ui::windowExportSettings(window.exportSource()).weightScale,
                 ui::WeightScale::Data);
        window.openExportDialog();
        QVERIFY(window.exportDialog());
        QCOMPARE(window.exportDialog()->settings().weightScale, ui::WeightScale::Data);
        window.exportDialog()->close();
        window.document()->undoStack()->setClean();
    }

    // A journal column, 8.5 x 7 cm at 300 DPI, at the export dialog's 10 pt. An 8-token head:
    // every cell keeps its number (set smaller, never under 4.5 pt; the old code measured
    // weights as if they had a minus sign and dropped them). Both heads of a 5-token
    // sentence: the title is whole (smaller or on two lines), not "All heads · scaled dot
    // product · so…".
    void aSmallFigureKeepsItsNumbersAndTitle()
    {
        const auto result = compute(core::makeScene(longText(8), 16, 1, 1));
        QCOMPARE(result->heads[0].weights.rows(), 8);
        ui::FigureSpec spec;
        spec.dpi = 300;
        spec.fontPoints = 10;
        Built b = build(*result, spec, nullptr, QSize(1004, 827)); // 8.5 x 7 cm at 300 DPI
        int numbers = 0;
        for (int i = 0; i < b.plot->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(b.plot->item(i))) {
                ++numbers;
                QVERIFY2(text->font().pixelSize() >= 19, // 4.5 pt at 300 DPI is 18.75 pixels
                         qPrintable(QString::number(text->font().pixelSize())));
            }
        QCOMPARE(numbers, 8 * 8); // no mask: every cell
        QVERIFY(!b.builder->valuesLeftOut());

        const auto heads = compute(example(QStringLiteral("12-multi-head-one-off.json")));
        spec.view = ui::FigureView::Heads;
        Built both = build(*heads, spec, nullptr, QSize(1004, 827));
        auto* title = qobject_cast<QCPTextElement*>(both.plot->plotLayout()->element(0, 0));
        QVERIFY(title);
        QCOMPARE(title->text().replace(QLatin1Char('\n'), QLatin1Char(' ')),
                 QStringLiteral("All heads · scaled dot product · softmax"));
    }

    // Where even 4.5 pt numbers cannot fit (30 tokens in 8.5 cm), they are left out and the
    // builder says so, for the export dialog and the command line to tell the user.
    void numbersTooSmallToReadAreLeftOutAndSaid()
    {
        const auto result = compute(core::makeScene(longText(30), 16, 1, 1));
        ui::FigureSpec spec;
        spec.dpi = 300;
        Built b = build(*result, spec, nullptr, QSize(1004, 827));
        for (int i = 0; i < b.plot->itemCount(); ++i)
            QVERIFY(!qobject_cast<QCPItemText*>(b.plot->item(i)));
        QVERIFY(b.builder->valuesLeftOut());
        spec.showValues = false; // not asked for: nothing to say
        QVERIFY(!build(*result, spec, nullptr, QSize(1004, 827)).builder->valuesLeftOut());
    }

    // Every head of a 16-token sentence in the default figure (1200 x 900 at 150 DPI): each
    // token is named on the outer axes (a smaller font, not under 4.5 pt, instead of every
    // other token), and the colour bar shows its 0 (it fell off the page's bottom edge).
    void allHeadsNameEveryTokenAndTheBarItsZero()
    {
        const auto result = compute(core::makeScene(longText(16), 16, 4, 1));
        QCOMPARE(result->problem->queryCount(), 16);
        ui::FigureSpec spec;
        spec.view = ui::FigureView::Heads;
        spec.dpi = 150;
        Built b = build(*result, spec, nullptr, QSize(1200, 900));
        int labelledAxes = 0;
        for (QCPAxisRect* rect : b.plot->axisRects())
            for (QCPAxis* axis : {rect->axis(QCPAxis::atLeft), rect->axis(QCPAxis::atBottom)}) {
                auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
                if (!ticker || ticker->ticks().isEmpty())
                    continue;
                ++labelledAxes;
                QCOMPARE(ticker->ticks().size(), 16);
                QVERIFY(axis->tickLabelFont().pixelSize() >= 9); // 4.5 pt at 150 DPI is 9.4 pixels
            }
        QCOMPARE(labelledAxes, 4); // 2 x 2 heads: two rows of queries, two columns of keys
        QTemporaryDir dir;
        const QString pdf = dir.filePath(QStringLiteral("heads.pdf"));
        QFile file(pdf);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(ui::renderFigure(*b.plot, QSize(1200, 900), spec.dpi, ui::FigureFormat::Pdf));
        file.close();
        QProcess text;
        text.start(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
        QVERIFY(text.waitForFinished(30000));
        const QStringList lines =
            QString::fromUtf8(text.readAllStandardOutput()).split(QLatin1Char('\n'));
        for (const QString& tick : {QStringLiteral("0"), QStringLiteral("0.2"),
                                    QStringLiteral("0.8"), QStringLiteral("1")})
            QVERIFY2(lines.contains(tick),
                     qPrintable(tick + QStringLiteral(" not on the colour bar: ") +
                                lines.join(QLatin1Char('|'))));
    }

    void aSceneFileRefusesAnUnknownScale()
    {
        core::Scene scene = example(QStringLiteral("01-this-is-a-cat.json"));
        QByteArray json = core::sceneToJson(scene);
        json.replace("\"color_scale\": \"fixed\"", "\"color_scale\": \"auto\"");
        QVERIFY(json.contains("\"auto\""));
        try {
            core::sceneFromJson(json);
            QFAIL("read");
        } catch (const core::Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String("view.color_scale")),
                     e.what());
        }
    }
};

QTEST_MAIN(TestComparableFigures)
#include "tst_comparable_figures.moc"
