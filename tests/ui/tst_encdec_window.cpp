// The model window's Translate tab (EncDecView) on the tiny Marian checkpoint
// tests/data/models/marian: greedy translation off the UI thread word by word, Step and Back,
// the three kinds of heads, the alignment (target words x source words), heads off and head
// edits on every kind, beam search, Stop and the figure files.

#include "core/cpu_backend.h"
#include "core/model/encoder_decoder.h"
#include "core/model/model_loader.h"
#include "support/model_fixtures.h"
#include "ui/model/encdec_view.h"
#include "ui/model/gallery_view.h"
#include "ui/model/head_grid_view.h"
#include "ui/model/matrix_panels_view.h"
#include "ui/model/model_head_panel.h"
#include "ui/model/model_window.h"
#include "ui/views/heatmap_view.h"
#include "ui/widgets/matrix_editor.h"
#include "ui/widgets/message_bar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <cmath>
#include <cstring>

using namespace attn;
using ui::EncDecView;

namespace {

std::shared_ptr<const core::Model> marian()
{
    static const std::shared_ptr<const core::Model> model =
        core::loadModel(test::modelFixture(QStringLiteral("marian")));
    return model;
}

// "Hi cat" as the reference tokenized it (expected_seq2seq.json): seven source tokens, and
// its greedy translation eight 36s.
std::shared_ptr<const core::ModelResult> opened()
{
    core::CpuBackend backend;
    return core::runModel(marian(), core::decoderTokens(*marian(), {41, 74, 222, 68, 66, 85, 0}),
                          {}, backend);
}

EncDecView::BackendMaker cpu()
{
    return [] { return std::make_unique<core::CpuBackend>(); };
}

void translate(EncDecView& view, int words)
{
    view.findChild<QSpinBox*>(QStringLiteral("maxLengthSpin"))->setValue(words);
    QSignalSpy done(&view, &EncDecView::translationDone);
    view.findChild<QPushButton*>(QStringLiteral("translateButton"))->click();
    QVERIFY(view.isRunning());
    QVERIFY(done.wait(5000));
    QVERIFY(!view.isRunning());
}

// The model window with `model` open on "Hi cat", its first run shown.
std::unique_ptr<ui::ModelWindow> openWindow(QSize size, std::shared_ptr<const core::Model> model)
{
    auto window = std::make_unique<ui::ModelWindow>(std::make_unique<core::CpuBackend>(),
                                                    core::BackendChoice::Cpu, QString(), QString());
    window->resize(size);
    window->show();
    window->fitPanels();
    window->setModel(std::move(model), QStringLiteral("Hi cat"));
    for (int tries = 0; tries < 250 && (!window->isUpToDate() || !window->document()->result());
         ++tries)
        QTest::qWait(20);
    if (!window->document()->result())
        qWarning() << window->gridView()->message();
    return window->document()->result() ? std::move(window) : nullptr;
}

// The tiny Marian checkpoint open on "Hi cat".
std::unique_ptr<ui::ModelWindow> marianWindow(QSize size)
{
    return openWindow(size, marian());
}

// The tiny Marian checkpoint with a third encoder layer (a copy of its second), as distilbart-12-6
// has more encoder than decoder layers: 3 encoder layers of 2 heads, 2 decoder layers of 4.
std::shared_ptr<const core::Model> deepEncoder()
{
    auto model = std::make_shared<core::Model>(*marian());
    model->weights.encoderLayers.push_back(model->weights.encoderLayers.back());
    model->weights.config.encoderLayers = 3;
    return model;
}

// Waits until the window shows the run of what it holds now.
bool settled(ui::ModelWindow& window)
{
    for (int tries = 0; tries < 100 && !window.isUpToDate(); ++tries)
        QTest::qWait(20);
    QCoreApplication::processEvents();
    return window.isUpToDate();
}

} // namespace

class TestEncDecWindow : public QObject
{
    Q_OBJECT

private slots:
    void noteWithoutModel();
    void translatesWordByWord();
    void stepsBackAndForward();
    void threeGrids();
    void encoderHeadOffChangesTheTranslation();
    void stopLeavesNoComputing();
    void editsOnEncoderAndCrossHeads();
    void beamsShowTheChosenTranslation();
    void translationTooBigForMemoryIsRefused();
    void figureFiles();
    void galleryOpensOrDownloads();
    void modelGridShowsEncoderHeads();
    void modelGridShowsTheTranslation();
    void modelGridEditsTheKindShown();
    void translateTabFitsAProjector();
    void selectsEncoderLayersBeyondTheDecoders();
    void headDockSwitchesTheEncoderHeadOff();
    void decoderHeadOffIsOneState();
    void everyKindIsOneUndoStep();
    void scenesKeepEveryKind();

    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_encdec_window"));
    }
};

void TestEncDecWindow::noteWithoutModel()
{
    EncDecView view;
    QVERIFY(!view.findChild<QPushButton*>(QStringLiteral("translateButton"))->isEnabled());
    QCOMPARE(view.grid()->message(), QStringLiteral("No encoder-decoder model open"));
    view.translate(); // nothing to translate: no job, no crash
    QVERIFY(!view.isRunning());
}

