#include "ui/concepts/train_page.h"

#include "ui/concepts/train_figure.h"
#include "ui/document/scene_document.h"
#include "ui/widgets/decimal_field.h"
#include "ui/widgets/flow_layout.h"

#include "core/error.h"
#include "core/scene_json.h"
#include "core/scene_layers.h"
#include "core/training/stacked_training.h"
#include "core/training/trainer.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QUndoStack>

namespace attn::ui {

namespace {

constexpr int kSliceMilliseconds = 15;

} // namespace

TrainPage::TrainPage(SceneDocument& document, QWidget* parent)
    : ConceptPage(ConceptView::Train, parent), m_document(document)
{
    m_task = new QComboBox(this);
    m_task->setObjectName(QStringLiteral("trainTask"));
    m_task->setProperty("dataItems", true); // the command line's --train words, each with a tooltip
    m_task->setAccessibleName(tr("Task"));
    m_task->setToolTip(
        tr("What the layer is trained to do; each task's tooltip in the list says more"));
    for (core::TrainingTask task :
         {core::TrainingTask::Copy, core::TrainingTask::PreviousToken, core::TrainingTask::Reverse,
          core::TrainingTask::Translation, core::TrainingTask::KeyValue}) {
        m_task->addItem(QString::fromLatin1(core::toString(task).data()), int(task));
        m_task->setItemData(m_task->count() - 1, core::describeTask(task), Qt::ToolTipRole);
    }
    // Hard attention's true gradient is zero almost everywhere (an argmax is flat), so its
    // W_q and W_k never move; the surrogates train through softmax instead.
    m_hardGradient = new QComboBox(this);
    m_hardGradient->setObjectName(QStringLiteral("trainHardGradient"));
    m_hardGradient->setAccessibleName(tr("Gradient of hard attention"));
    m_hardGradient->addItem(tr("zero (the true gradient)"), int(core::HardGradient::Zero));
    m_hardGradient->addItem(tr("straight-through"), int(core::HardGradient::StraightThrough));
    m_hardGradient->addItem(tr("softmax-relaxed"), int(core::HardGradient::SoftmaxRelaxed));
    m_hardGradient->setToolTip(
        tr("Zero: argmax has no gradient, so the scores never learn. Straight-through: "
           "the forward pass stays hard, the backward pass is softmax's. Relaxed: softmax "
           "throughout training."));
    m_learningRate = new DecimalField(tr("Learning rate"), 3, this);
    m_learningRate->setObjectName(QStringLiteral("trainLearningRate"));
    m_learningRate->setAccessibleName(tr("Learning rate"));
    m_learningRate->setToolTip(tr("Adam's step size"));
    m_learningRate->setRange(1e-5, 10.0);
    m_learningRate->setValue(core::AdamSettings{}.learningRate);
    m_steps = new QSpinBox(this);
    m_steps->setObjectName(QStringLiteral("trainSteps"));
    m_steps->setAccessibleName(tr("Steps"));
    m_steps->setToolTip(tr("How many steps Run takes"));
    m_steps->setRange(1, 100000);
    m_steps->setValue(200);
    m_run = new QPushButton(tr("&Run"), this);
    m_run->setObjectName(QStringLiteral("trainRun"));
    m_run->setToolTip(tr("Train for the steps set, shown as they go; press again to pause"));
    m_step = new QPushButton(tr("S&tep"), this);
    m_step->setObjectName(QStringLiteral("trainStep"));
    m_step->setToolTip(tr("One training step"));
    m_reset = new QPushButton(tr("R&eset"), this);
    m_reset->setObjectName(QStringLiteral("trainReset"));
    m_reset->setToolTip(tr("Back to the scene's weights, before any training"));
    m_apply = new QPushButton(tr("&Apply to scene"), this);
    m_apply->setObjectName(QStringLiteral("trainApply"));
    m_apply->setToolTip(
        tr("Put the trained weights into the scene (one undo step): every view shows them, and "
           "they save with the scene"));
    m_notes = new QLabel(this);
    m_notes->setWordWrap(true);
    controls()->addWidget(buddyLabel(tr("T&ask:"), m_task, this));
    controls()->addWidget(m_task);
    m_hardLabel = buddyLabel(tr("&Hard attention's gradient:"), m_hardGradient, this);
    controls()->addWidget(m_hardLabel);
    controls()->addWidget(m_hardGradient);
    controls()->addWidget(buddyLabel(tr("&Learning rate:"), m_learningRate, this));
    controls()->addWidget(m_learningRate);
    controls()->addWidget(buddyLabel(tr("Ste&ps:"), m_steps, this));
    controls()->addWidget(m_steps);
    controls()->addWidget(m_run);
    controls()->addWidget(m_step);
    controls()->addWidget(m_reset);
    controls()->addWidget(m_apply);
    controls()->addWidget(m_notes);

    m_timer.setInterval(0);
    connect(&m_timer, &QTimer::timeout, this, &TrainPage::runSlice);
    connect(m_run, &QPushButton::clicked, this, [this] {
        if (m_timer.isActive()) {
            stop();
            return;
        }
        if (!ensureTrainer())
            return;
        m_remaining = m_steps->value();
        m_timer.start();
        updateButtons();
    });
    connect(m_step, &QPushButton::clicked, this, [this] {
        stop();
        if (!ensureTrainer())
            return;
        stepOnce();
        rebuildNow();
    });
    connect(m_reset, &QPushButton::clicked, this, [this] { resetTrainer(); });
    connect(m_task, &QComboBox::currentIndexChanged, this, [this] { resetTrainer(); });
    connect(m_hardGradient, &QComboBox::currentIndexChanged, this, [this] { resetTrainer(); });
    connect(m_learningRate, &QDoubleSpinBox::valueChanged, this, [this](double rate) {
        if (m_trainer && rate > 0.0)
            m_trainer->setLearningRate(rate);
        if (m_stacked && rate > 0.0)
            m_stacked->setLearningRate(rate);
    });
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (!m_trainer && !m_stacked)
            return;
        stop();
        const core::Scene trained =
            m_trainer ? m_trainer->trainedScene() : m_stacked->trainedScene();
        try {
            QUndoStack* undo = m_document.undoStack();
            undo->beginMacro(tr("Apply trained weights (%1)").arg(m_task->currentText()));
            m_document.setWeights(trained.weights, tr("Apply trained weights"));
            // Every later block's attention and every block's feed-forward layer.
            for (int l = 0; l < int(trained.layers.size()); ++l) {
                const core::StackedLayer& layer = trained.layers[std::size_t(l)];
                if (l > 0) {
                    for (int h = 0; h < layer.attention.headCount(); ++h) {
                        const core::HeadWeights& head = layer.attention.heads[std::size_t(h)];
                        m_document.setWeightMatrix({WeightKind::Wq, h, l}, head.Wq);
                        m_document.setWeightMatrix({WeightKind::Wk, h, l}, head.Wk);
                        m_document.setWeightMatrix({WeightKind::Wv, h, l}, head.Wv);
                    }
                    m_document.setWeightMatrix({WeightKind::Wo, 0, l}, layer.attention.Wo);
                }
                m_document.setWeightMatrix({WeightKind::W1, 0, l}, layer.W1);
                m_document.setWeightMatrix({WeightKind::B1, 0, l}, layer.b1);
                m_document.setWeightMatrix({WeightKind::W2, 0, l}, layer.W2);
                m_document.setWeightMatrix({WeightKind::B2, 0, l}, layer.b2);
            }
            m_document.setMask(trained.mask); // the task's mask (previous token: causal)
            undo->endMacro();
        } catch (const core::Error& e) {
            m_document.undoStack()->endMacro();
            emit refused(QString::fromUtf8(e.what()), QString::fromStdString(e.where()));
        }
    });
    updateButtons();
}

