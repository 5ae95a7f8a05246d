// Presentation mode: stepping with a clicker's keys, the captions, which panels each step
// fills and frames, hovering a weight, themes, and the controls that hide themselves.
#include "ui/presentation/presentation_steps.h"
#include "ui/presentation/presentation_window.h"

#include "core/cpu_backend.h"
#include "core/scene_json.h"
#include "support/problems.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTextDocumentFragment>
#include <QtTest>

using namespace attn;
using core::Normalization;
using core::ScoreKind;

Q_DECLARE_METATYPE(core::ScoreKind)
Q_DECLARE_METATYPE(core::Normalization)

namespace {

std::shared_ptr<const core::AttentionResult> compute(ScoreKind score, Normalization normalization, bool causal = false,
                                                     float temperature = 1.0f)
{
    auto problem = test::handProblem(score, normalization);
    problem->mask.causal = causal;
    problem->temperature = temperature;
    core::CpuBackend backend;
    return backend.compute(problem, {});
}

QString plain(const QString& html) { return QTextDocumentFragment::fromHtml(html).toPlainText(); }

// The panels each step creates (FigureBuilder's panel names).
const QStringList kCreated[] = {
    {},
    {QStringLiteral("E"), QStringLiteral("P"), QStringLiteral("X")},
    {QStringLiteral("Q"), QStringLiteral("K"), QStringLiteral("V")},
    {QStringLiteral("scores")},
    {QStringLiteral("scaled scores")},
    {QStringLiteral("masked scores")},
    {QStringLiteral("weights")},
    {QStringLiteral("output")},
    {QStringLiteral("weights")}, // each head's, in the heads row: one head here
    {QStringLiteral("concat")},
    {QStringLiteral("multi-head output")},
};

} // namespace

class TestPresentation : public QObject
{
    Q_OBJECT

    std::unique_ptr<ui::PresentationWindow> open(std::shared_ptr<const core::AttentionResult> result)
    {
        auto window = std::make_unique<ui::PresentationWindow>(std::move(result));
        window->resize(1600, 900);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()))
            return nullptr;
        return window;
    }

    // The rectangle a frame covers, in its panel's cell coordinates (x columns, y rows).
    static QRectF cellsOf(const QCPItemRect* frame)
    {
        return QRectF(frame->topLeft->coords(), frame->bottomRight->coords()).normalized();
    }

    static bool framed(const std::vector<QCPItemRect*>& frames, const QCPAxisRect* panel, QRectF cells)
    {
        for (const QCPItemRect* frame : frames) {
            const QRectF r = cellsOf(frame);
            if (frame->topLeft->keyAxis() && frame->topLeft->keyAxis()->axisRect() == panel &&
                std::abs(r.left() - cells.left()) < 1e-9 && std::abs(r.right() - cells.right()) < 1e-9 &&
                std::abs(r.top() - cells.top()) < 1e-9 && std::abs(r.bottom() - cells.bottom()) < 1e-9)
                return true;
        }
        return false;
    }

