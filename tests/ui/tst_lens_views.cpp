// The model window's Logit lens, Patching and Attribution tabs (ui/model/lens_view.h,
// patching_view.h, attribution_view.h) on the tiny GPT-2 checkpoint, against what
// lens_reference.py computed in float64 NumPy (lens_expected.json): the figures' numbers, the
// prediction panel's trace, patching off the UI thread with its errors in the message bar and
// Cancel, a click on a head opening it, and the export of each.

#include "core/cpu_backend.h"
#include "core/model/forward.h"
#include "support/lens_fixtures.h"
#include "ui/model/attribution_view.h"
#include "ui/model/lens_tabs.h"
#include "ui/model/lens_view.h"
#include "ui/model/matrix_panels_view.h"
#include "ui/model/model_document.h"
#include "ui/model/model_window.h"
#include "ui/model/patching_view.h"
#include "ui/widgets/message_bar.h"

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace attn;

namespace {

const QString kClean = QStringLiteral("The cat sat on the");
const QString kCorrupt = QStringLiteral("The dog sat on the");

std::shared_ptr<const core::Model> gpt2()
{
    static const auto model = test::loadFixture(QStringLiteral("gpt2"));
    return model;
}

std::shared_ptr<const core::ModelResult> runOf(const std::shared_ptr<const core::Model>& model,
                                               const QString& text)
{
    core::CpuBackend backend;
    return core::runModel(model, core::modelTokens(*model, text), {}, backend);
}

ui::LensView::BackendMaker cpu()
{
    return [] { return std::make_unique<core::CpuBackend>(); };
}

// The centre of cell (row, column) of `panel` as last painted.
QPoint cellCentre(const ui::MatrixPanelsView& view, int panel, int row, int column)
{
    const auto& g = view.geometry();
    if (g.cells.size() <= std::size_t(panel))
        return {-1, -1}; // not painted
    const QRectF block = g.cells[std::size_t(panel)];
    return QPointF(block.left() + (column + 0.5) * block.width() / g.columns[std::size_t(panel)],
                   block.top() + (row + 0.5) * block.height() / g.rows[std::size_t(panel)])
        .toPoint();
}

} // namespace

class TestLensViews : public QObject
{
    Q_OBJECT

private slots:
    // Ecco's rankings: each layer's top token and the rank of the model's own prediction, as
    // the reference computed them; the last layer's lens is the model's output (rank 1).
    void lensFollowsThePrediction()
    {
        ui::LensView view;
        view.resize(900, 500);
        auto* trace = view.createTrace(&view);
        QSignalSpy computed(&view, &ui::LensView::computed);
        view.setSource(runOf(gpt2(), kClean), cpu());
        view.show(); // computed while shown
        QVERIFY(computed.wait(5000));
        const auto lens = view.lens();
        QVERIFY(lens);
        const QJsonArray layers =
            test::lensExpected()[QStringLiteral("lens")][QStringLiteral("layers")].toArray();
        QCOMPARE(lens->layerCount(), 2);
        const auto& panels = view.panels()->panels();
        QCOMPARE(int(panels.size()), 2);
        QCOMPARE(panels[0].matrix.rows(), 2);
        QCOMPARE(panels[0].matrix.cols(), 5);
        for (int l = 0; l < 2; ++l)
            for (int i = 0; i < 5; ++i) {
                QCOMPARE(lens->top[std::size_t(l)][std::size_t(i)].front().id,
                         layers[l][QStringLiteral("top")][i].toInt());
                QCOMPARE(panels[1].cellText[l * 5 + i],
                         QString::number(layers[l][QStringLiteral("rank")][i].toInt()));
            }
        // The trace: the prediction at the last position, rank 154 after layer 1, 1 after 2.
        QVERIFY(trace->isVisibleTo(&view));
        QCOMPARE(trace->ranks(), (std::vector<int>{154, 1}));
        QVERIFY(std::abs(trace->probabilities()[1] - 0.06090738906473636f) < 1e-5f);
        QCOMPARE(trace->caption(), QStringLiteral("Rank of “a” after each layer: 1 from layer 2"));
    }