TrainPage::~TrainPage() = default;

void TrainPage::setTask(const QString& name)
{
    if (const auto task = core::parseTrainingTask(name.toStdString()))
        m_task->setCurrentIndex(std::max(0, m_task->findData(int(*task))));
}

void TrainPage::forgetScene()
{
    m_task->setCurrentIndex(0);
    resetTrainer();
}

QString TrainPage::taskName() const
{
    return m_task->currentText();
}

namespace {

// The same layer and input: everything but how it is shown.
bool sameTrainingProblem(const core::Scene& a, const core::Scene& b)
{
    core::Scene left = a;
    core::Scene right = b;
    left.view = right.view = core::ViewSettings{};
    return core::sceneToJson(left) == core::sceneToJson(right);
}

} // namespace

void TrainPage::setSource(const ConceptSource& source)
{
    // Another scene (an edit, or trained weights applied): the run of the old one is dropped.
    if ((m_trainer || m_stacked) && (!source.scene || !m_source.scene ||
                                     !sameTrainingProblem(*m_source.scene, *source.scene))) {
        stop();
        m_trainer.reset();
        m_stacked.reset();
    }
    // Stacked blocks train on their own task (the single layer's tasks pose nothing for the
    // blocks below the last).
    m_task->setEnabled(!source.scene || !core::isStacked(*source.scene));
    const bool hard = source.scene && source.scene->normalization == core::Normalization::Hard;
    m_hardLabel->setVisible(hard);
    m_hardGradient->setVisible(hard);
    ConceptPage::setSource(source);
    updateButtons();
}