void TestEncDecWindow::translatesWordByWord()
{
    EncDecView view;
    view.setSource(opened(), cpu());
    // The checkpoint's max_length 32 counts the decoder start token: 31 words by default.
    QCOMPARE(view.findChild<QSpinBox*>(QStringLiteral("maxLengthSpin"))->value(), 31);
    translate(view, 4);
    QCOMPARE(view.stepCount(), 4);
    QCOMPARE(view.shownSteps(), 4);
    // Its generation_config.json bans the pad token and forces the end token 0 at the limit,
    // where the model alone writes a fourth 36.
    QCOMPARE(view.shownStep()->id, 0);
    view.findChild<QPushButton*>(QStringLiteral("stepBackButton"))->click();
    QCOMPARE(view.shownStep()->id, 36);
    view.findChild<QPushButton*>(QStringLiteral("stepForwardButton"))->click();
    QCOMPARE(view.status(),
             QStringLiteral("Done: the end token, forced at the length limit (4 words). As the "
                            "checkpoint's generation settings say: <pad> banned; the end token "
                            "forced at the last word allowed."));
    // The alignment: one row per word written, one column per source token, rows sum to 1.
    const auto panels = view.panels();
    QCOMPARE(panels.size(), std::size_t(1));
    QCOMPARE(panels[0].matrix.rows(), Eigen::Index(4));
    QCOMPARE(panels[0].matrix.cols(), Eigen::Index(7));
    QCOMPARE(panels[0].rowLabels.size(), 4);
    QCOMPARE(panels[0].columnLabels.size(), 7);
    QCOMPARE(panels[0].title, QStringLiteral("Layer 1, mean of the heads"));
    for (Eigen::Index i = 0; i < 4; ++i)
        QVERIFY(std::abs(panels[0].matrix.row(i).sum() - 1.0f) < 1e-5f);
}

void TestEncDecWindow::stepsBackAndForward()
{
    EncDecView view;
    view.setSource(opened(), cpu());
    translate(view, 3);
    auto* back = view.findChild<QPushButton*>(QStringLiteral("stepBackButton"));
    auto* step = view.findChild<QPushButton*>(QStringLiteral("stepForwardButton"));
    QVERIFY(!step->isEnabled());
    back->click();
    back->click();
    QCOMPARE(view.shownSteps(), 1);
    QVERIFY(!back->isEnabled());
    // Word 1 read the start token alone: one cross-attention row.
    view.setLayerAndHead(1, 2);
    QCOMPARE(view.panels()[0].matrix.rows(), Eigen::Index(1));
    QCOMPARE(view.panels()[0].title, QStringLiteral("Layer 2, head 3"));
    step->click();
    QCOMPARE(view.shownSteps(), 2);
    QCOMPARE(view.panels()[0].matrix.rows(), Eigen::Index(2));
}

void TestEncDecWindow::threeGrids()
{
    EncDecView view;
    view.resize(1024, 700);
    view.setSource(opened(), cpu());
    // Before a translation the encoder's grid is there; the decoder's wait for a word.
    view.setKind(EncDecView::Kind::Encoder);
    QCOMPARE(view.grid()->result()->layerCount(), 2);
    QCOMPARE(int(view.grid()->result()->layers[0]->heads.size()), 2);
    QCOMPARE(view.panels()[0].matrix.rows(), Eigen::Index(7));
    view.setKind(EncDecView::Kind::Decoder);
    QCOMPARE(view.grid()->message(), QStringLiteral("Translate to see the decoder's heads"));
    translate(view, 3);
    // Word 3 read the start token and two words: 3 x 3 causal weights, 4 heads.
    QCOMPARE(int(view.grid()->result()->layers[0]->heads.size()), 4);
    const core::Matrix causal = view.panels()[0].matrix;
    QCOMPARE(causal.rows(), Eigen::Index(3));
    QCOMPARE(causal(0, 1), 0.0f);
    QCOMPARE(causal(1, 2), 0.0f);
    QVERIFY(view.grid()->geometry().keyTokens.isEmpty()); // keys: the target so far
    view.setKind(EncDecView::Kind::Cross);
    QCOMPARE(view.panels()[0].matrix.cols(), Eigen::Index(7));
    // Under the cross-attention heads, the source's seven tokens name the keys.
    QCOMPARE(view.grid()->geometry().keyTokens.size(), 7);
    QCOMPARE(view.grid()->geometry().tokens.size(), 3);
    // A head picked in the grid is the one beside it.
    emit view.grid()->headSelected(1, 3);
    QCOMPARE(view.panels()[0].title, QStringLiteral("Layer 2, head 4"));
}

void TestEncDecWindow::encoderHeadOffChangesTheTranslation()
{
    EncDecView view;
    view.setSource(opened(), cpu());
    translate(view, 2);
    const float before = view.shownStep()->probability;
    const core::Matrix alignment = view.panels()[0].matrix;
    // Switched off in the encoder's grid: the translation runs again with it off.
    view.setKind(EncDecView::Kind::Encoder);
    QSignalSpy done(&view, &EncDecView::translationDone);
    emit view.grid()->headToggled(0, 0, true);
    QVERIFY(done.wait(5000));
    QCOMPARE(view.interventions().encoder.headsOff, (std::set<std::pair<int, int>>{{0, 0}}));
    QVERIFY(view.interventions().cross.empty());
    QCOMPARE(view.grid()->options().headsOff, (std::set<std::pair<int, int>>{{0, 0}}));
    QCOMPARE(view.stepCount(), 2);
    QVERIFY(std::abs(view.shownStep()->probability - before) > 1e-5f);
    view.setKind(EncDecView::Kind::Cross);
    QVERIFY(test::maxDifference(view.panels()[0].matrix, alignment) > 1e-6);
    // A cross-attention head off too, then both back on: the first translation again.
    emit view.grid()->headToggled(0, 1, true);
    QVERIFY(done.wait(5000));
    QCOMPARE(view.interventions().cross.headsOff, (std::set<std::pair<int, int>>{{0, 1}}));
    view.setHeadOff(EncDecView::Kind::Cross, 0, 1, false);
    QVERIFY(done.wait(5000));
    view.setHeadOff(EncDecView::Kind::Encoder, 0, 0, false);
    QVERIFY(done.wait(5000));
    QVERIFY(view.interventions().empty());
    QCOMPARE(view.shownStep()->probability, before);
}