    // A token typed is followed instead; one that is two tokens is refused with the reason,
    // and the lens shown stays.
    void lensFollowsATypedToken()
    {
        ui::LensView view;
        view.resize(900, 500);
        view.show();
        QSignalSpy computed(&view, &ui::LensView::computed);
        QSignalSpy errors(&view, &ui::LensView::errorShown);
        view.setSource(runOf(gpt2(), kClean), cpu());
        view.compute(); // without the pause in typing
        QVERIFY(computed.wait(5000));
        view.tokenEdit()->setText(QStringLiteral(" cat sat"));
        view.compute();
        QCOMPARE(errors.count(), 1);
        QCOMPARE(errors.front().front().toString(),
                 QStringLiteral("The token “ cat sat” is 2 tokens of the vocabulary (' cat', "
                                "' sat'), not one; write one token, with its leading space where "
                                "the vocabulary has one"));
        QVERIFY(view.lens()); // the earlier lens is kept
        view.tokenEdit()->setText(QStringLiteral(" cat"));
        view.compute();
        QVERIFY(computed.wait(5000));
        QCOMPARE(view.lens()->followed, (std::vector<int>{297, 297, 297, 297, 297}));
        QVERIFY(view.panels()->panels()[1].title.contains(QStringLiteral("cat")));
    }

    // A run per key typed: the lens, and the backend each job makes (a device for Vulkan),
    // wait for a pause; one lens, of the last run.
    void lensWaitsForAPauseInTyping()
    {
        ui::LensView view;
        view.resize(900, 500);
        view.show();
        QSignalSpy computed(&view, &ui::LensView::computed);
        int backends = 0;
        const auto counted = [&backends] {
            ++backends;
            return std::make_unique<core::CpuBackend>();
        };
        view.setSource(runOf(gpt2(), QStringLiteral("The")), counted);
        view.setSource(runOf(gpt2(), QStringLiteral("The cat")), counted);
        view.setSource(runOf(gpt2(), QStringLiteral("The cat sat")), counted);
        QVERIFY(view.isComputing());
        QVERIFY(computed.wait(5000));
        QCOMPARE(backends, 1);
        QCOMPARE(view.lens()->followed.size(), std::size_t(3));
    }

    // A run that arrives while the tab is hidden gets its lens when the tab is shown again,
    // even with the earlier run's lens still on its way.
    void lensOfTheRunShownAfterHiding()
    {
        ui::LensView view;
        view.resize(900, 500);
        view.show();
        view.setSource(runOf(gpt2(), kClean), cpu());
        view.compute(); // without waiting for a pause in typing
        QVERIFY(view.isComputing());
        view.hide();
        const auto shorter = runOf(gpt2(), QStringLiteral("The cat sat"));
        view.setSource(shorter, cpu());
        view.show();
        QTRY_VERIFY_WITH_TIMEOUT(view.lens().has_value(), 5000);
        QCOMPARE(view.lens()->followed.size(), std::size_t(3));
        QCOMPARE(view.panels()->panels().front().matrix.cols(), 3);
    }

