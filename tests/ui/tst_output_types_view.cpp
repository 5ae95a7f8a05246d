// The output types side by side (the sequence-to-sequence window's Output Types tab): a tagger
// and a sentence classifier trained live from the tab, the sentence typed and each word's tag
// shown, a word outside the grammar named in its panel, and the figure in files.
#include "ui/model/matrix_panels_view.h"
#include "ui/seq2seq/output_types_figure.h"
#include "ui/seq2seq/output_types_train_job.h"
#include "ui/seq2seq/output_types_view.h"
#include "ui/seq2seq/seq2seq_window.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

using namespace attn;

namespace {

// A decoding of two source words into three steps, made by hand: what the figure's third panel
// draws (the decoder's states, its outputs, a line per attention weight).
core::Seq2SeqDecoding handDecoding()
{
    core::Seq2SeqDecoding d;
    d.sourceWords = {"the", "cat"};
    d.sourceIds = {2, 3, 1};
    d.encoderStates = core::Matrix::Constant(3, 4, 0.5f);
    for (int i = 0; i < 3; ++i) {
        core::Seq2SeqStep s;
        s.attention = core::RowVector::Zero(3);
        s.attention(std::min(i, 2)) = 1.0f;
        s.hidden = core::RowVector::Constant(4, -0.5f);
        d.steps.push_back(s);
    }
    d.outputIds = {4, 5, 1};
    return d;
}

} // namespace

class TestOutputTypesView : public QObject
{
    Q_OBJECT

private slots:
    // Tagging trained from the tab (100 steps: every held-out word right, tst_output_types):
    // the curve grows a point a step, and each word of the sentence gets its part of speech.
    void taggerTrainsAndTagsEachWord()
    {
        ui::OutputTypesView view;
        view.resize(900, 600);
        view.setSentence(QStringLiteral("the black cat ate a mouse"));
        QVERIFY(!view.figure().tagging);
        QSignalSpy finished(&view, &ui::OutputTypesView::trainingFinished);
        view.startTraining(ui::OutputType::Tagging, 100);
        QVERIFY(view.isTraining());
        QVERIFY(finished.wait(30000));
        QVERIFY(!view.isTraining());
        QCOMPARE(view.curves()->graph(0)->dataCount(), 100);
        QCOMPARE(view.status(), QStringLiteral("held-out words tagged right: 100.0%"));
        const ui::OutputTypesFigure& f = view.figure();
        QVERIFY(f.tagging);
        QCOMPARE(f.chosen, ui::OutputType::Tagging);
        QStringList tags;
        for (const int label : f.tagging->labels)
            tags << f.tagNames[label];
        QCOMPARE(tags, (QStringList{"DET", "ADJ", "NOUN", "VERB", "DET", "NOUN"}));
        QCOMPARE(f.tagging->states.rows(), Eigen::Index(6));

        // Typing changes the figure at once; a word outside the grammar is named in the panel.
        view.setSentence(QStringLiteral("the dragon ate"));
        QVERIFY(!view.figure().tagging);
        QCOMPARE(view.figure().notes[int(ui::OutputType::Tagging)],
                 QStringLiteral("the word \"dragon\" is not in the vocabulary"));
    }

    // Closing the tab mid-training stops the job and waits for its thread before the tab's
    // plot goes (the AddressSanitizer run reads freed memory otherwise; without the stop,
    // closing would wait for all 100000 steps). The tagger's own job says it stopped.
    void closingWhileTrainingStopsIt()
    {
        auto* view = new ui::OutputTypesView;
        view->startTraining(ui::OutputType::Tagging, 100000);
        QTRY_VERIFY_WITH_TIMEOUT(view->curves()->graph(0)->dataCount() > 0, 30000);
        QVERIFY(view->isTraining());
        QElapsedTimer closing;
        closing.start();
        delete view;
        QVERIFY(closing.elapsed() < 20000);

        ui::OutputTypesTrainJob job(core::OutputHeadKind::Tagging, core::OutputHeadSettings(),
                                    100000);
        QSignalSpy progress(&job, &ui::OutputTypesTrainJob::progress);
        QSignalSpy cancelled(&job, &ui::OutputTypesTrainJob::cancelled);
        QSignalSpy finished(&job, &ui::OutputTypesTrainJob::finished);
        job.start();
        QVERIFY(progress.wait(30000));
        job.cancel();
        QVERIFY(cancelled.wait(30000));
        QVERIFY(!job.isRunning());
        QCOMPARE(finished.count(), 0);
    }