void TestEncDecWindow::stopLeavesNoComputing()
{
    EncDecView view;
    view.setSource(opened(), cpu());
    view.findChild<QSpinBox*>(QStringLiteral("maxLengthSpin"))->setValue(500);
    QSignalSpy done(&view, &EncDecView::translationDone);
    view.translate();
    QVERIFY(view.findChild<QPushButton*>(QStringLiteral("stopTranslationButton"))->isEnabled());
    view.stop();
    QVERIFY(done.wait(5000));
    QVERIFY(!view.isRunning());
    QVERIFY(view.status().startsWith(QStringLiteral("Stopped at word")) ||
            view.status().startsWith(QStringLiteral("Done")));
    QVERIFY(!view.status().contains(QStringLiteral("Translating")));
    QVERIFY(view.findChild<QPushButton*>(QStringLiteral("translateButton"))->isEnabled());
}

void TestEncDecWindow::editsOnEncoderAndCrossHeads()
{
    EncDecView view;
    view.setSource(opened(), cpu());
    translate(view, 2);
    const float before = view.shownStep()->probability;
    QSignalSpy done(&view, &EncDecView::translationDone);
    auto* temperature = view.findChild<QDoubleSpinBox*>(QStringLiteral("encdecTemperatureSpin"));
    auto* scale = view.findChild<QDoubleSpinBox*>(QStringLiteral("encdecValueScaleSpin"));
    auto* headOn = view.findChild<QCheckBox*>(QStringLiteral("encdecHeadOnCheck"));
    // The mean of the heads is no head: only the layer's temperature applies to it.
    QVERIFY(!scale->isEnabled());
    QVERIFY(!headOn->isEnabled());
    view.setKind(EncDecView::Kind::Cross);
    view.setLayerAndHead(0, 1);
    QVERIFY(scale->isEnabled());
    temperature->setValue(2.0);
    QVERIFY(done.wait(5000));
    QCOMPARE(view.interventions().cross.layers.at(0).temperature, std::optional<float>(2.0f));
    QVERIFY(std::abs(view.shownStep()->probability - before) > 1e-6f);
    // Each kind has its own: the encoder's layer 1 is the checkpoint's.
    view.setKind(EncDecView::Kind::Encoder);
    QCOMPARE(temperature->value(), 1.0);
    view.setLayerAndHead(1, 0);
    scale->setValue(0.5);
    QVERIFY(done.wait(5000));
    const core::Matrix& wv = marian()->weights.encoderLayers[1].attention->heads[0].Wv;
    QCOMPARE(*view.interventions().encoder.layers.at(1).heads.at(0).Wv, core::Matrix(wv * 0.5f));
    headOn->setChecked(false);
    QVERIFY(done.wait(5000));
    QCOMPARE(view.interventions().encoder.headsOff, (std::set<std::pair<int, int>>{{1, 0}}));
    view.setKind(EncDecView::Kind::Cross);
    view.setLayerAndHead(0, 1);
    QCOMPARE(temperature->value(), 2.0);
    QVERIFY(headOn->isChecked());
    // Reset: the first translation again, bit for bit.
    view.findChild<QPushButton*>(QStringLiteral("encdecResetEditsButton"))->click();
    QVERIFY(done.wait(5000));
    QVERIFY(view.interventions().empty());
    QCOMPARE(view.shownStep()->probability, before);
    QCOMPARE(temperature->value(), 1.0);
}

void TestEncDecWindow::beamsShowTheChosenTranslation()
{
    // The tiny BART checkpoint with "Hi cat" (expected_seq2seq.json): greedy writes 241, 73, ...;
    // four beams choose 206 five times then 150 three times, log-probability -21.39 over eight
    // words (beam_expected.json, from tests/data/models/beam_reference.py).
    const auto bart = core::loadModel(test::modelFixture(QStringLiteral("bart")));
    core::CpuBackend backend;
    EncDecView view;
    view.setSource(core::runModel(bart, core::decoderTokens(*bart, {0, 43, 76, 224, 70, 68, 87, 2}),
                                  {}, backend),
                   cpu());
    view.findChild<QSpinBox*>(QStringLiteral("beamSpin"))->setValue(4);
    view.findChild<QSpinBox*>(QStringLiteral("maxLengthSpin"))->setValue(8);
    QSignalSpy done(&view, &EncDecView::translationDone);
    view.findChild<QPushButton*>(QStringLiteral("translateButton"))->click();
    QCOMPARE(view.status(), QStringLiteral("Searching with 4 beams…"));
    QVERIFY(done.wait(5000));
    QCOMPARE(view.stepCount(), 8);
    QCOMPARE(view.status(), QStringLiteral("Done: the length limit (8 words). Of 4 beams, the "
                                           "chosen translation has log-probability -21.39, -2.67 "
                                           "per word."));
    // The grids show the chosen hypothesis: eight rows of cross-attention, its words as labels.
    QCOMPARE(view.shownStep()->id, 150);
    QCOMPARE(view.panels()[0].matrix.rows(), Eigen::Index(8));
    view.findChild<QPushButton*>(QStringLiteral("stepBackButton"))->click();
    view.findChild<QPushButton*>(QStringLiteral("stepBackButton"))->click();
    view.findChild<QPushButton*>(QStringLiteral("stepBackButton"))->click();
    QCOMPARE(view.shownStep()->id, 206);
    QCOMPARE(view.panels()[0].matrix.rows(), Eigen::Index(5));
    // One beam is greedy again.
    view.setBeams(1);
    view.translate();
    QVERIFY(done.wait(5000));
    QCOMPARE(view.shownStep()->id, 206); // greedy's last word, 8 of 8
    QCOMPARE(view.status(), QStringLiteral("Done: the length limit (8 words)."));
}

