// The Projections tab (seeds 002 and 004, Bishop p. 365) on examples 20 to 22: the cells of
// each matrix against products worked out by hand from the examples' weights (written in
// resources/examples/generate_examples.py), the identities' differences, the tab opened from
// the examples, its part stored in the scene's view and exported.

#include "ui/concepts/concept_figures.h"
#include "ui/concepts/projections_page.h"
#include "ui/document/scene_document.h"
#include "ui/explorer/explorer_window.h"
#include "ui/export/export_dialog.h"

#include "core/cpu_backend.h"
#include "core/scene.h"
#include "core/scene_json.h"

#include "support/plot_data.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QTabWidget>
#include <QTest>
#include <QUndoStack>

using namespace attn;

namespace {

core::Scene example(const char* name)
{
    return core::loadScene(QStringLiteral(ATTN_RESOURCES_DIR "/examples/") + QLatin1String(name));
}

void draw(QCustomPlot& plot, const core::Scene& scene, int head = 0)
{
    plot.resize(1000, 620);
    plot.setViewport(plot.rect());
    auto result = core::CpuBackend().compute(core::resolveProblem(scene), {});
    ui::buildConceptFigure(plot, ui::ConceptView::Projections,
                           {std::make_shared<const core::Scene>(scene), result, head, 0},
                           ui::FigureSpec{});
    plot.replot(QCustomPlot::rpImmediateRefresh);
}

// Row `row` of a colour map (its cells are column, row).
std::vector<double> rowOf(QCPColorMap* map, int row)
{
    std::vector<double> values;
    for (int c = 0; c < map->data()->keySize(); ++c)
        values.push_back(map->data()->cell(c, row));
    return values;
}

double sumOf(QCPColorMap* map)
{
    double sum = 0.0;
    for (int c = 0; c < map->data()->keySize(); ++c)
        for (int r = 0; r < map->data()->valueSize(); ++r)
            sum += map->data()->cell(c, r);
    return sum;
}

QString allText(QCustomPlot& plot)
{
    QString text;
    for (int i = 0; i < plot.plotLayout()->elementCount(); ++i)
        if (auto* element = qobject_cast<QCPTextElement*>(plot.plotLayout()->elementAt(i)))
            text += element->text() + QLatin1Char('\n');
    for (QCPAxisRect* rect : plot.axisRects())
        text += rect->axis(QCPAxis::atTop)->label() + QLatin1Char('\n');
    return text.replace(QLatin1Char('\n'), QLatin1Char(' '));
}

} // namespace

class TestProjectionsView : public QObject
{
    Q_OBJECT

private slots:
    void partNames()
    {
        QCOMPARE(ui::parseProjectionsPart(QStringLiteral("circuits")),
                 ui::ProjectionsPart::Circuits);
        QVERIFY(!ui::parseProjectionsPart(QStringLiteral("heads")));
        core::Scene scene = example("22-bias-absorbed.json");
        QCOMPARE(ui::projectionsPartOf(scene), ui::ProjectionsPart::Bias);
        scene.view.view = QStringLiteral("head:1");
        QCOMPARE(ui::projectionsPartOf(scene), ui::ProjectionsPart::Split);
    }

    // Example 20: one-hot words of "Black cat ate the mouse", so X W picks W's rows. "cat"
    // (word 2) queries feature 1 in head 1 (W_1^Q[cat][1] = 3) and feature 2 in head 2 (it asks
    // for its verb "ate", head 2's second key): W^Q's and X W^Q's row 2 is (3 0 0 0 | 0 3 0 0).
    void splitIsTheHeadsSideBySide()
    {
        QCustomPlot plot;
        draw(plot, example("20-one-projection-many-heads.json"));
        const auto maps = test::colorMaps(plot);
        QCOMPARE(maps.size(), std::size_t(3));
        const std::vector<double> cat{3, 0, 0, 0, 0, 3, 0, 0};
        QCOMPARE(maps[0]->data()->keySize(), 8);
        QCOMPARE(maps[0]->data()->valueSize(), 8);
        QCOMPARE(rowOf(maps[0], 1), cat);
        QCOMPARE(maps[1]->data()->valueSize(), 5); // five tokens
        QCOMPARE(rowOf(maps[1], 1), cat);
        QCOMPARE(rowOf(maps[2], 1), std::vector<double>({3, 0, 0, 0}));
        // "mouse" (token 5) asks for "the" in head 1 (feature 4), for "ate" in head 2.
        QCOMPARE(rowOf(maps[1], 4), std::vector<double>({0, 0, 0, 3, 0, 3, 0, 0}));
        const QString text = allText(plot);
        QVERIFY2(text.contains(QStringLiteral("any head's block is 0.")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("d_k = d_model / h = 8 / 2 = 4.")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("W^O is h·d_v × d_model = 8 × 8")), qPrintable(text));
        // Head 2 picked: its own block.
        QCustomPlot second;
        draw(second, example("20-one-projection-many-heads.json"), 1);
        QCOMPARE(rowOf(test::colorMaps(second)[2], 1), std::vector<double>({0, 3, 0, 0}));
    }

