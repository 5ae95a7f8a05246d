// The Hard attention tab (seed 000) on example 23, the hard alignment of example 05: the soft
// and hard weights and the dropped mass against the softmax of the concept vectors' dot
// products worked by hand (resources/examples/generate_examples.py writes the vectors), the
// sentence naming the row that loses most, the tab opened from the example and exported.

#include "ui/concepts/concept_figures.h"
#include "ui/concepts/hard_page.h"
#include "ui/document/scene_document.h"
#include "ui/explorer/explorer_window.h"
#include "ui/export/export_dialog.h"

#include "core/cpu_backend.h"
#include "core/scene.h"
#include "core/scene_json.h"

#include "support/plot_data.h"

#include <qcustomplot.h>

#include <QTabWidget>
#include <QTest>
#include <QUndoStack>
#include <cmath>

using namespace attn;

namespace {

core::Scene example()
{
    return core::loadScene(
        QStringLiteral(ATTN_RESOURCES_DIR "/examples/23-hard-attention-limits.json"));
}

QString footnote(QCustomPlot& plot)
{
    QString text;
    for (int i = 0; i < plot.plotLayout()->elementCount(); ++i)
        if (auto* element = qobject_cast<QCPTextElement*>(plot.plotLayout()->elementAt(i)))
            text += element->text() + QLatin1Char(' ');
    return text.replace(QLatin1Char('\n'), QLatin1Char(' '));
}

} // namespace

class TestHardView : public QObject
{
    Q_OBJECT

private slots:
    // "Le" (query 1) = 1.5 CAT + 1 THE scores 0, 3, 0, 2, 0 against Black, cat, ate, the, mouse:
    // softmax e^3 / (e^3 + e^2 + 3) on "cat", e^2 / (...) on "the"; the argmax keeps "cat" and
    // drops (e^2 + 3) / (...). "a" (query 4) = EAT + PAST scores 3 with "ate" alone.
    void softBesideHardAndTheDroppedMass()
    {
        const core::Scene scene = example();
        QCustomPlot plot;
        plot.resize(1000, 700);
        plot.setViewport(plot.rect());
        ui::buildConceptFigure(plot, ui::ConceptView::Hard,
                               {std::make_shared<const core::Scene>(scene),
                                core::CpuBackend().compute(core::resolveProblem(scene), {}), 0, 0},
                               ui::FigureSpec{});
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const double e2 = std::exp(2.0), e3 = std::exp(3.0), sum = e3 + e2 + 3.0;
        const auto maps = test::colorMaps(plot);
        QCOMPARE(maps.size(), std::size_t(2));
        QVERIFY(std::abs(maps[0]->data()->cell(1, 0) - e3 / sum) < 1e-6);
        QVERIFY(std::abs(maps[0]->data()->cell(3, 0) - e2 / sum) < 1e-6);
        QVERIFY(std::abs(maps[0]->data()->cell(2, 3) - e3 / (e3 + 4.0)) < 1e-6);
        for (int k = 0; k < 5; ++k)
            QCOMPARE(maps[1]->data()->cell(k, 0), k == 1 ? 1.0 : 0.0);
        QCPBars* bars = nullptr;
        for (int i = 0; i < plot.plottableCount(); ++i)
            if (auto* b = qobject_cast<QCPBars*>(plot.plottable(i)))
                bars = b;
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), 7); // the seven French words
        QVERIFY(std::abs(bars->data()->at(0)->value - (e2 + 3.0) / sum) < 1e-6);
        QVERIFY(std::abs(bars->data()->at(3)->value - 4.0 / (e3 + 4.0)) < 1e-6);
        const QString text = footnote(plot);
        QVERIFY2(text.contains(QStringLiteral("“Le” puts 0.66 on “cat” and 0.24 on “the”; the "
                                              "argmax keeps “cat” alone and drops 0.34")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("surrogate")), qPrintable(text));
    }

    void tabOpensFromTheExampleAndExports()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.resize(1024, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setScene(example(), QString());
        QTRY_VERIFY(window.isUpToDate() && window.document()->result());
        QCOMPARE(window.viewTabs()->currentWidget(), window.hardPage());
        QTRY_VERIFY2(window.hardPage()->message().isEmpty(),
                     qPrintable(window.hardPage()->message()));
        QTRY_COMPARE(test::colorMaps(*window.hardPage()->plot()).size(), std::size_t(2));
        const ui::ExportSource source = window.exportSource();
        QVERIFY(source.drawConcept);
        const ui::ExportSettings settings = ui::windowExportSettings(source);
        QVERIFY(
            ui::exportFigureBytes(source, settings, ui::FigureFormat::Png).startsWith("\x89PNG"));
        QVERIFY(ui::exportFigureBytes(source, settings, ui::FigureFormat::Pdf).startsWith("%PDF-"));
        window.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestHardView)
#include "tst_hard_view.moc"
