// The key/value cache in the model window: typing at the end of a causal prompt computes only
// the new positions (the controller's cached runs) and shows what a whole forward shows; the
// KV Cache tab's size and cost, counted from the tiny Llama's shapes by hand; its figure
// exported; and the grid following the Generate tab's steps, scrubbed back through the cache.
#include "ui/model/generate_view.h"
#include "ui/model/head_grid_view.h"
#include "ui/model/kv_cache_view.h"
#include "ui/model/model_compute_controller.h"
#include "ui/model/model_document.h"
#include "ui/model/model_window.h"

#include "core/cpu_backend.h"
#include "core/model/forward.h"
#include "core/model/model_loader.h"
#include "support/model_fixtures.h"

#include <QBuffer>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QSvgGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace attn;

namespace {

std::shared_ptr<const core::Model> llama()
{
    static const auto model = core::loadModel(attn::test::modelFixture(QStringLiteral("llama")));
    return model;
}

// The window's run against a whole forward of the same tokens on the CPU: every head's
// weights and output, and the prediction.
void compareWithWholeForward(const core::ModelResult& shown)
{
    core::CpuBackend cpu;
    core::ForwardOptions options;
    options.keepIntermediates = false;
    const auto whole = core::runModel(shown.model, shown.tokens, shown.interventions, cpu, options);
    QCOMPARE(shown.layerCount(), whole->layerCount());
    for (int l = 0; l < whole->layerCount(); ++l)
        for (std::size_t h = 0; h < whole->layers[std::size_t(l)]->heads.size(); ++h) {
            const auto& a = shown.layers[std::size_t(l)]->heads[h];
            const auto& b = whole->layers[std::size_t(l)]->heads[h];
            QVERIFY(attn::test::maxDifference(a.weights, b.weights) < 1e-5);
            QVERIFY(attn::test::maxDifference(a.output, b.output) < 1e-4);
        }
    QCOMPARE(shown.predictions.size(), std::size_t(1));
    QVERIFY(attn::test::maxDifference(shown.predictions[0].logits, whole->predictions[0].logits) <
            1e-4);
    QCOMPARE(shown.predictions[0].top.front().id, whole->predictions[0].top.front().id);
}

} // namespace