    // Example 21, head 1 (the previous word): each of the five words queries one feature that
    // exactly one other word's key holds, with 3 x 2 = 6, so W_1^Q W_1^Kᵀ has five cells of 6
    // (sum 30), "cat" (row 2) -> "Black" (column 1). W_1^V W_1^O: W^O's first four rows are the
    // identity, so row w is e of w's kind (cat: animal, 1), five ones.
    void circuitsAreTheProducts()
    {
        QCustomPlot plot;
        draw(plot, example("21-qk-ov-circuits.json"));
        const auto maps = test::colorMaps(plot);
        QCOMPARE(maps.size(), std::size_t(2));
        QCOMPARE(maps[0]->data()->cell(0, 1), 6.0);
        QCOMPARE(sumOf(maps[0]), 30.0);
        QCOMPARE(rowOf(maps[1], 1), std::vector<double>({1, 0, 0, 0, 0, 0, 0, 0}));
        QCOMPARE(sumOf(maps[1]), 5.0);
        const QString text = allText(plot);
        QVERIFY2(text.contains(QStringLiteral("rank 4 (d_k = 4)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("rank 4 (d_v = 4)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("are q_a · k_b (largest difference 0)")),
                 qPrintable(text));
    }

    // Example 22: the hand example (X = I) with b^Q = (0, 1): [W^Q; b^Q] ends in that row, and
    // Q = (1,1) (0,2) (1,2) (0,1), each row of W^Q plus b^Q.
    void biasIsTheLastRow()
    {
        QCustomPlot plot;
        draw(plot, example("22-bias-absorbed.json"));
        const auto maps = test::colorMaps(plot);
        QCOMPARE(maps.size(), std::size_t(3));
        QCOMPARE(rowOf(maps[0], 2), std::vector<double>({0, 0, 1, 0, 1})); // "a", then the 1
        QCOMPARE(rowOf(maps[1], 4), std::vector<double>({0, 1}));
        const std::vector<std::vector<double>> q{{1, 1}, {0, 2}, {1, 2}, {0, 1}};
        for (int i = 0; i < 4; ++i)
            QCOMPARE(rowOf(maps[2], i), q[std::size_t(i)]);
        QVERIFY(allText(plot).contains(QStringLiteral("own Q, K and V is 0.")));
    }

    // The tab opens on the example's part; another part is stored in the scene's view, and the
    // export draws what the tab shows.
    void tabOpensOnItsPartAndExports()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.resize(1024, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setScene(example("21-qk-ov-circuits.json"), QString());
        QTRY_VERIFY(window.isUpToDate() && window.document()->result());
        QCOMPARE(window.viewTabs()->currentWidget(), window.projectionsPage());
        QCOMPARE(window.projectionsPage()->part(), ui::ProjectionsPart::Circuits);
        QTRY_VERIFY2(window.projectionsPage()->message().isEmpty(),
                     qPrintable(window.projectionsPage()->message()));

        QComboBox* combo = window.projectionsPage()->partCombo();
        combo->setCurrentIndex(2);
        emit combo->activated(2);
        QCOMPARE(window.document()->scene().view.view, QStringLiteral("projections:bias"));
        QTRY_COMPARE(test::colorMaps(*window.projectionsPage()->plot()).size(), std::size_t(3));
        // The scene's view set (as opening a file does): the tab follows.
        core::ViewSettings circuits = window.document()->scene().view;
        circuits.view = QStringLiteral("projections:circuits");
        window.document()->setView(circuits);
        QCOMPARE(window.projectionsPage()->part(), ui::ProjectionsPart::Circuits);
        QTRY_COMPARE(test::colorMaps(*window.projectionsPage()->plot()).size(), std::size_t(2));

        const ui::ExportSource source = window.exportSource();
        QVERIFY(source.drawConcept);
        const ui::ExportSettings settings = ui::windowExportSettings(source);
        QVERIFY(
            ui::exportFigureBytes(source, settings, ui::FigureFormat::Png).startsWith("\x89PNG"));
        QVERIFY(ui::exportFigureBytes(source, settings, ui::FigureFormat::Svg).contains("<svg"));
        window.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestProjectionsView)
#include "tst_projections_view.moc"
