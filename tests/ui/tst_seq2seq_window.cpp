// The sequence-to-sequence window on the tiny checkpoints PyTorch made (tests/data/seq2seq):
// what it shows at each step against PyTorch's numbers, bad input, training a task, figures.
#include "ui/app/window_manager.h"
#include "ui/explorer/explorer_window.h"
#include "ui/figures/colormap.h"
#include "ui/model/matrix_panels_view.h"
#include "ui/presentation/seq2seq_presentation_window.h"
#include "ui/presentation/seq2seq_slides.h"
#include "ui/seq2seq/seq2seq_figures.h"
#include "ui/seq2seq/seq2seq_train_job.h"
#include "ui/seq2seq/seq2seq_window.h"

#include "core/cpu_backend.h"
#include "core/error.h"

#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPointer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <qcustomplot.h>

#include <cmath>

using namespace attn;

namespace {

QString fixture(const QString& name)
{
    return QStringLiteral(ATTN_TEST_DATA_DIR "/seq2seq/") + name;
}

QJsonObject firstCase(const QString& name)
{
    QFile file(fixture(name) + QStringLiteral("/expected.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll())
        .object()[QStringLiteral("cases")]
        .toArray()[0]
        .toObject();
}

} // namespace

class TestSeq2SeqWindow : public QObject
{
    Q_OBJECT

private slots:
    // "Le chat noir a mangé la souris." through PyTorch's decoder: ids [6, 7, 3, 1], i.e.
    // "mouse . black" then EOS, and the step view shows PyTorch's weights and probabilities.
    void stepsShowWhatPyTorchComputed()
    {
        const QJsonObject expected = firstCase(QStringLiteral("tutorial-bahdanau"));
        ui::Seq2SeqWindow window;
        window.show();
        QVERIFY(window.openFolder(fixture(QStringLiteral("tutorial-bahdanau"))));
        window.setSource(expected[QStringLiteral("text")].toString());
        QVERIFY(window.decoding());
        QCOMPARE(window.decoding()->outputIds, (std::vector<int>{6, 7, 3, 1}));
        QCOMPARE(window.shownSteps(), 1);
        QCOMPARE(window.translationLabel()->text(), QStringLiteral("mouse"));

        const QJsonArray steps = expected[QStringLiteral("steps")].toArray();
        for (int s = 0; s < 3; ++s) {
            const QJsonObject step = steps[s].toObject();
            // The weights panel (the second) holds this step's attention over the 9 source
            // positions.
            const auto& panels = window.stepView()->panels();
            QCOMPARE(panels.size(), std::size_t(2));
            const QJsonArray attention = step[QStringLiteral("attention")].toArray();
            QCOMPARE(panels[1].matrix.rows(), Eigen::Index(attention.size()));
            for (int j = 0; j < attention.size(); ++j)
                QVERIFY(std::abs(double(panels[1].matrix(j, 0)) - attention[j].toDouble()) < 1e-6);
            QCOMPARE(panels[1].rowLabels.last(), QStringLiteral("<EOS>"));
            QCOMPARE(panels[1].rowLabels.first(), QStringLiteral("le"));
            // The likeliest next word first, with exp(log p) to three decimals.
            const int chosen = step[QStringLiteral("output_id")].toInt();
            const double p =
                std::exp(step[QStringLiteral("log_probs")].toArray()[chosen].toDouble());
            QCOMPARE(window.nextWordTable()->item(0, 1)->text(), QString::number(p, 'f', 3));
            // The alignment grows by one row per step.
            QCOMPARE(window.alignmentView()->panels()[0].matrix.rows(), Eigen::Index(s + 1));
            window.showSteps(window.shownSteps() + 1);
        }
        QCOMPARE(window.nextWordTable()->item(0, 0)->text(), QStringLiteral("<EOS>"));
        QCOMPARE(window.translationLabel()->text(), QStringLiteral("mouse . black"));
        window.showSteps(99);
        QCOMPARE(window.shownSteps(), 4);
        window.showSteps(1);
        QCOMPARE(window.translationLabel()->text(), QStringLiteral("mouse"));
    }

    // File > Sequence to Sequence… in the explorer opens one, which the window manager keeps.
    void explorerOpensOne()
    {
        QStandardPaths::setTestModeEnabled(true);
        ui::WindowManager windows;
        ui::ExplorerWindow explorer(std::make_unique<core::CpuBackend>(), QString(), &windows);
        auto* action = explorer.findChild<QAction*>(QStringLiteral("openSeq2SeqAction"));
        QVERIFY(action);
        action->trigger();
        QCOMPARE(windows.seq2seqWindows().size(), 1);
        ui::Seq2SeqWindow* opened = windows.seq2seqWindows().first();
        QVERIFY(opened->isVisible());
        QVERIFY(opened->alignmentView()->message().contains(QStringLiteral("Training tab")));
        opened->close(); // deleted on close
        QTRY_COMPARE(windows.seq2seqWindows().size(), 0);
        explorer.document()->undoStack()->setClean();
    }

    void badInputIsSaidAndLosesNothing()
    {
        ui::Seq2SeqWindow window;
        window.setSource(QStringLiteral("le chat"));
        QCOMPARE(window.message(),
                 QStringLiteral("Open a model folder or train one on a task first."));
        QVERIFY(window.openFolder(fixture(QStringLiteral("tutorial-bahdanau"))));
        window.setSource(QStringLiteral("le chat"));
        const std::vector<int> before = window.decoding()->outputIds;
        window.setSource(QStringLiteral("le chien"));
        QCOMPARE(window.message(),
                 QStringLiteral(
                     "the word \"chien\" is not in the source vocabulary (source_vocab.json)"));
        QCOMPARE(window.decoding()->outputIds, before);

        QTemporaryDir empty;
        QVERIFY(!window.openFolder(empty.path()));
        QVERIFY(window.message().startsWith(QStringLiteral("Cannot open ")));
        QVERIFY(window.message().contains(QStringLiteral("config.json")));
        QVERIFY(window.model() && window.model()->hiddenSize == 5); // the open model stays
    }

    // A model without attention has no alignment to show, and says why.
    void noAttentionSaysSo()
    {
        ui::Seq2SeqWindow window;
        QVERIFY(window.openFolder(fixture(QStringLiteral("tutorial-no-attention"))));
        window.setSource(QStringLiteral("la souris"));
        QVERIFY(window.alignmentView()->message().contains(QStringLiteral("no attention")));
        QVERIFY(window.alignmentView()->panels().empty());
    }

    // Training the dates task from the window, off the UI thread; the trained model translates
    // the example it is given.
    void trainsTheDatesTask()
    {
        ui::Seq2SeqWindow window;
        window.show();
        QSignalSpy finished(&window, &ui::Seq2SeqWindow::trainingFinished);
        window.startTraining(QStringLiteral("dates"), 20);
        QVERIFY(window.isTraining());
        QVERIFY(finished.wait(120000));
        QVERIFY(!window.isTraining());
        QVERIFY(window.model());
        QCOMPARE(window.model()->tokens, core::Seq2SeqTokens::Characters);
        QVERIFY(window.decoding());
        QCOMPARE(window.decoding()->sourceWords.size(), std::size_t(11)); // "27 nov 2026"
    }

    // Stop between steps: the job says it stopped (cancelled, never finished) and is no
    // longer running, long before its 100000 steps.
    void aTrainingJobStopsWhenCancelled()
    {
        ui::Seq2SeqTrainJob job(core::makeSeq2SeqTask(core::Seq2SeqTask::Dates, 200, 20, 7),
                                core::Seq2SeqTrainingSettings(), 100000);
        QSignalSpy progress(&job, &ui::Seq2SeqTrainJob::progress);
        QSignalSpy cancelled(&job, &ui::Seq2SeqTrainJob::cancelled);
        QSignalSpy finished(&job, &ui::Seq2SeqTrainJob::finished);
        job.start();
        QVERIFY(job.isRunning());
        QVERIFY(progress.wait(30000));
        job.cancel();
        QVERIFY(cancelled.wait(30000));
        QVERIFY(!job.isRunning());
        QCOMPARE(finished.count(), 0);
        QVERIFY(progress.count() < 100000);
    }

    // Closing the window mid-training stops the job and waits for its thread before the
    // window's plots go (the sanitizer runs read freed memory or report a race otherwise;
    // without the stop, closing would wait for all 100000 steps).
    void closingTheWindowWhileTrainingStopsIt()
    {
        auto* window = new ui::Seq2SeqWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        const QPointer<ui::Seq2SeqWindow> alive(window);
        window->startTraining(QStringLiteral("dates"), 100000);
        auto* curves = window->findChild<QCustomPlot*>(QStringLiteral("trainingCurves"));
        QVERIFY(curves);
        QTRY_VERIFY_WITH_TIMEOUT(curves->graph(0)->dataCount() > 0, 30000);
        QVERIFY(window->isTraining());
        QElapsedTimer closing;
        closing.start();
        QVERIFY(window->close());
        QTRY_VERIFY(!alive);
        QVERIFY(closing.elapsed() < 20000);
    }

    // Trained with and without attention, the two models are kept: the accuracy-by-length plot
    // has two curves for each (exact match, words right), side by side, and choosing an
    // attention shows its model.
    void withAndWithoutAttentionSideBySide()
    {
        ui::Seq2SeqWindow window;
        window.show();
        window.setCompareWithoutAttention(false);
        auto* choice = window.findChild<QComboBox*>(QStringLiteral("attentionChoice"));
        QVERIFY(choice);
        QCOMPARE(choice->count(), 6);
        QSignalSpy finished(&window, &ui::Seq2SeqWindow::trainingFinished);
        window.startTraining(QStringLiteral("reverse"), 10, core::Seq2SeqAttention::None);
        QVERIFY(finished.wait(120000));
        QCOMPARE(window.model()->attention, core::Seq2SeqAttention::None);
        window.startTraining(QStringLiteral("reverse"), 10, core::Seq2SeqAttention::Dot);
        QVERIFY(finished.wait(120000));
        QCOMPARE(window.model()->attention, core::Seq2SeqAttention::Dot);
        QCustomPlot* plot = window.lengthCurves();
        QCOMPARE(plot->graphCount(), 4);
        QCOMPARE(plot->graph(0)->name(), QStringLiteral("no attention"));
        QCOMPARE(plot->graph(1)->name(), QStringLiteral("no attention, words right"));
        QCOMPARE(plot->graph(2)->name(), QStringLiteral("Luong's dot attention"));
        QCOMPARE(plot->graph(3)->name(), QStringLiteral("Luong's dot attention, words right"));
        // reverse: 3 to 8 letters, EOS not counted, one point a length
        QCOMPARE(plot->graph(0)->dataCount(), 6);
        QCOMPARE(plot->graph(0)->data()->at(0)->key, 3.0);
        QCOMPARE(plot->graph(1)->dataCount(), 6);
        choice->setCurrentIndex(choice->findData(int(core::Seq2SeqAttention::None)));
        QCOMPARE(window.model()->attention, core::Seq2SeqAttention::None);
        QVERIFY(!window.showTrained(core::Seq2SeqAttention::Hard)); // not trained: unchanged
        QCOMPARE(window.model()->attention, core::Seq2SeqAttention::None);
    }

    // A variant chosen in the window (LSTM, two layers, bidirectional, general attention) is
    // trained beside the same variant without attention on the same pairs: both kept, both
    // curves in one plot, and the whole training one undo step that brings back what was
    // there before (here: no model, no curves).
    void variantTrainsWithAndWithoutAttentionAsOneUndoStep()
    {
        ui::Seq2SeqWindow window;
        window.show();
        window.setVariant(core::Seq2SeqCell::Lstm, 2, true);
        QVERIFY(window.compareWithoutAttention()); // on by default
        QSignalSpy finished(&window, &ui::Seq2SeqWindow::trainingFinished);
        window.startTraining(QStringLiteral("copy"), 4, core::Seq2SeqAttention::General);
        QVERIFY(finished.wait(120000));
        const core::Seq2SeqModel* trained = window.model();
        QVERIFY(trained);
        QCOMPARE(trained->attention, core::Seq2SeqAttention::General);
        QCOMPARE(trained->cell, core::Seq2SeqCell::Lstm);
        QCOMPARE(trained->layers, 2);
        QVERIFY(trained->bidirectional);
        QCustomPlot* plot = window.lengthCurves();
        QCOMPARE(plot->graphCount(), 4);
        QCOMPARE(plot->graph(0)->name(), QStringLiteral("no attention"));
        QCOMPARE(plot->graph(2)->name(), QStringLiteral("Luong's general attention"));
        QCOMPARE(window.undoStack()->count(), 1);
        QVERIFY(window.showTrained(core::Seq2SeqAttention::None));
        QCOMPARE(window.model()->attention, core::Seq2SeqAttention::None);
        QCOMPARE(window.model()->cell, core::Seq2SeqCell::Lstm);
        QVERIFY(window.model()->bidirectional);
        window.undoStack()->undo();
        QVERIFY(!window.model());
        QCOMPARE(plot->graphCount(), 0);
        QVERIFY(!window.showTrained(core::Seq2SeqAttention::General));
        window.undoStack()->redo();
        QCOMPARE(window.model()->attention, core::Seq2SeqAttention::General);
        QCOMPARE(plot->graphCount(), 4);
        QVERIFY(window.showTrained(core::Seq2SeqAttention::None));
    }

    // The lecture's slides (File > Present…) carry each step's numbers: for the tiny model
    // PyTorch made, decoder step 2's weights over the nine source positions and its likeliest
    // next words' probabilities are PyTorch's (expected.json), and the context vector is the
    // weighted sum of the encoder states, added up here.
    void presentationSlidesShowTheStepsNumbers()
    {
        const QJsonObject expected = firstCase(QStringLiteral("tutorial-bahdanau"));
        ui::Seq2SeqWindow window;
        QVERIFY(!window.present()); // nothing translated yet
        QVERIFY(window.openFolder(fixture(QStringLiteral("tutorial-bahdanau"))));
        window.setSource(expected[QStringLiteral("text")].toString());
        const QPointer<ui::Seq2SeqPresentationWindow> shown = window.present();
        QVERIFY(shown);
        QCOMPARE(shown->slideCount(), 5); // the encoder, then "mouse", ".", "black", EOS
        shown->resize(1920, 1080);
        QVERIFY(shown->slide().textsOf(ui::SlideText::Role::Header)[0]->text.contains(
            QStringLiteral("encoder")));
        QTest::keyClick(shown, Qt::Key_Right);
        QTest::keyClick(shown, Qt::Key_Right);
        QCOMPARE(shown->slideIndex(), 2);
        const ui::Slide& slide = shown->slide();
        const auto number = [](const QString& text) {
            return QString(text).replace(QChar(0x2212), QLatin1Char('-')).toDouble();
        };
        const auto valuesOf = [&](const QString& name) {
            int panel = -1;
            for (std::size_t p = 0; p < slide.panels.size(); ++p)
                if (slide.panels[p].name == name)
                    panel = int(p);
            std::map<int, double> values;
            for (const ui::SlideText* text : slide.textsOf(ui::SlideText::Role::Value))
                if (text->panel == panel)
                    values[text->index] = number(text->text);
            return values;
        };
        const QJsonObject step = expected[QStringLiteral("steps")].toArray()[1].toObject();
        const QJsonArray attention = step[QStringLiteral("attention")].toArray();
        const std::map<int, double> weights = valuesOf(QStringLiteral("weights"));
        QCOMPARE(int(weights.size()), 9);
        for (int j = 0; j < 9; ++j)
            QVERIFY2(std::abs(weights.at(j) - attention[j].toDouble()) <= 0.005,
                     qPrintable(QString::number(j)));
        QCOMPARE(int(valuesOf(QStringLiteral("scores")).size()), 9);
        std::vector<double> probabilities;
        for (const QJsonValue& logProb : step[QStringLiteral("log_probs")].toArray())
            probabilities.push_back(std::exp(logProb.toDouble()));
        std::sort(probabilities.rbegin(), probabilities.rend());
        const std::map<int, double> next = valuesOf(QStringLiteral("next"));
        QCOMPARE(int(next.size()), 5);
        for (int k = 0; k < 5; ++k)
            QVERIFY(std::abs(next.at(k) - probabilities[std::size_t(k)]) <= 0.005);
        // c = sum_j alpha_j h_j, its first number as the slide writes it (two decimals).
        const core::Matrix& states = window.decoding()->encoderStates;
        double first = 0.0;
        for (int j = 0; j < 9; ++j)
            first += attention[j].toDouble() * double(states(j, 0));
        bool found = false;
        for (const ui::SlideText* text : slide.textsOf(ui::SlideText::Role::Numbers))
            found = found ||
                    text->text.contains(QStringLiteral("= (%1,").arg(
                        QString::number(first, 'f', 2).replace(QLatin1Char('-'), QChar(0x2212))));
        QVERIFY(found);
        QTest::keyClick(shown, Qt::Key_Escape);
        QTRY_VERIFY(!shown);
    }

    // Every variant's slides are laid out: without attention a step has no scores and no
    // weights, only the next words; Luong's and hard attention have their own lines.
    void presentationSlidesOfEveryVariant_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<bool>("scored");
        QTest::newRow("no attention") << QStringLiteral("tutorial-no-attention") << false;
        QTest::newRow("Luong's dot") << QStringLiteral("luong-dot") << true;
        QTest::newRow("hard") << QStringLiteral("hard") << true;
        QTest::newRow("bidirectional") << QStringLiteral("bidirectional-gru-bahdanau") << true;
    }

    void presentationSlidesOfEveryVariant()
    {
        QFETCH(QString, folder);
        QFETCH(bool, scored);
        const core::Seq2SeqModel model = core::loadSeq2SeqModel(fixture(folder));
        const core::Seq2SeqDecoding decoding =
            core::decodeGreedy(model, firstCase(folder)[QStringLiteral("text")].toString());
        QCOMPARE(ui::seq2seqSlideCount(decoding), 1 + int(decoding.steps.size()));
        for (int i = 0; i < ui::seq2seqSlideCount(decoding); ++i) {
            const ui::Slide slide = ui::buildSeq2SeqSlide(
                model, decoding, i, ui::PresentationTheme::Light, QSizeF(1024, 768));
            QCOMPARE(slide.textsOf(ui::SlideText::Role::Header).size(), std::size_t(1));
            QVERIFY(!slide.textsOf(ui::SlideText::Role::Numbers).empty());
            // A cell's number in black or white by the figure kit's contrast rule, as the
            // model window's panels write theirs.
            for (const ui::SlideText* number : slide.textsOf(ui::SlideText::Role::Value))
                for (const ui::SlideCell& cell : slide.cells)
                    if (cell.rect == number->box)
                        QCOMPARE(number->color, ui::textColorOn(cell.fill));
            QStringList names;
            for (const ui::SlidePanel& panel : slide.panels)
                names << panel.name;
            if (i == 0)
                QCOMPARE(names, QStringList{QStringLiteral("states")});
            else if (scored)
                QCOMPARE(names, (QStringList{QStringLiteral("scores"), QStringLiteral("weights"),
                                             QStringLiteral("next")}));
            else
                QCOMPARE(names, QStringList{QStringLiteral("next")});
        }
    }

    // The alignment as a file: text stays text in SVG and PDF.
    void alignmentExports()
    {
        const core::Seq2SeqModel model =
            core::loadSeq2SeqModel(fixture(QStringLiteral("tutorial-bahdanau")));
        const core::Seq2SeqDecoding d = core::decodeGreedy(model, QStringLiteral("le chat noir"));
        const QByteArray svg = ui::seq2seqFigureBytes(ui::Seq2SeqFigure::Alignment, model, d,
                                                      QSize(800, 600), 96.0, ui::FigureFormat::Svg);
        QVERIFY(svg.contains("noir"));
        QVERIFY(svg.contains("&lt;EOS&gt;"));
        const QByteArray pdf = ui::seq2seqFigureBytes(ui::Seq2SeqFigure::HiddenStates, model, d,
                                                      QSize(800, 600), 96.0, ui::FigureFormat::Pdf);
        QVERIFY(pdf.startsWith("%PDF"));
        const core::Seq2SeqModel plain =
            core::loadSeq2SeqModel(fixture(QStringLiteral("tutorial-no-attention")));
        QVERIFY_THROWS_EXCEPTION(
            core::Error, ui::seq2seqFigureBytes(ui::Seq2SeqFigure::Alignment, plain,
                                                core::decodeGreedy(plain, QStringLiteral("le")),
                                                QSize(800, 600), 96.0, ui::FigureFormat::Png));
    }
};

QTEST_MAIN(TestSeq2SeqWindow)
#include "tst_seq2seq_window.moc"
