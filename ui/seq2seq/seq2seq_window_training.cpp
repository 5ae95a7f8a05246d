// The Seq2SeqWindow's training: the row that chooses the task and the variant, the live curves,
// the accuracy by length with and without attention, and a training's result as one undo step.
#include "ui/model/matrix_panels_view.h"
#include "ui/seq2seq/seq2seq_train_job.h"
#include "ui/seq2seq/seq2seq_window.h"

#include "core/seq2seq/seq2seq_trainer.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTabWidget>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace attn::ui {

// A training's result: the model shown, those kept and the curves, before and after.
class Seq2SeqTrainCommand final : public QUndoCommand
{
public:
    Seq2SeqTrainCommand(Seq2SeqWindow& window, Seq2SeqWindow::TrainedState before,
                        Seq2SeqWindow::TrainedState after, const QString& text)
        : QUndoCommand(text), m_window(window), m_before(std::move(before)),
          m_after(std::move(after))
    {
    }
    void redo() override { m_window.restoreTrained(m_after); }
    void undo() override { m_window.restoreTrained(m_before); }

private:
    Seq2SeqWindow& m_window;
    Seq2SeqWindow::TrainedState m_before, m_after;
};

namespace {

constexpr core::Seq2SeqAttention kAttentions[] = {
    core::Seq2SeqAttention::Bahdanau, core::Seq2SeqAttention::None,   core::Seq2SeqAttention::Dot,
    core::Seq2SeqAttention::General,  core::Seq2SeqAttention::Concat, core::Seq2SeqAttention::Hard};

// One Okabe-Ito colour per attention (told apart in colour blindness and on a projector), the
// same in both plots: no attention orange, additive blue.
QColor curveColor(core::Seq2SeqAttention attention)
{
    static const QColor colors[] = {QColor(0xd5, 0x5e, 0x00), QColor(0x00, 0x72, 0xb2),
                                    QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                    QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9)};
    return colors[std::size_t(attention) % std::size(colors)];
}

// A legend that hides little of the curves: small type, in a corner.
void placeLegend(QCustomPlot& plot, Qt::Alignment corner)
{
    plot.legend->setVisible(true);
    QFont font = plot.legend->font();
    font.setPointSizeF(font.pointSizeF() * 0.85);
    plot.legend->setFont(font);
    plot.axisRect()->insetLayout()->setInsetAlignment(0, corner);
}

} // namespace

