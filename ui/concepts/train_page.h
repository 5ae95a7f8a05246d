#pragma once

#include "ui/concepts/concept_pages.h"

#include <QTimer>
#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace attn::core {
class StackedTrainer;
class Trainer;
} // namespace attn::core

namespace attn::ui {

class DecimalField;
class SceneDocument;

// Training the scene's layer on a task, live: Adam steps run in slices of at most ~15 ms on
// the window's thread (hundreds of steps a second at these sizes), so the loss curve and the
// heads' weights redraw between slices and Pause takes effect at once.
class TrainPage : public ConceptPage
{
    Q_OBJECT
public:
    TrainPage(SceneDocument& document, QWidget* parent = nullptr);
    ~TrainPage() override;
    void setSource(const ConceptSource& source) override;
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;
    // Back to the task a fresh window starts with (copy); a scene saved on the Train tab sets
    // its own after it (setTask).
    void forgetScene() override;

    // "copy", "previous-token", ... (the scene's view "train:TASK").
    void setTask(const QString& name);
    QString taskName() const;
    const core::Trainer* trainer() const { return m_trainer.get(); }
    // A scene of stacked blocks trains every block on the induction task instead.
    const core::StackedTrainer* stackedTrainer() const { return m_stacked.get(); }
    bool isRunning() const { return m_timer.isActive(); }

    QComboBox* hardGradientCombo() const { return m_hardGradient; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* stepButton() const { return m_step; }
    QPushButton* resetButton() const { return m_reset; }
    QPushButton* applyButton() const { return m_apply; }
    QSpinBox* stepsSpin() const { return m_steps; }

signals:
    // A task the scene cannot pose, weights that cannot be applied: the core's message and the
    // place it names first (core::Error::where(), empty for none).
    void refused(const QString& text, const QString& where);

private:
    bool ensureTrainer();
    void runSlice();
    void stop();
    void resetTrainer();
    void updateButtons();
    void stepOnce();
    int stepCount() const;

    SceneDocument& m_document;
    std::unique_ptr<core::Trainer> m_trainer;
    std::unique_ptr<core::StackedTrainer> m_stacked;
    QTimer m_timer;
    int m_remaining = 0;
    QComboBox* m_task = nullptr;
    QComboBox* m_hardGradient = nullptr; // shown for hard attention only
    QLabel* m_hardLabel = nullptr;
    DecimalField* m_learningRate = nullptr;
    QSpinBox* m_steps = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_step = nullptr;
    QPushButton* m_reset = nullptr;
    QPushButton* m_apply = nullptr;
    QLabel* m_notes = nullptr;
};

} // namespace attn::ui