bool TrainPage::ensureTrainer()
{
    if (m_trainer || m_stacked)
        return true;
    if (!m_source.scene)
        return false;
    if (core::isStacked(*m_source.scene)) {
        core::AdamSettings adam;
        adam.learningRate = m_learningRate->value();
        try {
            m_stacked = std::make_unique<core::StackedTrainer>(
                *m_source.scene, core::InductionOptions{32, 8, m_source.scene->seed}, adam,
                m_source.scene->seed);
        } catch (const core::Error& e) {
            emit refused(QString::fromUtf8(e.what()), QString::fromStdString(e.where()));
            return false;
        }
        m_notes->setText(tr("Every block's weights train, from fresh ones, so that the last "
                            "block's heads attend to the word after the earlier occurrence of "
                            "their own word (an induction head), on random sequences of the "
                            "sentence's words; one attention layer cannot learn this."));
        updateButtons();
        return true;
    }
    core::TrainingSetup setup;
    setup.task = core::TrainingTask(m_task->currentData().toInt());
    setup.seed = m_source.scene->seed;
    setup.adam.learningRate = m_learningRate->value();
    setup.hard.mode = core::HardGradient(m_hardGradient->currentData().toInt());
    try {
        m_trainer = std::make_unique<core::Trainer>(*m_source.scene, setup);
    } catch (const core::Error& e) {
        emit refused(QString::fromUtf8(e.what()), QString::fromStdString(e.where()));
        return false;
    }
    QStringList notes;
    for (const QString& note : m_trainer->notes())
        notes << note;
    m_notes->setText(notes.join(QLatin1Char(' ')));
    updateButtons();
    return true;
}

void TrainPage::runSlice()
{
    if (!m_trainer && !m_stacked) {
        stop();
        return;
    }
    QElapsedTimer clock;
    clock.start();
    while (m_remaining > 0 && clock.elapsed() < kSliceMilliseconds) {
        stepOnce();
        --m_remaining;
    }
    rebuildNow();
    if (m_remaining <= 0)
        stop();
}

void TrainPage::stop()
{
    m_timer.stop();
    m_remaining = 0;
    updateButtons();
}

void TrainPage::resetTrainer()
{
    stop();
    m_trainer.reset();
    m_stacked.reset();
    m_notes->clear();
    updateButtons();
    scheduleRebuild();
}

void TrainPage::updateButtons()
{
    m_run->setText(m_timer.isActive() ? tr("&Pause") : tr("&Run"));
    m_apply->setEnabled(stepCount() > 0);
    m_reset->setEnabled(m_trainer != nullptr || m_stacked != nullptr);
}

void TrainPage::stepOnce()
{
    if (m_trainer)
        m_trainer->step();
    else if (m_stacked)
        m_stacked->step();
}

int TrainPage::stepCount() const
{
    return m_trainer ? m_trainer->stepCount() : m_stacked ? m_stacked->stepCount() : 0;
}

void TrainPage::draw(QCustomPlot& plot, const FigureSpec& spec) const
{
    if (m_stacked) {
        buildTrainingFigure(plot, TrainingSnapshot::of(*m_stacked), spec);
        return;
    }
    if (m_source.scene && core::isStacked(*m_source.scene))
        throw core::Error(tr("Press Run to train every block of the stacked scene from fresh "
                             "weights on the induction task: a repeated word attends to the word "
                             "after its earlier occurrence, which one attention layer cannot "
                             "learn.")
                              .toStdString());
    if (!m_trainer)
        throw core::Error(
            tr("Press Run to train W_q, W_k, W_v and W_O on the %1 task from fresh weights: %2")
                .arg(m_task->currentText(),
                     core::describeTask(core::TrainingTask(m_task->currentData().toInt())))
                .toStdString());
    buildTrainingFigure(plot, TrainingSnapshot::of(*m_trainer), spec);
}

} // namespace attn::ui