    // The classifier reads the pooling chosen before training; a third is chance.
    void classifierReadsItsPooling()
    {
        ui::OutputTypesView view;
        view.chooseType(ui::OutputType::Classification);
        view.choosePooling(core::SentencePooling::Last);
        view.setSentence(QStringLiteral("the happy dog chased a red car"));
        QSignalSpy finished(&view, &ui::OutputTypesView::trainingFinished);
        view.startTraining(ui::OutputType::Classification, 300);
        QVERIFY(finished.wait(30000));
        const ui::OutputTypesFigure& f = view.figure();
        QVERIFY(f.classification);
        QCOMPARE(f.pooling, core::SentencePooling::Last);
        QCOMPARE(f.classification->probabilities.rows(), Eigen::Index(1));
        QCOMPARE(f.classNames[f.classification->labels[0]], QStringLiteral("happy"));
        // the last state is what the classifier read
        QVERIFY((f.classification->pooled - f.classification->states.row(6)).norm() < 1e-6f);
    }

    // The figure in files: PNG at its size, SVG and PDF with the words and the tags as text.
    void figureIsExported()
    {
        ui::OutputTypesFigure f;
        f.words = {QStringLiteral("the"), QStringLiteral("cat")};
        f.chosen = ui::OutputType::Seq2Seq;
        f.decoding = handDecoding();
        f.targetWords = {QStringLiteral("le"), QStringLiteral("chat"), QStringLiteral("EOS")};
        f.notes[int(ui::OutputType::Tagging)] = QStringLiteral("untrained tagger");
        QTemporaryDir dir;
        const QByteArray png =
            ui::outputTypesFigureBytes(f, QSize(900, 450), 96.0, ui::FigureFormat::Png);
        QImage image;
        QVERIFY(image.loadFromData(png, "PNG"));
        QCOMPARE(image.size(), QSize(900, 450));
        const QByteArray svg =
            ui::outputTypesFigureBytes(f, QSize(900, 450), 96.0, ui::FigureFormat::Svg);
        for (const char* text :
             {"Tagging", "Classification", "Sequence to sequence", "chat", "untrained tagger"})
            QVERIFY2(svg.contains(text), text);
        QVERIFY(ui::outputTypesFigureBytes(f, QSize(900, 450), 96.0, ui::FigureFormat::Pdf)
                    .startsWith("%PDF"));

        ui::OutputTypesView view;
        QSignalSpy message(&view, &ui::OutputTypesView::message);
        QVERIFY(view.exportTo(dir.filePath(QStringLiteral("types.svg"))));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("types.svg"))));
        QVERIFY(!view.exportTo(dir.filePath(QStringLiteral("types.gif"))));
        QVERIFY(message.last().first().toString().endsWith(
            QStringLiteral("the name must end in .pdf, .svg or .png.")));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("types.gif"))));
    }

    // The window's tab: the decoder's step panel makes room while it is shown.
    void windowHasTheTab()
    {
        ui::Seq2SeqWindow window;
        window.resize(1024, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTabWidget* tabs = window.tabs();
        QCOMPARE(tabs->tabText(tabs->indexOf(window.outputTypesView())),
                 QStringLiteral("Output Types"));
        QWidget* stepPanel = window.stepView()->parentWidget();
        QVERIFY(stepPanel->isVisible());
        tabs->setCurrentWidget(window.outputTypesView());
        QVERIFY(!stepPanel->isVisible());
        QTRY_VERIFY(window.outputTypesView()->canvas()->width() > 700);
        tabs->setCurrentIndex(0);
        QVERIFY(stepPanel->isVisible());
    }
};

QTEST_MAIN(TestOutputTypesView)
#include "tst_output_types_view.moc"
