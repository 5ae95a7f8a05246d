#include "ui/seq2seq/output_types_view.h"

#include "ui/seq2seq/output_types_train_job.h"
#include "ui/seq2seq/seq2seq_figures.h"
#include "ui/seq2seq/seq2seq_train_job.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/seq2seq/seq2seq_trainer.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace attn::ui {
namespace {

// The figure on screen, painted as it is in files.
class OutputTypesCanvas : public QWidget
{
public:
    OutputTypesCanvas(const OutputTypesFigure& figure, QWidget* parent)
        : QWidget(parent), m_figure(figure)
    {
        setMinimumSize(360, 220);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        paintOutputTypes(painter, QRectF(rect()), m_figure, font(), FigureStyle());
    }

private:
    const OutputTypesFigure& m_figure;
};

// Steps that train each to its promise in a few seconds here (tst_output_types; the
// english-french model translates short sentences after 600).
int defaultSteps(OutputType type)
{
    return type == OutputType::Seq2Seq ? 600 : type == OutputType::Tagging ? 100 : 300;
}

} // namespace

OutputTypesView::OutputTypesView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* trainRow = new QHBoxLayout;
    m_type = new QComboBox(this);
    m_type->setObjectName(QStringLiteral("outputType"));
    m_type->addItem(tr("Tagging (a label a word)"), int(OutputType::Tagging));
    m_type->addItem(tr("Classification (a label a sentence)"), int(OutputType::Classification));
    m_type->addItem(tr("Sequence to sequence (English → French)"), int(OutputType::Seq2Seq));
    m_pooling = new QComboBox(this);
    m_pooling->setObjectName(QStringLiteral("pooling"));
    m_pooling->addItem(tr("mean of the states"), int(core::SentencePooling::Mean));
    m_pooling->addItem(tr("first state"), int(core::SentencePooling::First));
    m_pooling->addItem(tr("last state"), int(core::SentencePooling::Last));
    m_pooling->setToolTip(tr("What the sentence classifier reads of the encoder's states. The "
                             "first state of a one-directional encoder has read one word only."));
    for (QComboBox* box : {m_type, m_pooling}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    m_steps = new QSpinBox(this);
    m_steps->setRange(10, 100000);
    m_steps->setValue(defaultSteps(OutputType::Tagging));
    m_steps->setToolTip(tr("Minibatches of 16 sentences (32 pairs for sequence to sequence)"));
    m_train = new QPushButton(tr("Train"), this);
    trainRow->addWidget(m_type, 2);
    trainRow->addWidget(m_pooling, 1);
    trainRow->addWidget(new QLabel(tr("steps"), this));
    trainRow->addWidget(m_steps);
    trainRow->addWidget(m_train);
    layout->addLayout(trainRow);

    auto* sentenceRow = new QHBoxLayout;
    sentenceRow->addWidget(new QLabel(tr("Sentence"), this));
    m_sentence = new QLineEdit(QStringLiteral("the happy cat saw a black mouse"), this);
    m_sentence->setObjectName(QStringLiteral("outputTypesSentence"));
    m_sentence->setToolTip(tr("Words of the built-in English grammar: the, a, cat, dog, bird, "
                              "boy, book, mouse, girl, house, apple, car, black, white, green, "
                              "red, blue, happy, sad, ate, saw, chased, liked, found, took, and"));
    sentenceRow->addWidget(m_sentence, 1);
    auto* exportButton = new QPushButton(tr("Export Figure…"), this);
    sentenceRow->addWidget(exportButton);
    layout->addLayout(sentenceRow);

    m_canvas = new OutputTypesCanvas(m_figure, this);
    m_canvas->setObjectName(QStringLiteral("outputTypesFigure"));
    layout->addWidget(m_canvas, 3);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_curves = new QCustomPlot(this);
    m_curves->setObjectName(QStringLiteral("outputTypesCurves"));
    m_curves->setMinimumHeight(180);
    setUpTrainingCurves(*m_curves, tr("loss"), tr("loss (nats)"), tr("held-out accuracy"),
                        tr("step"));
    // Between the falling loss and the rising accuracy.
    m_curves->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignRight | Qt::AlignVCenter);
    layout->addWidget(m_curves, 2);

    connect(m_type, &QComboBox::currentIndexChanged, this, [this] {
        const OutputType type = OutputType(m_type->currentData().toInt());
        m_pooling->setEnabled(type == OutputType::Classification);
        m_steps->setValue(defaultSteps(type));
        refresh();
    });
    connect(m_pooling, &QComboBox::currentIndexChanged, this, &OutputTypesView::refresh);
    connect(m_train, &QPushButton::clicked, this, &OutputTypesView::trainClicked);
    connect(m_sentence, &QLineEdit::textChanged, this, &OutputTypesView::refresh);
    connect(exportButton, &QPushButton::clicked, this, &OutputTypesView::exportFigure);
    m_pooling->setEnabled(false);
    refresh();
}

