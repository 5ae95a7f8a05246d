// The Fixed weights tab (seeds 001 and 004) on example 26: the fully connected layer's and
// the convolution's matrices the same before and after "cat" becomes "dog", attention's not;
// the tab opened from the example and exported.

#include "ui/concepts/concept_figures.h"
#include "ui/concepts/mixing_page.h"
#include "ui/document/scene_document.h"
#include "ui/explorer/explorer_window.h"
#include "ui/export/export_dialog.h"

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene.h"
#include "core/scene_json.h"

#include "support/plot_data.h"

#include <qcustomplot.h>

#include <QTabWidget>
#include <QTest>
#include <QUndoStack>

using namespace attn;

namespace {

core::Scene example()
{
    return core::loadScene(
        QStringLiteral(ATTN_RESOURCES_DIR "/examples/26-fixed-vs-data-dependent-weights.json"));
}

// Largest |a - b| over the 3 x 3 cells of two panels.
double largestDifference(const QCPColorMap* a, const QCPColorMap* b)
{
    double most = 0.0;
    for (int x = 0; x < 3; ++x)
        for (int y = 0; y < 3; ++y)
            most = std::max(most, std::abs(a->data()->cell(x, y) - b->data()->cell(x, y)));
    return most;
}

} // namespace

class TestMixingView : public QObject
{
    Q_OBJECT

private slots:
    void onlyAttentionMoves()
    {
        QCustomPlot plot;
        plot.resize(1000, 700);
        plot.setViewport(plot.rect());
        ui::buildConceptFigure(plot, ui::ConceptView::Mixing,
                               {std::make_shared<const core::Scene>(example()), nullptr, 0, 0},
                               ui::FigureSpec{});
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const auto maps = test::colorMaps(plot);
        QCOMPARE(maps.size(), std::size_t(9)); // before, after, difference of each layer
        QCOMPARE(largestDifference(maps[0], maps[1]), 0.0);
        QCOMPARE(largestDifference(maps[3], maps[4]), 0.0);
        QVERIFY(largestDifference(maps[6], maps[7]) > 0.01);
        // The convolution's window 1/4, 1/2, 1/4 with zero padding: 3 × 1/2 + 4 × 1/4.
        double sum = 0.0;
        for (int x = 0; x < 3; ++x)
            for (int y = 0; y < 3; ++y)
                sum += maps[3]->data()->cell(x, y);
        QCOMPARE(sum, 2.5);

        // A view without its second sentence says what it needs.
        core::Scene bare = example();
        bare.view.view = QStringLiteral("mixing");
        const ui::ConceptSource source{std::make_shared<const core::Scene>(bare), nullptr, 0, 0};
        const ui::FigureSpec spec;
        QVERIFY_THROWS_EXCEPTION(
            core::Error, ui::buildConceptFigure(plot, ui::ConceptView::Mixing, source, spec));
        // Nor is another view's word (the command line's head:1) a sentence.
        bare.view.view = QStringLiteral("head:1");
        const ui::ConceptSource head{std::make_shared<const core::Scene>(bare), nullptr, 0, 0};
        try {
            ui::buildConceptFigure(plot, ui::ConceptView::Mixing, head, spec);
            QFAIL("drawn");
        } catch (const core::Error& e) {
            QCOMPARE(QString::fromUtf8(e.what()),
                     QStringLiteral("mixing view: the scene's view names no second sentence "
                                    "(mixing:SENTENCE)"));
        }
    }

    void tabOpensFromTheExampleAndExports()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.resize(1024, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setScene(example(), QString());
        QTRY_VERIFY(window.isUpToDate() && window.document()->result());
        QCOMPARE(window.viewTabs()->currentWidget(), window.mixingPage());
        QTRY_COMPARE(test::colorMaps(*window.mixingPage()->plot()).size(), std::size_t(9));
        QVERIFY(window.mixingPage()->message().isEmpty());
        window.viewTabs()->setCurrentIndex(0);
        window.viewTabs()->setCurrentWidget(window.mixingPage());
        QCOMPARE(window.document()->scene().view.view, QStringLiteral("mixing:the dog sat"));
        const ui::ExportSource source = window.exportSource();
        QVERIFY(source.drawConcept);
        QVERIFY(
            ui::exportFigureBytes(source, ui::windowExportSettings(source), ui::FigureFormat::Png)
                .startsWith("\x89PNG"));
        window.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestMixingView)
#include "tst_mixing_view.moc"