void TestEncDecWindow::translationTooBigForMemoryIsRefused()
{
    EncDecView view;
    view.setSource(opened(), cpu());
    translate(view, 2);
    // The tiny Marian checkpoint: 31 words (its 32 positions less the decoder start token) with
    // 16 beams over the 7 source tokens hold 1395584 bytes (decodingMemory's list: 2 layers, 4
    // heads of 4, d_model 16, 259 tokens; the steps' 32 forwards, cubic in the length, outweigh
    // the search), more than a budget of 1 MiB; 26 words take 971844.
    qputenv("ATTN_MEMORY_LIMIT_MIB", "1");
    view.setBeams(16);
    view.findChild<QSpinBox*>(QStringLiteral("maxLengthSpin"))->setValue(31);
    QSignalSpy done(&view, &EncDecView::translationDone);
    view.findChild<QPushButton*>(QStringLiteral("translateButton"))->click();
    qunsetenv("ATTN_MEMORY_LIMIT_MIB");
    QCOMPARE(done.count(), 1); // at once, on the UI thread
    QVERIFY(!view.isRunning());
    QCOMPARE(view.status(),
             QStringLiteral("Not translated: decoding 31 tokens with 16 beams needs 1.3 MiB for "
                            "the decoder's keys, values and attention weights; 1.0 MiB is "
                            "available (ATTN_MEMORY_LIMIT_MIB): at most 26 tokens fit with 16 "
                            "beams"));
    QCOMPARE(view.stepCount(), 2); // the translation shown stays
}

void TestEncDecWindow::figureFiles()
{
    EncDecView view;
    view.setSource(opened(), cpu());
    translate(view, 2);
    QVERIFY(view.figureBytes(ui::FigureFormat::Png, QSize(600, 400)).startsWith("\x89PNG"));
    QVERIFY(view.figureBytes(ui::FigureFormat::Pdf, QSize(600, 400)).startsWith("%PDF"));
    const QByteArray svg = view.figureBytes(ui::FigureFormat::Svg, QSize(600, 400));
    QVERIFY(svg.contains("<svg"));
    QVERIFY(svg.contains("Cross-attention"));
}

void TestEncDecWindow::galleryOpensOrDownloads()
{
    // A cache with one of the ten (opus-mt) and one other model.
    QTemporaryDir home;
    qputenv("HF_HOME", home.path().toUtf8());
    qunsetenv("HF_HUB_CACHE");
    qunsetenv("HUGGINGFACE_HUB_CACHE");
    for (const char* name : {"models--Helsinki-NLP--opus-mt-en-fr", "models--org--cached"}) {
        const QString snapshot = home.filePath(QStringLiteral("hub/") + QLatin1String(name) +
                                               QStringLiteral("/snapshots/abc"));
        QVERIFY(QDir().mkpath(snapshot));
        QFile config(snapshot + QStringLiteral("/config.json"));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("{}");
    }
    ui::GalleryView gallery;
    const QList<QPushButton*> buttons = gallery.buttons();
    QCOMPARE(buttons.size(), 11);
    QCOMPARE(buttons[0]->text(), QStringLiteral("openai-community/gpt2\ndownload 548 MB"));
    QCOMPARE(buttons[8]->text(), QStringLiteral("Helsinki-NLP/opus-mt-en-fr\nopen from the cache"));
    QCOMPARE(buttons[10]->text(), QStringLiteral("org/cached\nopen from the cache"));
    QSignalSpy open(&gallery, &ui::GalleryView::openRequested);
    QSignalSpy download(&gallery, &ui::GalleryView::downloadRequested);
    buttons[8]->click();
    QCOMPARE(open.size(), 1);
    QVERIFY(open[0][0].toString().endsWith(
        QStringLiteral("hub/models--Helsinki-NLP--opus-mt-en-fr/snapshots/abc")));
    buttons[9]->click();
    QCOMPARE(download.size(), 1);
    QCOMPARE(download[0][0].toString(), QStringLiteral("google-t5/t5-small"));
    qunsetenv("HF_HOME");
}

// The main grid of an encoder-decoder model shows its encoder's heads over the source, where its
// run's decoder has read the start token alone (one cell per head).
void TestEncDecWindow::modelGridShowsEncoderHeads()
{
    const auto window = marianWindow(QSize(1600, 1000));
    QVERIFY(window);
    auto* kind = window->gridKindCombo();
    QVERIFY(kind->isVisible());
    QCOMPARE(kind->currentText(), QStringLiteral("Encoder self-attention"));
    const auto source = window->document()->result()->sourceTokens;
    QCOMPARE(int(source.size()), 7);
    const auto grid = window->gridView()->result();
    QCOMPARE(grid->layerCount(), 2);
    // Two layers of the encoder's two heads (its decoder has four), 7 x 7 each.
    const auto& g = window->gridView()->geometry();
    QCOMPARE(g.layers, 2);
    QCOMPARE(g.heads, 2);
    QCOMPARE(g.tokens.size(), 7);
    QCOMPARE(g.tokens.last(), QStringLiteral("</s>"));
    QVERIFY(g.keyTokens.isEmpty()); // self-attention: the rows' tokens name the columns
    core::CpuBackend backend;
    const auto alone = core::runModel(marian(), source, {}, backend);
    for (int l = 0; l < 2; ++l)
        for (int h = 0; h < 2; ++h) {
            const core::HeadResult& head = grid->layers[std::size_t(l)]->heads[std::size_t(h)];
            QCOMPARE(head.weights.rows(), Eigen::Index(7));
            QCOMPARE(head.weights.cols(), Eigen::Index(7));
            QCOMPARE(test::maxDifference(
                         head.weights,
                         alone->encoderLayers[std::size_t(l)]->heads[std::size_t(h)].weights),
                     0.0);
            for (Eigen::Index i = 0; i < 7; ++i)
                QVERIFY(std::abs(head.weights.row(i).sum() - 1.0f) < 1e-5f);
        }
    // Row 2 of layer 2's head 1 by Vaswani et al. 2017 eq. 1: softmax(q k^T / sqrt(8)) with the
    // head's own queries and keys (Marian's encoder: no mask, no bias).
    const core::HeadResult& head = grid->layers[1]->heads[0];
    double sum = 0.0;
    std::vector<double> e(7);
    for (int j = 0; j < 7; ++j) {
        e[std::size_t(j)] = std::exp(double(head.Q.row(2).dot(head.K.row(j))) / std::sqrt(8.0));
        sum += e[std::size_t(j)];
    }
    for (int j = 0; j < 7; ++j)
        QVERIFY(std::abs(double(head.weights(2, j)) - e[std::size_t(j)] / sum) < 1e-5);
    // A click selects that head: the Weights tab shows the encoder's layer 2, head 2.
    QTest::mouseClick(window->gridView(), Qt::LeftButton, {}, g.cellRect(1, 1).center().toPoint());
    QCOMPARE(window->document()->selectedLayer(), 1);
    QCOMPARE(window->document()->selectedHead(), 1);
    QVERIFY(settled(*window));
    QCOMPARE(window->headView()->result(), grid->layers[1]);
    QCOMPARE(window->headView()->spec().head, 1);
    QCOMPARE(window->translateView()->kind(), EncDecView::Kind::Encoder);
    QCOMPARE(window->translateView()->panels()[0].title, QStringLiteral("Layer 2, head 2"));
    window->document()->undoStack()->setClean();
}