private slots:
    void keysStepThroughEveryStepAndBack()
    {
        auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax));
        QVERIFY(window);
        QCOMPARE(window->step(), 1);
        QCOMPARE(window->stepCount(), 11);
        QSignalSpy steps(window.get(), &ui::PresentationWindow::stepChanged);
        // Forward with what clickers send, one past the end.
        const Qt::Key forward[] = {Qt::Key_Right, Qt::Key_Space, Qt::Key_PageDown};
        for (int press = 0; press < 11; ++press)
            QTest::keyClick(window.get(), forward[press % 3]);
        QCOMPARE(window->step(), 11);
        QCOMPARE(steps.size(), 10);
        for (int k = 0; k < 10; ++k)
            QCOMPARE(steps[k][0].toInt(), k + 2);
        // And back, one past the start.
        steps.clear();
        const Qt::Key back[] = {Qt::Key_Left, Qt::Key_PageUp, Qt::Key_Backspace};
        for (int press = 0; press < 11; ++press)
            QTest::keyClick(window.get(), back[press % 3]);
        QCOMPARE(window->step(), 1);
        QCOMPARE(steps.size(), 10);
        for (int k = 0; k < 10; ++k)
            QCOMPARE(steps[k][0].toInt(), 10 - k);
        QTest::keyClick(window.get(), Qt::Key_End);
        QCOMPARE(window->step(), 11);
        QTest::keyClick(window.get(), Qt::Key_Home);
        QCOMPARE(window->step(), 1);
        for (int step = 1; step <= 11; ++step)
            QVERIFY(!ui::PresentationWindow::stepName(step).isEmpty());
    }

    void captionNamesTheEquation_data()
    {
        QTest::addColumn<ScoreKind>("score");
        QTest::addColumn<Normalization>("normalization");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<float>("temperature");
        QTest::addColumn<int>("step");
        QTest::addColumn<QString>("expected"); // each part between | somewhere in the caption
        const auto scaled = ScoreKind::ScaledDot;
        const auto softmax = Normalization::Softmax;
        QTest::newRow("1 tokens") << scaled << softmax << false << 1.0f << 1 << "T = 4 tokens t1, …, t4";
        QTest::newRow("2 X = E + P") << scaled << softmax << false << 1.0f << 2 << "X = E + P";
        QTest::newRow("3 Q K V") << scaled << softmax << false << 1.0f << 3 << "Q = XWQ|K = XWK|V = XWV";
        QTest::newRow("4 dot") << scaled << softmax << false << 1.0f << 4 << "eij = qi · kj";
        QTest::newRow("4 additive") << ScoreKind::Additive << softmax << false << 1.0f << 4 << "eij = wT tanh(qi + kj)";
        QTest::newRow("4 bilinear") << ScoreKind::Bilinear << softmax << false << 1.0f << 4 << "qiT M kj";
        QTest::newRow("4 cosine") << ScoreKind::Cosine << softmax << false << 1.0f << 4 << "‖qi‖ ‖kj‖";
        QTest::newRow("5 sqrt d_k") << scaled << softmax << false << 1.0f << 5 << "sij = eij / √dk|dk = 2";
        QTest::newRow("5 temperature") << scaled << softmax << false << 0.5f << 5 << "τ = 0.5";
        QTest::newRow("5 unscaled") << ScoreKind::Dot << softmax << false << 1.0f << 5 << "not scaled";
        QTest::newRow("6 no mask") << scaled << softmax << false << 1.0f << 6 << "no mask";
        QTest::newRow("6 causal") << scaled << softmax << true << 1.0f << 6 << "Mij = −∞ where j > i (causal)";
        QTest::newRow("7 softmax") << scaled << softmax << false << 1.0f << 7 << "αij = softmaxj(qi · kj / √dk)";
        QTest::newRow("7 softmax causal") << scaled << softmax << true << 1.0f << 7 << "softmaxj(qi · kj / √dk + Mij)";
        QTest::newRow("7 softmax additive") << ScoreKind::Additive << softmax << false << 1.0f << 7 << "softmaxj(wT tanh(qi + kj))";
        QTest::newRow("7 hard") << scaled << Normalization::Hard << false << 1.0f << 7 << "argmax";
        QTest::newRow("7 relu") << scaled << Normalization::Relu << false << 1.0f << 7 << "ReLU(sij)";
        QTest::newRow("7 sparsemax") << scaled << Normalization::Sparsemax << false << 1.0f << 7 << "sparsemax(si)";
        QTest::newRow("8 weighted sum") << scaled << softmax << false << 1.0f << 8 << "oi = ∑j αij vj";
        QTest::newRow("9 heads") << scaled << softmax << false << 1.0f << 9 << "Attention(XWhQ, XWhK, XWhV)";
        QTest::newRow("10 concat") << scaled << softmax << false << 1.0f << 10 << "Concat(head1)";
        QTest::newRow("11 W^O") << scaled << softmax << false << 1.0f << 11 << "Concat(head1) WO";
    }

    void captionNamesTheEquation()
    {
        QFETCH(ScoreKind, score);
        QFETCH(Normalization, normalization);
        QFETCH(bool, causal);
        QFETCH(float, temperature);
        QFETCH(int, step);
        QFETCH(QString, expected);
        ui::PresentationWindow window(compute(score, normalization, causal, temperature));
        window.setStep(step);
        const QString text = plain(window.caption());
        for (const QString& part : expected.split(QLatin1Char('|')))
            QVERIFY2(text.contains(part), qPrintable(text));
        QVERIFY2(window.caption().contains(QLatin1String("<sub>")) || window.caption().contains(QLatin1String("<sup>")),
                 "indices are typeset, not written with _ or ^");
        QVERIFY(!text.contains(QLatin1Char('_')) && !text.contains(QLatin1Char('^')));
    }

    // Cross-attention: queries project the target's X, keys and values the source's.
    void crossAttentionCaptionsNameTheSource()
    {
        const core::Scene scene = core::loadScene(QStringLiteral(":/examples/04-translation-cross-attention.json"));
        core::CpuBackend backend;
        ui::PresentationWindow window(backend.compute(core::resolveProblem(scene), {}));
        window.setStep(1);
        QVERIFY(plain(window.caption()).contains(QStringLiteral("source: S = 5 tokens")));
        window.setStep(3);
        for (const QString& part : {QStringLiteral("Q = XtWQ"), QStringLiteral("K = XsWK"), QStringLiteral("V = XsWV")})
            QVERIFY2(plain(window.caption()).contains(part), qPrintable(plain(window.caption())));
        window.setStep(9);
        QVERIFY2(plain(window.caption()).contains(QStringLiteral("Attention(XtWhQ, XsWhK, XsWhV)")), qPrintable(plain(window.caption())));
    }

    void eachStepFillsItsPanelsAndFramesThem()
    {
        auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax, true));
        QVERIFY(window);
        QVERIFY(window->figure());
        // The layout does not move from step to step: the weights stand where they will be.
        const QRect weightsAtStart = window->figure()->panelRect(QStringLiteral("weights"), 0)->rect();
        QStringList expected;
        for (int step = 1; step <= 11; ++step) {
            window->setStep(step);
            const ui::FigureBuilder* figure = window->figure();
            QVERIFY(figure);
            const QStringList& created = kCreated[step - 1];
            expected += created;
            QStringList filled = figure->filledPanels();
            QStringList want = expected;
            filled.sort();
            want.sort();
            QCOMPARE(filled, want);
            // One frame for each panel the step creates; the tokens step frames the tokens.
            QCOMPARE(int(figure->stepFrames().size()), step == 1 ? 1 : int(created.size()));
            if (step != 9) // the heads' weights share the name "weights" with the main panel
                for (const QString& name : created) {
                    const QCPAxisRect* panel = figure->panelRect(name, 0);
                    QVERIFY(panel);
                    const bool found = std::any_of(figure->stepFrames().begin(), figure->stepFrames().end(),
                                                   [&](const QCPItemRect* f) { return f->topLeft->keyAxis()->axisRect() == panel; });
                    QVERIFY2(found, qPrintable(name));
                }
            QCOMPARE(figure->panelRect(QStringLiteral("weights"), 0)->rect(), weightsAtStart);
        }
    }

    void hoveringAWeightHighlightsItsQueryAndKey()
    {
        auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax));
        QVERIFY(window);
        window->setStep(11);
        const ui::FigureBuilder* figure = window->figure();
        QVERIFY(figure);
        const QCPAxisRect* weights = figure->panelRect(QStringLiteral("weights"), 0);
        const QCPAxisRect* q = figure->panelRect(QStringLiteral("Q"), 0);
        const QCPAxisRect* k = figure->panelRect(QStringLiteral("K"), 0);
        const int i = 2, j = 3;
        const QPoint pixel(int(weights->axis(QCPAxis::atBottom)->coordToPixel(j)),
                           int(weights->axis(QCPAxis::atLeft)->coordToPixel(i)));
        QTest::mouseMove(window->plot(), pixel);
        const auto& frames = figure->highlightFrames();
        QVERIFY(!frames.empty());
        QVERIFY2(framed(frames, weights, QRectF(QPointF(-0.5, i - 0.5), QPointF(3.5, i + 0.5))), "query row i");
        QVERIFY2(framed(frames, weights, QRectF(QPointF(j - 0.5, -0.5), QPointF(j + 0.5, 3.5))), "key column j");
        QVERIFY2(framed(frames, q, QRectF(QPointF(-0.5, i - 0.5), QPointF(1.5, i + 0.5))), "q_i, row i of Q (d_k = 2)");
        QVERIFY2(framed(frames, k, QRectF(QPointF(-0.5, j - 0.5), QPointF(1.5, j + 0.5))), "k_j, row j of K");
        const QCPAxisRect* scores = figure->panelRect(QStringLiteral("scores"), 0);
        QVERIFY2(framed(frames, scores, QRectF(QPointF(j - 0.5, i - 0.5), QPointF(j + 0.5, i + 0.5))),
                 "the same cell in the scores");

        // Off the matrices, nothing is framed.
        QTest::mouseMove(window->plot(), QPoint(2, 2));
        QVERIFY(figure->highlightFrames().empty());
    }

    void themesChangeTheFigureColours_data()
    {
        QTest::addColumn<ui::PresentationTheme>("theme");
        QTest::newRow("dark") << ui::PresentationTheme::Dark;
        QTest::newRow("high contrast") << ui::PresentationTheme::HighContrast;
        QTest::newRow("print") << ui::PresentationTheme::Print;
    }

    void themesChangeTheFigureColours()
    {
        QFETCH(ui::PresentationTheme, theme);
        auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax, true));
        QVERIFY(window);
        window->setStep(7);
        const auto lightLabels = window->figure()->panelRect(QStringLiteral("E"), 0)->axis(QCPAxis::atLeft)->tickLabelColor();
        const double lightFrame = window->figure()->stepFrames().front()->pen().widthF();
        window->setTheme(theme);
        const ui::FigureStyle style = ui::presentationStyle(theme);
        const QCPAxisRect* e = window->figure()->panelRect(QStringLiteral("E"), 0);
        QCOMPARE(e->axis(QCPAxis::atLeft)->tickLabelColor(), style.text);
        QVERIFY(style.text != lightLabels || theme != ui::PresentationTheme::Dark);
        const QImage image = window->plot()->toPixmap().toImage();
        QCOMPARE(QColor(image.pixel(2, 2)), style.background);
        switch (theme) {
        case ui::PresentationTheme::Dark:
            QVERIFY(style.background.lightness() < 60 && style.text.lightness() > 200);
            break;
        case ui::PresentationTheme::HighContrast:
            QCOMPARE(style.background, QColor(Qt::white));
            QCOMPARE(style.text, QColor(Qt::black));
            QVERIFY(window->figure()->stepFrames().front()->pen().widthF() >= 2 * lightFrame - 1e-9);
            break;
        case ui::PresentationTheme::Print: {
            // Greyscale: every colour of every map on screen has no hue.
            for (int p = 0; p < window->plot()->plottableCount(); ++p)
                if (auto* map = qobject_cast<QCPColorMap*>(window->plot()->plottable(p)))
                    for (double t : {0.0, 0.3, 1.0}) {
                        const QColor c = QColor::fromRgb(map->gradient().color(t, QCPRange(0, 1)));
                        QCOMPARE(c.red(), c.green());
                        QCOMPARE(c.green(), c.blue());
                    }
            break;
        }
        case ui::PresentationTheme::Light: break;
        }
    }

    void controlsShowWhenThePointerMovesAndHideWhenItRests()
    {
        auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax));
        QVERIFY(window);
        window->setControlsHideDelay(150);
        QVERIFY(!window->controls()->isVisible());
        QTest::mouseMove(window->plot(), QPoint(40, 40));
        QVERIFY(window->controls()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!window->controls()->isVisible(), 3000);
    }

    void escapeAndF11Leave()
    {
        for (Qt::Key key : {Qt::Key_Escape, Qt::Key_F11}) {
            auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax));
            QVERIFY(window);
            QSignalSpy closed(window.get(), &ui::PresentationWindow::closed);
            QTest::keyClick(window.get(), key);
            QCOMPARE(closed.size(), 1);
            QVERIFY(!window->isVisible());
        }
    }

    void aNewResultKeepsTheStep()
    {
        auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax));
        QVERIFY(window);
        window->setStep(7);
        QSignalSpy steps(window.get(), &ui::PresentationWindow::stepChanged);
        window->setResult(compute(ScoreKind::ScaledDot, Normalization::Hard));
        QCOMPARE(window->step(), 7);
        QCOMPARE(steps.size(), 0);
        QVERIFY(plain(window->caption()).contains(QLatin1String("argmax")));
        QTRY_VERIFY(window->figure()); // drawn once the burst of results is over
        QVERIFY(window->figure()->filledPanels().contains(QLatin1String("weights")));
        QCOMPARE(window->step(), 7);
    }

    void typeGrowsWithTheScreen()
    {
        auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax));
        QVERIFY(window);
        auto labelPixels = [&] {
            return window->figure()->panelRect(QStringLiteral("E"), 0)->axis(QCPAxis::atLeft)->tickLabelFont().pixelSize();
        };
        const int start = labelPixels(); // 900 pixels high
        window->resize(960, 540);
        QTRY_VERIFY(labelPixels() < start);
        const int small = labelPixels();
        window->resize(1920, 1080);
        QTRY_VERIFY(labelPixels() > start);
        QVERIFY2(labelPixels() >= 2 * small - 1, "twice the height, twice the type");
    }

    void aPooledResultSaysWhyItCannotBePresented()
    {
        auto problem = test::handProblem(ScoreKind::ScaledDot, Normalization::Softmax);
        core::CpuBackend backend;
        core::ComputeOptions options;
        options.keepIntermediates = false;
        auto window = open(backend.compute(problem, options));
        QVERIFY(window);
        QVERIFY(!window->figure());
        QVERIFY(window->message().contains(QLatin1String("intermediate")));
    }

    void theEightPanelPipelineIsUnchanged()
    {
        // presentationStep 0: the pipeline view the window and exports show.
        QCustomPlot plot;
        ui::FigureSpec spec;
        spec.view = ui::FigureView::Pipeline;
        ui::FigureBuilder builder(plot, spec);
        builder.build(*compute(ScoreKind::ScaledDot, Normalization::Softmax), QSize(1200, 800));
        QCOMPARE(builder.filledPanels(), (QStringList{"X", "Q", "K", "V", "scores", "masked scores", "weights", "output"}));
        QVERIFY(builder.stepFrames().empty());
    }
};

QTEST_MAIN(TestPresentation)
#include "tst_presentation.moc"