QWidget* Seq2SeqWindow::buildTrainingPage(QWidget* parent)
{
    // Training: a built-in task, its loss and held-out accuracy as it learns.
    auto* trainingPage = new QWidget(parent);
    auto* trainingLayout = new QVBoxLayout(trainingPage);
    auto* trainRow = new QHBoxLayout;
    trainRow->addWidget(new QLabel(tr("Train on"), trainingPage));
    m_task = new QComboBox(trainingPage);
    m_task->addItem(tr("dates (27 nov 2026 → 2026-11-27)"), QStringLiteral("dates"));
    m_task->addItem(tr("reverse (a b c → c b a)"), QStringLiteral("reverse"));
    m_task->addItem(tr("sort (c a b → a b c)"), QStringLiteral("sort"));
    m_task->addItem(tr("copy (a b c → a b c)"), QStringLiteral("copy"));
    m_task->addItem(tr("English → French (the black cat → le chat noir)"),
                    QStringLiteral("english-french"));
    connect(m_task, &QComboBox::currentIndexChanged, this, [this] {
        const auto task = core::parseSeq2SeqTask(m_task->currentData().toString().toStdString());
        if (task)
            m_steps->setValue(core::seq2seqTaskDefaults(*task).steps);
    });
    trainRow->addWidget(m_task);
    m_attention = new QComboBox(trainingPage);
    m_attention->setObjectName(QStringLiteral("attentionChoice"));
    for (const core::Seq2SeqAttention attention : kAttentions)
        m_attention->addItem(attentionLabel(attention), int(attention));
    m_attention->setToolTip(tr("The decoder's attention. A model trained here with each is "
                               "kept: choosing one shows its translation and alignment."));
    connect(m_attention, &QComboBox::currentIndexChanged, this,
            [this] { showTrained(core::Seq2SeqAttention(m_attention->currentData().toInt())); });
    // Both choices may shrink to a few letters: the row fits 1024 pixels.
    for (QComboBox* box : {m_task, m_attention}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(10);
    }
    trainRow->addWidget(m_attention);
    trainRow->addWidget(new QLabel(tr("steps"), trainingPage));
    m_steps = new QSpinBox(trainingPage);
    m_steps->setRange(10, 100000);
    m_steps->setValue(core::seq2seqTaskDefaults(core::Seq2SeqTask::Dates).steps);
    m_steps->setToolTip(tr("Minibatches of 32 sentence pairs"));
    trainRow->addWidget(m_steps);
    m_train = new QPushButton(tr("Train"), trainingPage);
    connect(m_train, &QPushButton::clicked, this, [this] {
        if (m_job) {
            m_job.reset();
            m_train->setText(tr("Train"));
            setMessage(tr("Training stopped; the model shown is unchanged."));
            return;
        }
        startTraining(m_task->currentData().toString(), m_steps->value(),
                      core::Seq2SeqAttention(m_attention->currentData().toInt()));
    });
    trainRow->addWidget(m_train);
    trainingLayout->addLayout(trainRow);

    // The variant: the cell, the layers, the encoder's directions, and a model without
    // attention trained beside it.
    auto* variantRow = new QHBoxLayout;
    variantRow->addWidget(new QLabel(tr("cell"), trainingPage));
    m_cell = new QComboBox(trainingPage);
    m_cell->setObjectName(QStringLiteral("cellChoice"));
    m_cell->addItem(QStringLiteral("GRU"), int(core::Seq2SeqCell::Gru));
    m_cell->addItem(QStringLiteral("LSTM"), int(core::Seq2SeqCell::Lstm));
    variantRow->addWidget(m_cell);
    variantRow->addWidget(new QLabel(tr("layers"), trainingPage));
    m_layers = new QComboBox(trainingPage);
    m_layers->setObjectName(QStringLiteral("layersChoice"));
    m_layers->addItem(QStringLiteral("1"), 1);
    m_layers->addItem(QStringLiteral("2"), 2);
    variantRow->addWidget(m_layers);
    m_bidirectional = new QCheckBox(tr("bidirectional encoder"), trainingPage);
    m_bidirectional->setObjectName(QStringLiteral("bidirectionalChoice"));
    m_bidirectional->setToolTip(
        tr("The encoder reads the sentence both ways; each source word's state is "
           "[forward; backward] (Bahdanau et al. 2015, section 3.2)."));
    variantRow->addWidget(m_bidirectional);
    m_compare = new QCheckBox(tr("and without attention"), trainingPage);
    m_compare->setObjectName(QStringLiteral("compareChoice"));
    m_compare->setChecked(true);
    m_compare->setToolTip(tr("Trains a second model of the same variant without attention on "
                             "the same pairs, and plots both by sentence length."));
    variantRow->addWidget(m_compare);
    variantRow->addStretch(1);
    trainingLayout->addLayout(variantRow);
    // On a line of its own: two models' accuracies fit a 1024-pixel window.
    m_status = new QLabel(trainingPage);
    m_status->setWordWrap(true);
    trainingLayout->addWidget(m_status);

    m_curves = new QCustomPlot(trainingPage);
    m_curves->setObjectName(QStringLiteral("trainingCurves"));
    trainingLayout->addWidget(m_curves, 1);
    m_curves->xAxis->setLabel(tr("step"));
    m_curves->yAxis->setLabel(tr("loss per word (nats)"));
    m_curves->yAxis2->setLabel(tr("held-out exact match"));
    m_curves->yAxis2->setVisible(true);
    m_curves->yAxis2->setRange(0, 1);
    placeLegend(*m_curves, Qt::AlignRight | Qt::AlignVCenter);
    m_lengthCurves = new QCustomPlot(trainingPage);
    m_lengthCurves->setObjectName(QStringLiteral("lengthCurves"));
    m_lengthCurves->xAxis->setLabel(tr("source length (tokens)"));
    m_lengthCurves->yAxis->setLabel(tr("held-out accuracy"));
    m_lengthCurves->yAxis->setRange(0, 1.05);
    // The curve without attention falls from the top left: the bottom left stays clear.
    placeLegend(*m_lengthCurves, Qt::AlignLeft | Qt::AlignBottom);
    trainingLayout->addWidget(m_lengthCurves, 1);
    return trainingPage;
}