// The decoder's kinds show the Translate tab's last translation, and say so before one.
void TestEncDecWindow::modelGridShowsTheTranslation()
{
    const auto window = marianWindow(QSize(1600, 1000));
    QVERIFY(window);
    auto* kind = window->gridKindCombo();
    kind->setCurrentIndex(2);
    emit kind->activated(2);
    QCOMPARE(window->gridView()->message(),
             QStringLiteral("Nothing decoded yet: translate the sentence in the Translate tab to "
                            "see the decoder's heads."));
    EncDecView& view = *window->translateView();
    translate(view, 3);
    QVERIFY(settled(*window));
    // Word 3 read the start token and two words: 3 target rows x 7 source columns, four heads.
    QVERIFY(window->gridView()->message().isEmpty());
    const auto& g = window->gridView()->geometry();
    QCOMPARE(g.layers, 2);
    QCOMPARE(g.heads, 4);
    QCOMPARE(g.tokens.size(), 3);
    QCOMPARE(g.keyTokens.size(), 7);
    const auto grid = window->gridView()->result();
    const auto& step = *view.shownStep()->result;
    QCOMPARE(grid->layers[1]->heads[3].weights, step.crossLayers[1]->heads[3].weights);
    QCOMPARE(grid->layers[1]->heads[3].weights.rows(), Eigen::Index(3));
    QCOMPARE(grid->layers[1]->heads[3].weights.cols(), Eigen::Index(7));
    // A click selects the cross-attention head, here and in the Translate tab.
    QTest::mouseClick(window->gridView(), Qt::LeftButton, {}, g.cellRect(1, 3).center().toPoint());
    QVERIFY(settled(*window));
    QCOMPARE(window->headView()->result(), grid->layers[1]);
    QCOMPARE(view.kind(), EncDecView::Kind::Cross);
    QCOMPARE(view.panels()[0].title, QStringLiteral("Layer 2, head 4"));
    // The decoder's self-attention: causal, 3 x 3.
    kind->setCurrentIndex(1);
    emit kind->activated(1);
    const auto decoder = window->gridView()->result();
    QCOMPARE(decoder->layers[0]->heads[0].weights.rows(), Eigen::Index(3));
    QCOMPARE(decoder->layers[0]->heads[0].weights(0, 1), 0.0f);
    QCOMPARE(decoder->layers[0]->heads[0].weights, step.layers[0]->heads[0].weights);
    window->document()->undoStack()->setClean();
}

// A head switched off in the grid is of the kind it shows: the translation and the window's run
// take it, the decoder's heads of that number stay on.
void TestEncDecWindow::modelGridEditsTheKindShown()
{
    const auto window = marianWindow(QSize(1600, 1000));
    QVERIFY(window);
    const auto before = window->document()->result();
    const QRectF box = window->gridView()->checkboxRect(0, 1);
    QVERIFY(!box.isEmpty());
    QTest::mouseClick(window->gridView(), Qt::LeftButton, {}, box.center().toPoint());
    QCOMPARE(window->translateView()->interventions().encoder.headsOff,
             (std::set<std::pair<int, int>>{{0, 1}}));
    QVERIFY(window->document()->interventions().empty());
    QVERIFY(settled(*window));
    QCOMPARE(window->gridView()->options().headsOff, (std::set<std::pair<int, int>>{{0, 1}}));
    // The window's run has it off: the encoder's second layer reads another input.
    const auto after = window->document()->result();
    QVERIFY(after != before);
    QCOMPARE(after->encoderLayers[0]->heads[1].weights, before->encoderLayers[0]->heads[1].weights);
    QVERIFY(test::maxDifference(after->encoderLayers[1]->heads[0].weights,
                                before->encoderLayers[1]->heads[0].weights) > 1e-6);
    window->document()->undoStack()->setClean();
}

// At 1024 x 768 the Translate tab has the room the grid had: the chosen head's matrix in view.
void TestEncDecWindow::translateTabFitsAProjector()
{
    const auto window = marianWindow(QSize(1024, 768));
    QVERIFY(window);
    EncDecView& view = *window->translateView();
    auto* page = qobject_cast<QScrollArea*>(view.parentWidget()->parentWidget());
    QVERIFY(page);
    window->viewTabs()->setCurrentWidget(page);
    translate(view, 3);
    QVERIFY(settled(*window));
    QVERIFY(window->gridView()->isHidden() || !window->gridView()->isVisible());
    ui::MatrixPanelsView* matrix = view.matrixView();
    QVERIFY(matrix->isVisible());
    const QRect shown(matrix->mapTo(page->viewport(), QPoint(0, 0)), matrix->size());
    QVERIFY2(page->viewport()->rect().contains(shown),
             qPrintable(QStringLiteral("%1,%2 %3x%4 in %5x%6")
                            .arg(shown.x())
                            .arg(shown.y())
                            .arg(shown.width())
                            .arg(shown.height())
                            .arg(page->viewport()->width())
                            .arg(page->viewport()->height())));
    QVERIFY(matrix->width() >= 300);
    QVERIFY(matrix->height() >= 250);
    // Back to the head's figures: the grid is there again.
    window->viewTabs()->setCurrentIndex(0);
    QCoreApplication::processEvents();
    QVERIFY(window->gridView()->isVisible());
    window->document()->undoStack()->setClean();
}