class TestKvCacheView : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_window = std::make_unique<ui::ModelWindow>(
            std::make_unique<core::CpuBackend>(), core::BackendChoice::Cpu, QString(), QString());
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->setModel(llama(), QStringLiteral("The cat sat"));
        waitUpToDate();
        m_view = m_window->findChild<ui::KvCacheView*>(QStringLiteral("kvCacheView"));
        QVERIFY(m_view);
    }

    void cleanup()
    {
        m_window->document()->undoStack()->setClean();
        m_window.reset();
    }

    // Typed at the end: the run goes through the cache (only the new positions computed) and
    // shows exactly what a whole forward shows. Before the cache was used the counter stayed 0.
    void typingAtTheEndGoesThroughTheCache()
    {
        ui::ModelComputeController* controller = m_window->computeController();
        QCOMPARE(controller->cachedRuns(), 0);
        const int before = int(m_window->document()->result()->tokens.size());
        QSignalSpy replies(controller, &ui::ModelComputeController::finished);
        m_window->textEdit()->setFocus();
        m_window->textEdit()->end(false);
        QTest::keyClicks(m_window->textEdit(), QStringLiteral(" on the"));
        waitUpToDate();
        QVERIFY(controller->cachedRuns() >= 1);
        const auto shown = m_window->document()->result();
        QCOMPARE(shown->tokens, core::modelTokens(*llama(), QStringLiteral("The cat sat on the")));
        QVERIFY(int(shown->tokens.size()) > before);
        QCOMPARE(m_window->gridView()->result(), shown);
        const auto last = replies.last().at(0).value<ui::ModelComputeReply>();
        QVERIFY(last.cachedPositions >= before - 1); // the last word may retokenize
        compareWithWholeForward(*shown);
        QVERIFY2(m_view->costLabel()->text().contains(QStringLiteral("through the cache")),
                 qPrintable(m_view->costLabel()->text()));
        QVERIFY2(m_window->timeLabel()->text().endsWith(
                     QStringLiteral("(positions %1–%2, the earlier ones from the key/value cache)")
                         .arg(last.cachedPositions + 1)
                         .arg(shown->tokens.size())),
                 qPrintable(m_window->timeLabel()->text()));

        // An earlier word edited: computed from there on (the shared "<s> The" kept).
        m_window->document()->setText(QStringLiteral("The dog sat on the"));
        waitUpToDate();
        const auto edited = replies.last().at(0).value<ui::ModelComputeReply>();
        QCOMPARE(edited.cachedPositions, 2);
        compareWithWholeForward(*m_window->document()->result());

        // A head switched off: the intervention computes from its layer up, as before, and a
        // word typed after it extends that run through the cache too.
        m_window->document()->setHeadOff(1, 2, true);
        waitUpToDate();
        QVERIFY2(m_view->costLabel()->text().contains(
                     QStringLiteral("layers 2 to 2 computed again after an intervention")),
                 qPrintable(m_view->costLabel()->text()));
        const int cached = controller->cachedRuns();
        m_window->document()->setText(QStringLiteral("The dog sat on the mat"));
        waitUpToDate();
        QCOMPARE(controller->cachedRuns(), cached + 1);
        QCOMPARE(m_window->document()->result()->interventions.headsOff.size(), std::size_t(1));
        compareWithWholeForward(*m_window->document()->result());
    }

    // The tiny Llama: 2 layers, 4 query heads sharing 2 key/value heads, d_model 32, d_head 8,
    // a gated feed-forward of 80, a vocabulary of 447.
    void sizeAndCostFromTheShapes()
    {
        const core::ModelConfig& c = llama()->config();
        // 2 layers x 2 kv heads x 6 tokens x 8 x 2 (K and V) x 4 bytes
        QCOMPARE(ui::kvCacheBytes(c, 6), std::int64_t(1536));
        // With the cache, per layer: 2*1*32*(4 + 2*2)*8 (Q, K, V) + 2*4*8*6*2 (scores, weights x V)
        // + 2*1*4*8*32 (W_O) + 2*1*32*80*3 (feed-forward) = 4096 + 768 + 2048 + 15360 = 22272;
        // two layers and the logits 2*32*447 = 28608.
        QCOMPARE(ui::stepFlops(c, 6, true), 2.0 * 22272 + 28608);
        // Without: n = 6 rows meeting 6*7/2 = 21 key cells per head:
        // 6*4096 + 2*4*8*21*2 + 6*2048 + 6*15360 = 24576 + 2688 + 12288 + 92160 = 131712.
        QCOMPARE(ui::stepFlops(c, 6, false), 2.0 * 131712 + 28608);
        // A sliding window of 4 (Mistral's kind) caps each row's keys: the newest meets 4, the
        // whole forward's rows 1 + 2 + 3 + 4 + 4 + 4 = 18, so 2*4*8*4*2 = 512 and 2*4*8*18*2 =
        // 2304.
        core::ModelConfig windowed = c;
        windowed.slidingWindow = 4;
        QCOMPARE(ui::stepFlops(windowed, 6, true), 2.0 * (4096 + 512 + 2048 + 15360) + 28608);
        QCOMPARE(ui::stepFlops(windowed, 6, false), 2.0 * (24576 + 2304 + 12288 + 92160) + 28608);

        // What the tab says for the run shown (<s> The cat sat: 4 tokens, 1024 bytes).
        QCOMPARE(m_window->document()->result()->tokens.size(), std::size_t(4));
        const QString size = m_view->sizeLabel()->text();
        QVERIFY2(
            size.contains(QStringLiteral("2 layers × 2 key/value heads × 4 tokens × 8 (d_head) "
                                         "× 2 (K and V) × 4 bytes")) &&
                size.contains(QStringLiteral("(1024 bytes)")),
            qPrintable(size));
        QVERIFY(m_view->layersLabel()->text().contains(
            QStringLiteral("2 (each shared by 2 query heads)")));
        QVERIFY(
            m_view->costLabel()->text().contains(QStringLiteral("a whole forward of 4 positions")));
    }

    void figureExports()
    {
        m_window->document()->select(1, 3);
        QTemporaryDir dir;
        QVERIFY(
            m_view->exportFigure(dir.filePath(QStringLiteral("kv.png")), QSize(800, 600), 100.0));
        const QImage png(dir.filePath(QStringLiteral("kv.png")));
        QCOMPARE(png.size(), QSize(800, 600));
        QVERIFY(m_view->exportFigure(dir.filePath(QStringLiteral("kv.svg"))));
        QFile svg(dir.filePath(QStringLiteral("kv.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("key/value head 2, shared by query heads 3 to 4"));
        QVERIFY(m_view->exportFigure(dir.filePath(QStringLiteral("kv.pdf"))));
        QFile pdf(dir.filePath(QStringLiteral("kv.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QVERIFY(!m_view->exportFigure(dir.filePath(QStringLiteral("kv.txt"))));
        QCOMPARE(m_view->errorString(),
                 QStringLiteral("Export: the file name must end in .png, .svg or .pdf"));
    }

    // Every drawn row of a long sentence keeps its token label ("12 mat") at the height the
    // tab gives the figure, on a 1024 x 768 projector's narrow pane too: the tab scrolls.
    // Before, the figure was 320 pixels high whatever the sentence, and a 20-token run's rows
    // were too thin for any label.
    void longSentenceKeepsItsRowLabels()
    {
        m_window->document()->setText(
            QStringLiteral("The cat sat on the mat because it was tired and the dog ran"));
        waitUpToDate();
        const int t = int(m_window->document()->result()->tokens.size());
        QVERIFY2(t >= 14, qPrintable(QString::number(t)));
        auto* figure = m_view->findChild<QWidget*>(QStringLiteral("kvCacheFigure"));
        QVERIFY(figure);
        const QSize size(280, figure->minimumHeight());
        QByteArray svg;
        {
            QBuffer buffer(&svg);
            buffer.open(QIODevice::WriteOnly);
            QSvgGenerator generator;
            generator.setOutputDevice(&buffer);
            generator.setSize(size);
            QPainter painter(&generator);
            ui::paintKvCacheFigure(painter,
                                   QRectF(QPointF(0, 0), QSizeF(size)).adjusted(8, 8, -8, -8),
                                   m_view->figure(), figure->font(), ui::FigureStyle{});
        }
        for (int i = 1; i <= t; ++i)
            QVERIFY2(svg.contains(QStringLiteral(">%1 ").arg(i).toUtf8()),
                     qPrintable(QString::number(i)));
    }

    // Generating, the grid shows the newest token's row (the focus) in every head; the slider
    // takes it back a step, through the cache.
    void gridFollowsGeneration()
    {
        auto* generate = m_window->findChild<ui::GenerateView*>(QStringLiteral("generateView"));
        QVERIFY(generate);
        generate->countBox()->setValue(3);
        generate->temperatureBox()->setValue(0.0);
        QSignalSpy finished(generate, &ui::GenerateView::finished);
        generate->generateButton()->click();
        QVERIFY(finished.wait(20000));
        QCOMPARE(generate->stepCount(), 3);
        waitUpToDate();
        auto shown = m_window->document()->result();
        QCOMPARE(shown->tokens.size(), std::size_t(4 + 3));
        QCOMPARE(shown->tokens.back().id, generate->steps().back().tokenId);
        QCOMPARE(m_window->document()->focusToken(), 6);
        QCOMPARE(m_window->gridView()->result(), shown);
        QCOMPARE(m_window->textEdit()->text(), QStringLiteral("The cat sat")); // the sentence stays
        compareWithWholeForward(*shown);

        const int cached = m_window->computeController()->cachedRuns();
        generate->scrubber()->setValue(1);
        waitUpToDate();
        shown = m_window->document()->result();
        QCOMPARE(shown->tokens.size(), std::size_t(4 + 1));
        QCOMPARE(m_window->document()->focusToken(), 4);
        QVERIFY(m_window->computeController()->cachedRuns() > cached);
        compareWithWholeForward(*shown);

        // A head switched off ends the following (the next Generate starts from the sentence
        // with it off); so does typing.
        m_window->document()->setHeadOff(0, 1, true);
        waitUpToDate();
        QCOMPARE(m_window->document()->result()->tokens,
                 core::modelTokens(*llama(), QStringLiteral("The cat sat")));
        generate->scrubber()->setValue(2);
        waitUpToDate();
        QCOMPARE(m_window->document()->result()->tokens.size(), std::size_t(4 + 2));
        QCOMPARE(m_window->document()->result()->interventions.headsOff.size(), std::size_t(1));
        m_window->document()->setText(QStringLiteral("The cat"));
        waitUpToDate();
        QCOMPARE(m_window->document()->result()->tokens,
                 core::modelTokens(*llama(), QStringLiteral("The cat")));
    }

private:
    void waitUpToDate()
    {
        QTRY_VERIFY_WITH_TIMEOUT(m_window->isUpToDate() && m_window->document()->result(), 20000);
    }

    std::unique_ptr<ui::ModelWindow> m_window;
    ui::KvCacheView* m_view = nullptr;
};

QTEST_MAIN(TestKvCacheView)
#include "tst_kv_cache_view.moc"