    // The sweep gives the reference's fractions; a click on a head's cell asks for that head.
    void patchingRestoresAsTheReference()
    {
        ui::PatchingView view;
        view.resize(1000, 700);
        view.show();
        view.setSource(runOf(gpt2(), kClean), cpu(), kClean);
        QCOMPARE(view.cleanEdit()->text(), kClean); // the sentence by default
        view.corruptEdit()->setText(kCorrupt);
        view.metricEdit()->setText(QStringLiteral(" cat, dog"));
        QSignalSpy ended(&view, &ui::PatchingView::ended);
        QTest::mouseClick(view.runButton(), Qt::LeftButton);
        QVERIFY(view.isRunning());
        QVERIFY(!view.runButton()->isEnabled());
        QVERIFY(ended.wait(10000));
        QVERIFY(!view.isRunning());
        QVERIFY(view.patching());
        const QJsonObject expected = test::lensExpected()[QStringLiteral("patching")].toObject();
        const double clean = expected[QStringLiteral("clean")].toDouble();
        const double corrupt = expected[QStringLiteral("corrupt")].toDouble();
        const auto& panels = view.panels()->panels();
        QCOMPARE(int(panels.size()), 2);
        const char* keys[] = {"heads", "positions"};
        for (int k = 0; k < 2; ++k) {
            const QJsonArray want = expected[QLatin1String(keys[k])].toArray();
            QCOMPARE(panels[std::size_t(k)].matrix.rows(), 2);
            QCOMPARE(panels[std::size_t(k)].matrix.cols(), want[0].toArray().size());
            for (int l = 0; l < 2; ++l)
                for (int c = 0; c < want[l].toArray().size(); ++c)
                    QVERIFY(std::abs(panels[std::size_t(k)].matrix(l, c) -
                                     (want[l][c].toDouble() - corrupt) / (clean - corrupt)) < 1e-4);
        }
        QVERIFY(view.noteLabel()->text().startsWith(
            QStringLiteral("logit(“ cat”) − logit(“ dog”): clean 0.936, corrupted 0.580.")));
        QSignalSpy clicked(&view, &ui::PatchingView::headClicked);
        QTest::qWait(0);
        view.panels()->repaint();
        QTest::mouseClick(view.panels(), Qt::LeftButton, {}, cellCentre(*view.panels(), 0, 1, 2));
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.front(), (QList<QVariant>{1, 2}));
        // The positions panel opens no head.
        QTest::mouseClick(view.panels(), Qt::LeftButton, {}, cellCentre(*view.panels(), 1, 0, 0));
        QCOMPARE(clicked.count(), 1);
        // One heatmap alone: the positions', then the heads'.
        view.shownBox()->setCurrentIndex(2);
        QCOMPARE(int(view.panels()->panels().size()), 1);
        QCOMPARE(view.panels()->panels().front().matrix.cols(), 5);
        view.panels()->repaint();
        QTest::mouseClick(view.panels(), Qt::LeftButton, {}, cellCentre(*view.panels(), 0, 0, 0));
        QCOMPARE(clicked.count(), 1);
        view.shownBox()->setCurrentIndex(1);
        QCOMPARE(int(view.panels()->panels().size()), 1);
        QCOMPARE(view.panels()->panels().front().matrix.cols(), 4);
    }

    // Each in the window's message bar, and the view ready again (never a stuck "Computing").
    void patchingRefusesBadInput()
    {
        struct Case
        {
            QString corrupt, metric, message;
        };
        const Case cases[] = {
            {QStringLiteral("The dog"), QStringLiteral(" cat, dog"),
             QStringLiteral("Patching: activation patching needs prompts of the same length in "
                            "tokens: the clean prompt has 5 tokens, the corrupted one 2")},
            {kCorrupt, QStringLiteral(" cat sat, dog"),
             QStringLiteral("Patching: metric token ' cat sat': is 2 tokens of the vocabulary "
                            "(' cat', ' sat'), not one; write one token, with its leading "
                            "space where the vocabulary has one")},
            {kCorrupt, QString(),
             QStringLiteral("Patching needs a metric: \"A, B\" (the logit difference) or \"A\" "
                            "(its probability).")}};
        ui::ModelWindow window(std::make_unique<core::CpuBackend>(), core::BackendChoice::Cpu,
                               QString(), QString());
        window.resize(1024, 768);
        window.show();
        window.setModel(gpt2(), kClean);
        QTRY_VERIFY_WITH_TIMEOUT(window.isUpToDate() && window.document()->result(), 10000);
        ui::PatchingView* view = window.lensTabs()->patching();
        window.viewTabs()->setCurrentWidget(view);
        for (const Case& c : cases) {
            window.messageBar()->clearMessage(QStringLiteral("patching"));
            view->corruptEdit()->setText(c.corrupt);
            view->metricEdit()->setText(c.metric);
            QTest::mouseClick(view->runButton(), Qt::LeftButton);
            QTRY_COMPARE_WITH_TIMEOUT(window.messageBar()->text(), c.message, 10000);
            QCOMPARE(window.messageBar()->level(), ui::MessageBar::Level::Error);
            QTRY_VERIFY(!view->isRunning());
            QVERIFY(view->runButton()->isEnabled());
            QVERIFY(!view->patching());
        }
        // Put right, the next run clears the message.
        view->corruptEdit()->setText(kCorrupt);
        view->metricEdit()->setText(QStringLiteral(" cat, dog"));
        QTest::mouseClick(view->runButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(view->patching().has_value(), 10000);
        QCOMPARE(window.messageBar()->key(), QString());
    }

    // The example fills in Wang et al.'s pair; Cancel right after Run: the result never
    // arrives and the view says so.
    void patchingCancels()
    {
        ui::PatchingView view;
        view.setSource(runOf(gpt2(), kClean), cpu(), kClean);
        QTest::mouseClick(view.exampleButton(), Qt::LeftButton);
        QCOMPARE(view.corruptEdit()->text(),
                 QStringLiteral("When Mary and John went to the store, Mary gave a drink to"));
        QCOMPARE(view.metricEdit()->text(), QStringLiteral(" Mary, John"));
        // The tiny vocabulary spells the example in more than its 32 positions: a shorter pair.
        view.cleanEdit()->setText(kClean);
        view.corruptEdit()->setText(kCorrupt);
        view.metricEdit()->setText(QStringLiteral(" cat"));
        QSignalSpy ended(&view, &ui::PatchingView::ended);
        view.run();
        QVERIFY2(view.isRunning(), qPrintable(view.noteLabel()->text()));
        QTest::mouseClick(view.cancelButton(), Qt::LeftButton);
        QVERIFY(ended.wait(10000));
        QVERIFY(!view.patching());
        QCOMPARE(view.noteLabel()->text(), QStringLiteral("Cancelled."));
        QVERIFY(view.runButton()->isEnabled());
    }

    // Each head's direct share as the reference computed it; the terms add up to the logit.
    void attributionSplitsTheLogit()
    {
        ui::AttributionView view;
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setSource(runOf(gpt2(), kClean));
        const auto attribution = view.attribution();
        QVERIFY(attribution);
        const QJsonObject expected = test::lensExpected()[QStringLiteral("attribution")].toObject();
        QCOMPARE(attribution->token, expected[QStringLiteral("token")].toInt());
        const auto& panel = view.panels()->panels().front();
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 4; ++h)
                QVERIFY(std::abs(panel.matrix(l, h) -
                                 expected[QStringLiteral("heads")][l][h].toDouble()) < 1e-4);
        QVERIFY(view.termsLabel()->text().startsWith(
            QStringLiteral("Logit %1 at position 5 = heads ")
                .arg(expected[QStringLiteral("logit")].toDouble(), 0, 'f', 2)));
        QSignalSpy clicked(&view, &ui::AttributionView::headClicked);
        view.panels()->repaint();
        QTest::mouseClick(view.panels(), Qt::LeftButton, {}, cellCentre(*view.panels(), 0, 0, 3));
        QCOMPARE(clicked.front(), (QList<QVariant>{0, 3}));
        // BERT renormalises after every layer: the figure's place says why there is none.
        view.setSource(
            runOf(test::loadFixture(QStringLiteral("bert")), QStringLiteral("the cat [MASK].")));
        QVERIFY(!view.attribution());
        QVERIFY(view.panels()->message().contains(QStringLiteral("pre-norm")));
    }

    // In the window: a head clicked in Attribution opens in the Weights tab; the three figures
    // export once computed, and not before.
    void windowOpensHeadsAndExports()
    {
        ui::ModelWindow window(std::make_unique<core::CpuBackend>(), core::BackendChoice::Cpu,
                               QString(), QString());
        window.resize(1024, 768);
        window.show();
        window.setModel(gpt2(), kClean);
        QTRY_VERIFY_WITH_TIMEOUT(window.isUpToDate() && window.document()->result(), 10000);
        QTemporaryDir dir;
        const QString lensFile = dir.filePath(QStringLiteral("lens.png"));
        QVERIFY(!window.exportModelFigure(ui::ModelFigure::LogitLens, lensFile));
        QVERIFY(window.messageBar()->text().contains(QStringLiteral("has not been computed")));

        ui::LensTabs* tabs = window.lensTabs();
        QSignalSpy computed(tabs->lens(), &ui::LensView::computed);
        window.viewTabs()->setCurrentWidget(tabs->lens());
        QVERIFY(computed.wait(5000));
        QVERIFY(tabs->lens()->trace()->isVisible()); // under the prediction
        QVERIFY(window.exportModelFigure(ui::ModelFigure::LogitLens, lensFile, QSize(800, 500)));
        QCOMPARE(QImage(lensFile).size(), QSize(800, 500));

        window.viewTabs()->setCurrentWidget(tabs->attribution());
        QVERIFY(tabs->attribution()->attribution());
        ui::MatrixPanelsView* panels = tabs->attribution()->panels();
        panels->repaint();
        QTest::mouseClick(panels, Qt::LeftButton, {}, cellCentre(*panels, 0, 1, 2));
        QCOMPARE(window.document()->selectedLayer(), 1);
        QCOMPARE(window.document()->selectedHead(), 2);
        QCOMPARE(window.viewTabs()->currentIndex(), 0); // the head's weights
        const QString svg = dir.filePath(QStringLiteral("attribution.svg"));
        QVERIFY(window.exportModelFigure(ui::ModelFigure::Attribution, svg));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("direct logit attribution"));

        ui::PatchingView* patching = tabs->patching();
        patching->corruptEdit()->setText(kCorrupt);
        patching->metricEdit()->setText(QStringLiteral(" cat, dog"));
        QSignalSpy ended(patching, &ui::PatchingView::ended);
        patching->run();
        QVERIFY(ended.wait(10000));
        const QString pdf = dir.filePath(QStringLiteral("patching.pdf"));
        QVERIFY(window.exportModelFigure(ui::ModelFigure::Patching, pdf));
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(5) == "%PDF-");
        window.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestLensViews)
#include "tst_lens_views.moc"