void Seq2SeqWindow::setVariant(core::Seq2SeqCell cell, int layers, bool bidirectional)
{
    m_cell->setCurrentIndex(m_cell->findData(int(cell)));
    m_layers->setCurrentIndex(std::max(0, m_layers->findData(layers)));
    m_bidirectional->setChecked(bidirectional);
}

void Seq2SeqWindow::setCompareWithoutAttention(bool compare)
{
    m_compare->setChecked(compare);
}

bool Seq2SeqWindow::compareWithoutAttention() const
{
    return m_compare->isChecked();
}

bool Seq2SeqWindow::showTrained(core::Seq2SeqAttention attention)
{
    const QString task = m_task->currentData().toString();
    const auto it = m_trained.find({task, int(attention)});
    if (it == m_trained.end())
        return false;
    setModel(it->second, tr("%1 (trained here)").arg(task));
    return true;
}

Seq2SeqWindow::TrainedState Seq2SeqWindow::trainedState() const
{
    return {m_model, m_modelName, m_trained, m_curveData};
}

void Seq2SeqWindow::restoreTrained(const TrainedState& state)
{
    m_trained = state.trained;
    m_curveData = state.curves;
    redrawLengthCurves(m_curveData.empty() ? QString() : m_curveData.back().task);
    if (state.model) {
        setModel(state.model, state.name);
    } else {
        m_model.reset();
        m_modelName.clear();
        m_modelLabel->setText(tr("No model yet"));
        m_decoding.reset();
        m_shown = 0;
        refreshStep();
    }
}

// One pair of curves per attention trained on `task` (exact match solid, tokens right dashed),
// in the order trained: with and without attention side by side.
void Seq2SeqWindow::redrawLengthCurves(const QString& task)
{
    QCustomPlot& plot = *m_lengthCurves;
    plot.clearGraphs();
    for (const LengthCurve& curve : m_curveData) {
        if (curve.task != task)
            continue;
        const QColor color = curveColor(core::Seq2SeqAttention(curve.attention));
        const QString name = attentionLabel(core::Seq2SeqAttention(curve.attention));
        QCPGraph* exact = plot.addGraph();
        exact->setName(name);
        exact->setPen(QPen(color, 2));
        exact->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
        for (const QPointF& point : curve.exact)
            exact->addData(point.x(), point.y());
        QCPGraph* tokens = plot.addGraph();
        tokens->setName(tr("%1, words right").arg(name));
        tokens->setPen(QPen(color, 1.5, Qt::DashLine));
        for (const QPointF& point : curve.tokens)
            tokens->addData(point.x(), point.y());
    }
    plot.xAxis->rescale();
    plot.replot(QCustomPlot::rpQueuedReplot);
}

