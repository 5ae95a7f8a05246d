// The Context tab (seed 000) on example 24: "bank"'s input rows equal in both sentences, its
// output rows not, the figure's sentence, the tab opened from the example and exported.

#include "ui/concepts/concept_figures.h"
#include "ui/concepts/context_page.h"
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
        QStringLiteral(ATTN_RESOURCES_DIR "/examples/24-context-sensitive-word.json"));
}

} // namespace

class TestContextView : public QObject
{
    Q_OBJECT

private slots:
    void sameInputTwoOutputs()
    {
        const core::Scene scene = example();
        QCustomPlot plot;
        plot.resize(1000, 600);
        plot.setViewport(plot.rect());
        ui::buildConceptFigure(plot, ui::ConceptView::Context,
                               {std::make_shared<const core::Scene>(scene), nullptr, 0, 0},
                               ui::FigureSpec{});
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const auto maps = test::colorMaps(plot);
        QCOMPARE(maps.size(), std::size_t(2));
        double outputs = 0.0;
        for (int c = 0; c < 8; ++c) {
            QCOMPARE(maps[0]->data()->cell(c, 0), maps[0]->data()->cell(c, 1));
            outputs = std::max(outputs,
                               std::abs(maps[1]->data()->cell(c, 0) - maps[1]->data()->cell(c, 1)));
        }
        QVERIFY(outputs > 0.01);
        QString text;
        for (int i = 0; i < plot.plotLayout()->elementCount(); ++i)
            if (auto* e = qobject_cast<QCPTextElement*>(plot.plotLayout()->elementAt(i)))
                text += e->text().replace(QLatin1Char('\n'), QLatin1Char(' ')) + QLatin1Char(' ');
        QVERIFY2(text.contains(QStringLiteral("The input is the same in both (largest "
                                              "difference 0)")),
                 qPrintable(text));

        // A view without its word and sentence says what it needs.
        core::Scene bare = scene;
        bare.view.view = QStringLiteral("context");
        const ui::ConceptSource source{std::make_shared<const core::Scene>(bare), nullptr, 0, 0};
        const ui::FigureSpec spec;
        QVERIFY_THROWS_EXCEPTION(
            core::Error, ui::buildConceptFigure(plot, ui::ConceptView::Context, source, spec));
    }

    void tabOpensFromTheExampleAndExports()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.resize(1024, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setScene(example(), QString());
        QTRY_VERIFY(window.isUpToDate() && window.document()->result());
        QCOMPARE(window.viewTabs()->currentWidget(), window.contextPage());
        QTRY_COMPARE(test::colorMaps(*window.contextPage()->plot()).size(), std::size_t(2));
        QVERIFY(window.contextPage()->message().isEmpty());
        // Another tab and back keeps the word and the sentence.
        window.viewTabs()->setCurrentIndex(0);
        window.viewTabs()->setCurrentWidget(window.contextPage());
        QCOMPARE(window.document()->scene().view.view,
                 QStringLiteral("context:bank:the bank approved the loan"));
        const ui::ExportSource source = window.exportSource();
        QVERIFY(source.drawConcept);
        QVERIFY(
            ui::exportFigureBytes(source, ui::windowExportSettings(source), ui::FigureFormat::Png)
                .startsWith("\x89PNG"));
        window.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestContextView)
#include "tst_context_view.moc"
