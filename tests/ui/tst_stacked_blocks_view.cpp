// The Stacked blocks tab (seed 001) on example 25: one row of panels per block whose numbers
// are core's forwardLayers, the first panel of block 2 the last of block 1; the layer chooser
// above the heatmaps computes the chosen block's heads; the weights editor edits every block;
// the number of blocks is an undo step.

#include "ui/concepts/concept_figures.h"
#include "ui/concepts/concept_pages.h"
#include "ui/concepts/layers_figure.h"
#include "ui/concepts/train_figure.h"
#include "ui/concepts/train_page.h"
#include "ui/document/scene_document.h"
#include "ui/explorer/explorer_window.h"
#include "ui/export/export_dialog.h"

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene.h"
#include "core/scene_json.h"
#include "core/scene_layers.h"
#include "core/training/stacked_training.h"

#include "support/plot_data.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QUndoStack>

using namespace attn;

namespace {

core::Scene example()
{
    return core::loadScene(QStringLiteral(ATTN_RESOURCES_DIR "/examples/25-stacked-blocks.json"));
}

// The cells of a colour map, row r (token) and column c (dimension) as drawn.
core::Matrix cellsOf(QCPColorMap* map)
{
    const int columns = map->data()->keySize();
    const int rows = map->data()->valueSize();
    core::Matrix m(rows, columns);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c)
            m(r, c) = float(map->data()->cell(c, r));
    return m;
}

} // namespace

class TestStackedBlocksView : public QObject
{
    Q_OBJECT

private slots:
    void everyStepOfEveryBlock()
    {
        const core::Scene scene = example();
        QCustomPlot plot;
        plot.resize(1000, 700);
        plot.setViewport(plot.rect());
        ui::buildConceptFigure(plot, ui::ConceptView::Layers,
                               {std::make_shared<const core::Scene>(scene), nullptr, 0, 0},
                               ui::FigureSpec{});
        plot.replot(QCustomPlot::rpImmediateRefresh);
        const auto maps = test::colorMaps(plot);
        QCOMPARE(maps.size(), std::size_t(14)); // 2 blocks x (X, attention, +X, H, FFN, +H, Y)
        core::CpuBackend backend;
        const auto blocks = core::forwardLayers(scene, backend);
        const core::Matrix* expected[] = {&blocks[0].attention->queryInput(),
                                          &blocks[0].attention->output,
                                          &blocks[0].residual,
                                          &blocks[0].normed,
                                          &blocks[0].feedForward,
                                          &blocks[0].feedForwardResidual,
                                          &blocks[0].output};
        for (int c = 0; c < 7; ++c) {
            const core::Matrix drawn = cellsOf(maps[std::size_t(c)]);
            QCOMPARE(drawn.rows(), 6); // the six tokens in every panel
            QCOMPARE(drawn.cols(), 8); // d_model
            QVERIFY2((drawn - *expected[c]).cwiseAbs().maxCoeff() < 1e-6f,
                     qPrintable(QString::number(c)));
        }
        // Block 2's X is block 1's Y: the same cells.
        QCOMPARE(cellsOf(maps[7]), cellsOf(maps[6]));
        // Each Y row is normalised: mean 0, variance 1 (up to eps).
        const core::Matrix y = cellsOf(maps[13]);
        for (int r = 0; r < y.rows(); ++r) {
            QVERIFY(std::abs(y.row(r).mean()) < 1e-5f);
            QVERIFY(std::abs(y.row(r).squaredNorm() / 8.0f - 1.0f) < 1e-3f);
        }
    }