OutputTypesView::~OutputTypesView() = default;

QString OutputTypesView::status() const
{
    return m_status->text();
}

void OutputTypesView::setSentence(const QString& text)
{
    m_sentence->setText(text);
}

void OutputTypesView::chooseType(OutputType type)
{
    m_type->setCurrentIndex(m_type->findData(int(type)));
}

void OutputTypesView::choosePooling(core::SentencePooling pooling)
{
    m_pooling->setCurrentIndex(m_pooling->findData(int(pooling)));
}

void OutputTypesView::refresh()
{
    OutputTypesFigure& f = m_figure;
    const QString text = m_sentence->text();
    f.chosen = OutputType(m_type->currentData().toInt());
    f.words.clear();
    for (const std::string& word : core::normalizeSeq2SeqSource(text))
        f.words << QString::fromStdString(word);
    f.tagging.reset();
    f.classification.reset();
    f.decoding.reset();
    const QString untrained = tr("Not trained yet: choose it above and press Train.");
    for (QString& note : f.notes)
        note = untrained;
    const auto names = [](const std::vector<std::string>& labels) {
        QStringList out;
        for (const std::string& label : labels)
            out << QString::fromStdString(label);
        return out;
    };
    // A word the grammar lacks leaves that panel with the reason, the others drawn.
    const auto run = [&](OutputType type, auto&& compute) {
        try {
            compute();
        } catch (const core::Error& e) {
            f.notes[int(type)] = QString::fromUtf8(e.what());
        }
    };
    if (m_tagger)
        run(OutputType::Tagging, [&] {
            f.tagging = core::runOutputHead(*m_tagger, core::outputHeadIds(*m_tagger, text));
            f.tagNames = names(m_tagger->labels);
        });
    if (m_classifier)
        run(OutputType::Classification, [&] {
            f.classification =
                core::runOutputHead(*m_classifier, core::outputHeadIds(*m_classifier, text));
            f.classNames = names(m_classifier->labels);
            f.pooling = m_classifier->pooling;
        });
    else
        f.pooling = core::SentencePooling(m_pooling->currentData().toInt());
    if (m_seq2seq)
        run(OutputType::Seq2Seq, [&] {
            f.decoding = core::decodeGreedy(*m_seq2seq, text);
            f.targetWords.clear();
            for (const int id : f.decoding->outputIds)
                f.targetWords << QString::fromStdString(m_seq2seq->target.words[std::size_t(id)]);
        });
    m_canvas->update();
}

void OutputTypesView::trainClicked()
{
    if (isTraining()) {
        m_headJob.reset();
        m_seq2seqJob.reset();
        m_train->setText(tr("Train"));
        m_status->setText(tr("Training stopped; the model shown is unchanged."));
        return;
    }
    startTraining(OutputType(m_type->currentData().toInt()), m_steps->value());
}

void OutputTypesView::plotProgress(int step, double loss, double accuracy)
{
    addTrainingPoint(*m_curves, step, loss, accuracy);
    m_status->setText(tr("step %1 of %2 · loss %3")
                          .arg(step)
                          .arg(int(m_curves->xAxis->range().upper))
                          .arg(loss, 0, 'f', 4));
}