// An encoder with more layers than its decoder: its top layer is selected as clicked, not clamped
// to the decoder's two layers.
void TestEncDecWindow::selectsEncoderLayersBeyondTheDecoders()
{
    const auto window = openWindow(QSize(1600, 1000), deepEncoder());
    QVERIFY(window);
    QCOMPARE(window->document()->selectedKind(), ui::HeadKind::Encoder); // the grid's kind
    QCOMPARE(window->headPanel()->findChild<QLabel*>()->text(),
             QStringLiteral("Encoder self-attention · layer 1 · head 1"));
    const auto grid = window->gridView()->result();
    QCOMPARE(grid->layerCount(), 3);
    const auto& g = window->gridView()->geometry();
    QTest::mouseClick(window->gridView(), Qt::LeftButton, {}, g.cellRect(2, 1).center().toPoint());
    QCOMPARE(window->document()->selectedLayer(), 2);
    QCOMPARE(window->document()->selectedHead(), 1);
    QCOMPARE(window->document()->selectedKind(), ui::HeadKind::Encoder);
    QVERIFY(settled(*window));
    QCOMPARE(window->headView()->result(), grid->layers[2]);
    QCOMPARE(window->headPanel()->findChild<QLabel*>()->text(),
             QStringLiteral("Encoder self-attention · layer 3 · head 2"));
    // The decoder's kind clamps to the decoder's two layers.
    window->document()->select(ui::HeadKind::Decoder, 2, 3);
    QCOMPARE(window->document()->selectedLayer(), 1);
    QCOMPARE(window->document()->selectedHead(), 3);
    window->document()->select(ui::HeadKind::Encoder, 5, 3);
    QCOMPARE(window->document()->selectedLayer(), 2);
    QCOMPARE(window->document()->selectedHead(), 1);
    window->document()->undoStack()->setClean();
}

// The Selected head dock's switch on an encoder head is the Translate tab's switch: the same
// interventions, the same encoder weights bit for bit, the decoder's heads untouched; what the
// Translate tab's interventions lack is disabled and says why.
void TestEncDecWindow::headDockSwitchesTheEncoderHeadOff()
{
    const auto dock = marianWindow(QSize(1600, 1000));
    QVERIFY(dock);
    const auto& g = dock->gridView()->geometry();
    QTest::mouseClick(dock->gridView(), Qt::LeftButton, {}, g.cellRect(0, 1).center().toPoint());
    QCOMPARE(dock->document()->selectedKind(), ui::HeadKind::Encoder);
    ui::ModelHeadPanel* panel = dock->headPanel();
    QVERIFY(panel->headOnCheck()->isEnabled());
    QVERIFY(panel->headOnCheck()->isChecked());
    panel->headOnCheck()->click();
    QCOMPARE(dock->translateView()->interventions().encoder.headsOff,
             (std::set<std::pair<int, int>>{{0, 1}}));
    QVERIFY(dock->translateView()->interventions().decoder.empty());
    QVERIFY(dock->translateView()->interventions().cross.empty());
    QVERIFY(dock->document()->interventions().empty());
    QVERIFY(settled(*dock));
    QVERIFY(!panel->headOnCheck()->isChecked());
    const QString why = QStringLiteral(
        "The encoder's and the cross-attention's heads take heads off, a layer's temperature and "
        "W^v's scale, as in the Translate tab");
    QVERIFY(!panel->editor()->isEnabled());
    QCOMPARE(panel->editor()->toolTip(), why);
    QVERIFY(!panel->scoreCombo()->isEnabled());
    QCOMPARE(panel->scoreCombo()->toolTip(), why);
    QVERIFY(panel->temperatureSlider()->isEnabled());

    const auto tab = marianWindow(QSize(1600, 1000));
    QVERIFY(tab);
    EncDecView& view = *tab->translateView();
    view.selectHead(EncDecView::Kind::Encoder, 0, 1);
    view.findChild<QCheckBox*>(QStringLiteral("encdecHeadOnCheck"))->click();
    QVERIFY(settled(*tab));
    QCOMPARE(view.interventions(), dock->translateView()->interventions());
    const auto a = dock->document()->result();
    const auto b = tab->document()->result();
    QCOMPARE(int(a->encoderLayers.size()), 2);
    QCOMPARE(int(b->encoderLayers.size()), 2);
    for (std::size_t l = 0; l < 2; ++l)
        for (std::size_t h = 0; h < 2; ++h) {
            const core::Matrix& x = a->encoderLayers[l]->heads[h].weights;
            const core::Matrix& y = b->encoderLayers[l]->heads[h].weights;
            QCOMPARE(x.rows(), Eigen::Index(7));
            QVERIFY(std::memcmp(x.data(), y.data(), std::size_t(x.size()) * sizeof(float)) == 0);
        }
    // W^v's scale is the Translate tab's too: the checkpoint's W^v halved.
    QVERIFY(panel->valueScaleSpin()->isVisible());
    panel->valueScaleSpin()->setValue(0.5);
    QCOMPARE(dock->translateView()->valueScale(EncDecView::Kind::Encoder, 0, 1), 0.5);
    const core::Matrix& wv = marian()->weights.encoderLayers[0].attention->heads[1].Wv;
    QCOMPARE(*dock->translateView()->interventions().encoder.layers.at(0).heads.at(1).Wv,
             core::Matrix(wv * 0.5f));
    QVERIFY(settled(*dock));
    // The decoder's switches stay on: its heads of that number are not the encoder's.
    QVERIFY(!dock->document()->isHeadOff(0, 1));
    dock->document()->select(ui::HeadKind::Decoder, 0, 1);
    QVERIFY(panel->headOnCheck()->isChecked());
    QVERIFY(panel->editor()->isEnabled());
    QVERIFY(!panel->valueScaleSpin()->isVisible());
    dock->document()->undoStack()->setClean();
    tab->document()->undoStack()->setClean();
}