void Seq2SeqWindow::startTraining(const QString& task, int steps, core::Seq2SeqAttention attention)
{
    const auto kind = core::parseSeq2SeqTask(task.toStdString());
    if (!kind) {
        setMessage(tr("There is no built-in task “%1”.").arg(task));
        return;
    }
    // The choices show what is trained (a call from outside the training row included).
    {
        const QSignalBlocker blockTask(m_task), blockAttention(m_attention);
        m_task->setCurrentIndex(std::max(0, m_task->findData(task)));
        m_attention->setCurrentIndex(m_attention->findData(int(attention)));
    }
    m_steps->setValue(steps);
    core::Seq2SeqTrainingSettings settings = core::seq2seqTaskDefaults(*kind).settings;
    settings.attention = attention;
    settings.cell = core::Seq2SeqCell(m_cell->currentData().toInt());
    settings.layers = m_layers->currentData().toInt();
    settings.bidirectional = m_bidirectional->isChecked();
    if (settings.bidirectional && attention == core::Seq2SeqAttention::Dot) {
        setMessage(tr("Dot attention needs the encoder's states as wide as the decoder's; a "
                      "bidirectional encoder's are twice as wide. Choose general attention."));
        return;
    }
    std::vector<core::Seq2SeqTrainingSettings> variants{settings};
    if (m_compare->isChecked() && attention != core::Seq2SeqAttention::None) {
        variants.push_back(settings);
        variants.back().attention = core::Seq2SeqAttention::None;
    }
    m_job = std::make_unique<Seq2SeqTrainJob>(core::makeSeq2SeqTask(*kind, 20000, 200, 7), variants,
                                              steps);
    m_curves->clearGraphs();
    for (std::size_t v = 0; v < variants.size(); ++v) {
        const QColor color = curveColor(variants[v].attention);
        const QString name = attentionLabel(variants[v].attention);
        QCPGraph* loss = m_curves->addGraph();
        loss->setName(tr("loss per word, %1").arg(name));
        loss->setPen(QPen(color, 1.5));
        QCPGraph* exact = m_curves->addGraph(m_curves->xAxis, m_curves->yAxis2);
        exact->setName(tr("held-out exact match, %1").arg(name));
        exact->setPen(QPen(color, 2, Qt::DashLine));
        exact->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    }
    m_curves->xAxis->setRange(0, steps);
    m_tabs->setCurrentWidget(m_curves->parentWidget());
    m_train->setText(tr("Stop"));
    connect(m_job.get(), &Seq2SeqTrainJob::variantProgress, this,
            [this, steps](int variant, int step, double loss, double accuracy) {
                m_curves->graph(2 * variant)->addData(step, loss);
                if (accuracy >= 0.0)
                    m_curves->graph(2 * variant + 1)->addData(step, accuracy);
                m_curves->yAxis->rescale();
                m_curves->yAxis->setRangeLower(0);
                m_curves->replot(QCustomPlot::rpQueuedReplot);
                if (variant == 0)
                    m_status->setText(
                        tr("step %1 of %2 · loss %3").arg(step).arg(steps).arg(loss, 0, 'f', 4));
            });
    connect(m_job.get(), &Seq2SeqTrainJob::variantsFinished, this,
            [this, task](const std::vector<Seq2SeqTrained>& trained) {
                m_job.reset();
                m_train->setText(tr("Train"));
                trainingFinishedWith(task, trained);
                emit trainingFinished();
            });
    connect(m_job.get(), &Seq2SeqTrainJob::failed, this, [this](const QString& message) {
        m_job.reset();
        m_train->setText(tr("Train"));
        setMessage(tr("Training failed: %1").arg(message));
    });
    m_job->start();
}

void Seq2SeqWindow::trainingFinishedWith(const QString& task,
                                         const std::vector<Seq2SeqTrained>& trained)
{
    TrainedState after = trainedState();
    // The last trained shown: without attention first, the chosen attention last.
    for (auto t = trained.rbegin(); t != trained.rend(); ++t) {
        const int attention = int(t->settings.attention);
        after.trained[{task, attention}] = t->model;
        std::erase_if(after.curves, [&](const LengthCurve& curve) {
            return curve.task == task && curve.attention == attention;
        });
        after.curves.push_back({task, attention, t->exactByLength, t->tokensByLength});
    }
    after.model = trained.front().model;
    after.name = tr("%1 (trained here)").arg(task);
    QStringList accuracies;
    for (const Seq2SeqTrained& t : trained)
        accuracies << tr("%1: %2%")
                          .arg(attentionLabel(t.settings.attention))
                          .arg(t.accuracy * 100.0, 0, 'f', 1);
    m_status->setText(tr("held-out exact match · %1").arg(accuracies.join(QStringLiteral(" · "))));
    if (m_source->text().trimmed().isEmpty())
        m_source->setText(task == QStringLiteral("dates") ? QStringLiteral("27 nov 2026")
                          : task == QStringLiteral("english-french")
                              ? QStringLiteral("the black cat ate "
                                               "the mouse")
                              : QStringLiteral("c a f b e"));
    m_undo->push(
        new Seq2SeqTrainCommand(*this, trainedState(), std::move(after), tr("Train %1").arg(task)));
    m_tabs->setCurrentWidget(m_alignment);
}

} // namespace attn::ui