    void oneLayerSaysHowToStack()
    {
        QCustomPlot plot;
        const auto scene = std::make_shared<const core::Scene>(
            core::makeScene(QStringLiteral("this is a cat"), 8, 1, 1));
        try {
            ui::buildLayersFigure(plot, {scene, nullptr, 0, 0}, ui::FigureSpec{});
            QFAIL("drawn");
        } catch (const core::Error& error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(QStringLiteral("Choose 2 blocks")),
                     error.what());
        }
    }

    void blockCountIsAnUndoStep()
    {
        ui::SceneDocument document;
        document.reset(core::makeScene(QStringLiteral("a b c"), 4, 2, 1), QString());
        document.setLayerCount(3);
        QCOMPARE(core::layerCount(document.scene()), 3);
        QCOMPARE(document.scene().layers[2].W1.rows(), 4);
        core::ViewSettings view = document.scene().view;
        view.layer = 2;
        document.setView(view);
        document.setLayerCount(2); // the layer shown goes with its block
        QCOMPARE(document.scene().view.layer, 1);
        document.undoStack()->undo();
        document.undoStack()->undo();
        QVERIFY(document.scene().layers.empty());
        // Block 2's feed-forward and attention in the weights editor's terms.
        document.undoStack()->redo();
        ui::WeightRef w1{ui::WeightKind::W1, 0, 1};
        QCOMPARE(ui::weightView(document.scene(), w1).matrix.rows(), 4);
        QCOMPARE(ui::weightView(document.scene(), w1).matrix.cols(), 8);
        document.setWeightMatrix(w1, core::Matrix::Zero(4, 8));
        QVERIFY(document.scene().layers[1].W1.isZero(0.0f));
        const ui::WeightRef wq{ui::WeightKind::Wq, 1, 1};
        document.setWeightMatrix(wq, core::Matrix::Identity(4, 2));
        QCOMPARE(core::layerAttention(document.scene(), 1).heads[1].Wq,
                 core::Matrix(core::Matrix::Identity(4, 2)));
        QVERIFY(document.scene().weights.heads[1].Wq != core::Matrix(core::Matrix::Identity(4, 2)));
        QCOMPARE(ui::weightTitle(wq), QStringLiteral("W^q · head 2 · layer 2"));
        // One attention layer has no feed-forward weights.
        document.setLayerCount(0);
        try {
            ui::weightView(document.scene(), w1);
            QFAIL("shown");
        } catch (const core::Error& error) {
            QVERIFY(QString::fromUtf8(error.what()).contains(QStringLiteral("stacked blocks")));
        }
    }

    // The Train tab on stacked blocks: every block trains on the induction task (the same
    // run as tst_stacked_training's: 32 sequences, 100 steps at 0.02, two blocks reach 1.0),
    // and Apply puts every block's weights into the scene as one undo step.
    void trainTabTrainsEveryBlock()
    {
        ui::SceneDocument document;
        core::Scene scene = core::makeScene(QStringLiteral("a b c d e a b c"), 16, 1, 1);
        scene.tokenizer.mode = core::TokenizerMode::Word;
        core::setLayerCount(scene, 2);
        document.reset(scene, QString());
        ui::TrainPage page(document);
        page.resize(1000, 700);
        page.setSource({std::make_shared<const core::Scene>(scene), nullptr, 0, 0});
        page.findChild<QDoubleSpinBox*>(QStringLiteral("trainLearningRate"))->setValue(0.02);
        page.stepsSpin()->setValue(100);
        page.runButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 20000);
        QVERIFY(page.stackedTrainer());
        QCOMPARE(page.stackedTrainer()->stepCount(), 100);
        QVERIFY2(page.stackedTrainer()->accuracy() >= 0.95,
                 qPrintable(QString::number(page.stackedTrainer()->accuracy())));
        QCustomPlot plot;
        plot.resize(1000, 700);
        plot.setViewport(plot.rect());
        page.draw(plot, ui::FigureSpec{});
        bool titled = false;
        for (int i = 0; i < plot.plotLayout()->elementCount(); ++i)
            if (auto* text = qobject_cast<QCPTextElement*>(plot.plotLayout()->elementAt(i)))
                titled = titled || text->text().contains(QStringLiteral("induction"));
        QVERIFY(titled);
        const core::Scene trained = page.stackedTrainer()->trainedScene();
        const int before = document.undoStack()->count();
        page.applyButton()->click();
        QCOMPARE(document.undoStack()->count(), before + 1);
        QVERIFY(document.scene().layers == trained.layers);
        QVERIFY(document.scene().weights == trained.weights);
        document.undoStack()->undo();
        QVERIFY(document.scene().layers == scene.layers);
    }

    void windowOpensOnTheBlocksAndShowsEitherLayer()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.resize(1024, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const core::Scene scene = example();
        window.setScene(scene, QString());
        QTRY_VERIFY(window.isUpToDate() && window.document()->result());
        auto* page = qobject_cast<ui::ConceptPage*>(window.viewTabs()->currentWidget());
        QVERIFY(page);
        QCOMPARE(page->view(), ui::ConceptView::Layers);
        QTRY_VERIFY2(page->message().isEmpty(), qPrintable(page->message()));
        QTRY_COMPARE(test::colorMaps(*page->plot()).size(), std::size_t(14));
        const ui::ExportSource source = window.exportSource();
        QVERIFY(source.drawConcept);
        const ui::ExportSettings settings = ui::windowExportSettings(source);
        for (const auto& [format, magic] : {std::pair{ui::FigureFormat::Png, QByteArray("\x89PNG")},
                                            std::pair{ui::FigureFormat::Svg, QByteArray("<?xml")},
                                            std::pair{ui::FigureFormat::Pdf, QByteArray("%PDF-")}})
            QVERIFY(ui::exportFigureBytes(source, settings, format).startsWith(magic));

        // Layer 2 above the heatmaps: the heads computed on block 1's output.
        auto* layers = window.findChild<QComboBox*>(QStringLiteral("layerCombo"));
        QVERIFY(layers && layers->isVisibleTo(&window));
        QCOMPARE(layers->count(), 2);
        core::CpuBackend backend;
        const auto blocks = core::forwardLayers(scene, backend);
        QCOMPARE(window.document()->result()->heads[0].weights,
                 blocks[0].attention->heads[0].weights);
        layers->setCurrentIndex(1);
        emit layers->activated(1);
        QCOMPARE(window.document()->scene().view.layer, 1);
        QTRY_VERIFY(window.isUpToDate() &&
                    window.document()->result()->queryInput() == blocks[0].output);
        QCOMPARE(window.document()->result()->heads[1].weights,
                 blocks[1].attention->heads[1].weights);
        auto* weightLayers = window.findChild<QComboBox*>(QStringLiteral("weightLayerCombo"));
        QVERIFY(weightLayers);
        QCOMPARE(weightLayers->count(), 2);
        window.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestStackedBlocksView)
#include "tst_stacked_blocks_view.moc"