namespace {

// The row of the word a step read (a cached step computes that row alone).
core::Matrix lastRow(const core::Matrix& weights)
{
    return weights.bottomRows(1);
}

// Every head's weights of `a` and `b`, bit for bit.
bool sameWeights(const std::vector<std::shared_ptr<const core::AttentionResult>>& a,
                 const std::vector<std::shared_ptr<const core::AttentionResult>>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t l = 0; l < a.size(); ++l)
        for (std::size_t h = 0; h < a[l]->heads.size(); ++h) {
            const core::Matrix& x = a[l]->heads[h].weights;
            const core::Matrix& y = b[l]->heads[h].weights;
            if (x.rows() != y.rows() || x.cols() != y.cols() ||
                std::memcmp(x.data(), y.data(), std::size_t(x.size()) * sizeof(float)) != 0)
                return false;
        }
    return true;
}

} // namespace

// A decoder head switched off in the grid's box and in the Selected head dock is one edit of the
// one document: the Translate tab translates with it, the window's run has it.
void TestEncDecWindow::decoderHeadOffIsOneState()
{
    const auto window = marianWindow(QSize(1600, 1000));
    QVERIFY(window);
    EncDecView& view = *window->translateView();
    translate(view, 2);
    auto* kinds = window->findChild<QComboBox*>(QStringLiteral("gridKindCombo"));
    kinds->setCurrentIndex(int(ui::HeadKind::Decoder));
    emit kinds->activated(int(ui::HeadKind::Decoder));
    QVERIFY(settled(*window));
    QUndoStack& undo = *window->document()->undoStack();
    const std::set<std::pair<int, int>> off{{0, 1}};
    QSignalSpy translated(&view, &EncDecView::translationDone);
    const QRectF box = window->gridView()->checkboxRect(0, 1);
    QVERIFY(!box.isEmpty());
    QTest::mouseClick(window->gridView(), Qt::LeftButton, {}, box.center().toPoint());
    QCOMPARE(window->document()->interventions().headsOff, off);
    QCOMPARE(view.interventions().decoder.headsOff, off);
    QVERIFY(view.interventions().encoder.empty() && view.interventions().cross.empty());
    QCOMPARE(undo.count(), 1);
    const core::EncoderDecoderInterventions fromGrid = window->document()->allInterventions();
    undo.undo();
    QVERIFY(window->document()->allInterventions().empty());
    QVERIFY(view.interventions().empty());
    window->document()->select(ui::HeadKind::Decoder, 0, 1);
    QVERIFY(window->headPanel()->headOnCheck()->isChecked());
    window->headPanel()->headOnCheck()->click();
    QCOMPARE(window->document()->allInterventions(), fromGrid);
    QCOMPARE(view.interventions(), fromGrid);
    QCOMPARE(undo.count(), 1); // the grid's step undone, the dock's pushed in its place
    // The tab translated again with the head off: its decoder's weights are core's with the
    // head off, and its second layer reads another input than the checkpoint's.
    QVERIFY(translated.count() >= 1 || translated.wait(5000));
    while (view.isRunning())
        QVERIFY(translated.wait(5000));
    const auto shown = view.kindResult(EncDecView::Kind::Decoder);
    QVERIFY(shown);
    QCOMPARE(shown->interventions.headsOff, off);
    const core::ModelResult& step = *view.shownStep()->result;
    core::CpuBackend backend;
    const auto expected = core::runEncoderDecoder(marian(), step.sourceTokens, step.tokens,
                                                  fromGrid.decoder, backend);
    const auto unedited =
        core::runEncoderDecoder(marian(), step.sourceTokens, step.tokens, {}, backend);
    for (std::size_t l = 0; l < 2; ++l)
        for (std::size_t h = 0; h < 4; ++h)
            QVERIFY(test::maxDifference(lastRow(shown->layers[l]->heads[h].weights),
                                        lastRow(expected->layers[l]->heads[h].weights)) < 1e-5);
    QVERIFY(test::maxDifference(lastRow(shown->layers[1]->heads[0].weights),
                                lastRow(unedited->layers[1]->heads[0].weights)) > 1e-6);
    // The window's run has it too.
    QVERIFY(settled(*window));
    QCOMPARE(window->document()->result()->interventions.headsOff, off);
    QCOMPARE(window->gridView()->options().headsOff, off);
    undo.setClean();
}