void OutputTypesView::startTraining(OutputType type, int steps)
{
    m_headJob.reset();
    m_seq2seqJob.reset();
    {
        const QSignalBlocker block(m_type);
        chooseType(type);
        m_pooling->setEnabled(type == OutputType::Classification);
    }
    m_curves->graph(0)->data()->clear();
    m_curves->graph(1)->data()->clear();
    m_curves->xAxis->setRange(0, steps);
    m_train->setText(tr("Stop"));
    if (type == OutputType::Seq2Seq) {
        m_seq2seqJob = std::make_unique<Seq2SeqTrainJob>(
            core::makeSeq2SeqTask(core::Seq2SeqTask::EnglishFrench, 20000, 200, 7),
            core::Seq2SeqTrainingSettings(), steps);
        connect(m_seq2seqJob.get(), &Seq2SeqTrainJob::progress, this,
                &OutputTypesView::plotProgress);
        connect(m_seq2seqJob.get(), &Seq2SeqTrainJob::finished, this,
                [this](std::shared_ptr<const core::Seq2SeqModel> model, double accuracy,
                       const QVector<QPointF>&) {
                    m_seq2seq = std::move(model);
                    finishTraining(OutputType::Seq2Seq, accuracy);
                });
        connect(m_seq2seqJob.get(), &Seq2SeqTrainJob::failed, this, [this](const QString& why) {
            m_seq2seqJob.reset();
            m_train->setText(tr("Train"));
            m_status->setText(tr("Training failed: %1").arg(why));
        });
        m_seq2seqJob->start();
        return;
    }
    core::OutputHeadSettings settings;
    settings.pooling = core::SentencePooling(m_pooling->currentData().toInt());
    const core::OutputHeadKind kind = type == OutputType::Tagging
                                          ? core::OutputHeadKind::Tagging
                                          : core::OutputHeadKind::Classification;
    m_headJob = std::make_unique<OutputTypesTrainJob>(kind, settings, steps);
    connect(m_headJob.get(), &OutputTypesTrainJob::progress, this, &OutputTypesView::plotProgress);
    connect(m_headJob.get(), &OutputTypesTrainJob::finished, this,
            [this, type](std::shared_ptr<const core::OutputHeadModel> model, double accuracy) {
                (type == OutputType::Tagging ? m_tagger : m_classifier) = std::move(model);
                finishTraining(type, accuracy);
            });
    connect(m_headJob.get(), &OutputTypesTrainJob::failed, this, [this](const QString& why) {
        m_headJob.reset();
        m_train->setText(tr("Train"));
        m_status->setText(tr("Training failed: %1").arg(why));
    });
    m_headJob->start();
}

void OutputTypesView::finishTraining(OutputType type, double accuracy)
{
    m_headJob.reset();
    m_seq2seqJob.reset();
    m_train->setText(tr("Train"));
    const QString what = type == OutputType::Tagging ? tr("held-out words tagged right: %1%")
                         : type == OutputType::Classification
                             ? tr("held-out sentences classified right: %1%")
                             : tr("held-out sentences translated exactly: %1%");
    m_status->setText(what.arg(accuracy * 100.0, 0, 'f', 1));
    m_curves->replot();
    refresh();
    emit trainingFinished();
}

bool OutputTypesView::exportTo(const QString& path)
{
    const auto format = figureFormatForPath(path);
    if (!format) {
        emit message(tr("%1: the name must end in .pdf, .svg or .png.").arg(path));
        return false;
    }
    try {
        core::writeFileAtomically(
            path, outputTypesFigureBytes(m_figure, outputTypesFigureSize(m_figure, 150.0), 150.0,
                                         *format));
    } catch (const std::exception& e) {
        emit message(tr("Not exported: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    emit message(tr("Exported %1.").arg(QDir::toNativeSeparators(path)));
    return true;
}

void OutputTypesView::exportFigure()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Figure"), QStringLiteral("output-types.pdf"),
                                     tr("PDF (*.pdf);;SVG (*.svg);;PNG (*.png)"));
    if (!path.isEmpty())
        exportTo(path);
}

} // namespace attn::ui