// An encoder edit and a cross-attention edit made in the Translate tab are a step each on the
// document's undo stack: undone, the window's run is the checkpoint's bit for bit; redone, the
// edits are back; Edit > Reset interventions takes both back in one step.
void TestEncDecWindow::everyKindIsOneUndoStep()
{
    const auto window = marianWindow(QSize(1600, 1000));
    QVERIFY(window);
    const auto checkpoint = window->document()->result();
    EncDecView& view = *window->translateView();
    QUndoStack& undo = *window->document()->undoStack();
    view.setLayerTemperature(EncDecView::Kind::Encoder, 0, 2.0);
    view.setHeadOff(EncDecView::Kind::Cross, 1, 2, true);
    QCOMPARE(undo.count(), 2);
    QCOMPARE(window->document()->interventions(ui::HeadKind::Encoder).layers.at(0).temperature,
             std::optional<float>(2.0f));
    QCOMPARE(window->document()->interventions(ui::HeadKind::Cross).headsOff,
             (std::set<std::pair<int, int>>{{1, 2}}));
    QVERIFY(window->document()->interventions().empty());
    QVERIFY(settled(*window));
    const auto edited = window->document()->result();
    QVERIFY(!sameWeights(edited->encoderLayers, checkpoint->encoderLayers));
    undo.undo();
    undo.undo();
    QVERIFY(window->document()->allInterventions().empty());
    QVERIFY(view.interventions().empty());
    QVERIFY(settled(*window));
    const auto undone = window->document()->result();
    QVERIFY(sameWeights(undone->encoderLayers, checkpoint->encoderLayers));
    QVERIFY(sameWeights(undone->layers, checkpoint->layers));
    QVERIFY(sameWeights(undone->crossLayers, checkpoint->crossLayers));
    undo.redo();
    undo.redo();
    QCOMPARE(view.interventions().encoder.layers.at(0).temperature, std::optional<float>(2.0f));
    QCOMPARE(view.interventions().cross.headsOff, (std::set<std::pair<int, int>>{{1, 2}}));
    QVERIFY(settled(*window));
    QVERIFY(sameWeights(window->document()->result()->encoderLayers, edited->encoderLayers));
    QVERIFY(sameWeights(window->document()->result()->crossLayers, edited->crossLayers));
    window->document()->resetInterventions();
    QCOMPARE(undo.count(), 3);
    QVERIFY(view.interventions().empty());
    undo.undo();
    QCOMPARE(view.interventions().cross.headsOff, (std::set<std::pair<int, int>>{{1, 2}}));
    QVERIFY(view.interventions().encoder.layers.at(0).temperature);
    QVERIFY(settled(*window));
    undo.setClean();
}

// A scene keeps the encoder's and cross-attention's interventions and the kind of head selected;
// a scene written before it (no such keys) opens as it did; a malformed kind is named.
void TestEncDecWindow::scenesKeepEveryKind()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto window = marianWindow(QSize(1600, 1000));
    QVERIFY(window);
    ui::ModelDocument& document = *window->document();
    document.setHeadOff(ui::HeadKind::Encoder, 1, 0, true);
    document.setTemperature(ui::HeadKind::Cross, 0, 0.5f);
    auto* kinds = window->findChild<QComboBox*>(QStringLiteral("gridKindCombo"));
    kinds->setCurrentIndex(int(ui::HeadKind::Cross));
    emit kinds->activated(int(ui::HeadKind::Cross));
    document.select(ui::HeadKind::Cross, 1, 3);
    QVERIFY(settled(*window));
    const QString path = dir.filePath(QStringLiteral("marian.json"));
    QVERIFY(window->saveFile(path));

    const auto other = marianWindow(QSize(1600, 1000));
    QVERIFY(other);
    QSignalSpy loaded(other.get(), &ui::ModelWindow::modelLoaded);
    QVERIFY(other->openScene(path));
    QVERIFY(loaded.wait(10000));
    QVERIFY(settled(*other));
    QCOMPARE(other->document()->allInterventions(), document.allInterventions());
    QCOMPARE(other->document()->interventions(ui::HeadKind::Encoder).headsOff,
             (std::set<std::pair<int, int>>{{1, 0}}));
    QCOMPARE(other->document()->interventions(ui::HeadKind::Cross).layers.at(0).temperature,
             std::optional<float>(0.5f));
    QCOMPARE(other->document()->selectedKind(), ui::HeadKind::Cross);
    QCOMPARE(other->document()->selectedLayer(), 1);
    QCOMPARE(other->document()->selectedHead(), 3);
    QVERIFY(!other->document()->isModified());
    QVERIFY(
        sameWeights(other->document()->result()->encoderLayers, document.result()->encoderLayers));
    QVERIFY(sameWeights(other->document()->result()->crossLayers, document.result()->crossLayers));

    // Written before: a decoder head off, no "encoder", "cross" or "kind".
    const QString old = dir.filePath(QStringLiteral("old.json"));
    QFile file(old);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QStringLiteral("{\"format\": \"attention-explorer-scene\", \"version\": 2, "
                              "\"text\": \"Hi cat\", \"checkpoint\": {\"path\": \"%1\", "
                              "\"layer\": 2, \"head\": 3, \"heads_off\": [[1, 2]]}}")
                   .arg(test::modelFixture(QStringLiteral("marian")))
                   .toUtf8());
    file.close();
    QVERIFY(other->openScene(old));
    QVERIFY(loaded.wait(10000));
    QCOMPARE(other->document()->interventions().headsOff, (std::set<std::pair<int, int>>{{0, 1}}));
    QVERIFY(other->document()->interventions(ui::HeadKind::Encoder).empty());
    QVERIFY(other->document()->interventions(ui::HeadKind::Cross).empty());
    QCOMPARE(other->document()->selectedKind(), ui::HeadKind::Cross); // the grid's, as before
    QCOMPARE(other->document()->selectedLayer(), 1);
    QCOMPARE(other->document()->selectedHead(), 2);
    QVERIFY(settled(*other));

    QFile saved(path);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QByteArray bytes = saved.readAll();
    saved.close();
    QVERIFY(bytes.contains("\"kind\": \"cross\""));
    bytes.replace("\"kind\": \"cross\"", "\"kind\": \"sideways\"");
    QFile bad(dir.filePath(QStringLiteral("bad.json")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(bytes);
    bad.close();
    QVERIFY(!other->openScene(bad.fileName()));
    QCOMPARE(other->messageBar()->text(),
             QStringLiteral("Could not open bad.json. bad.json: checkpoint.kind: expected "
                            "\"encoder\", \"decoder\" or \"cross\", got \"sideways\""));
    QCOMPARE(other->document()->interventions().headsOff, (std::set<std::pair<int, int>>{{0, 1}}));
    document.undoStack()->setClean();
    other->document()->undoStack()->setClean();
}

QTEST_MAIN(TestEncDecWindow)
#include "tst_encdec_window.moc"
