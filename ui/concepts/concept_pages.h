#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/concepts/kernel_figure.h"
#include "ui/figures/figure_spec.h"
#include "ui/widgets/deferred_call.h"

#include <QTimer>
#include <QWidget>
#include <memory>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QStackedLayout;

namespace attn::core {
class Trainer;
}

namespace attn::ui {

class DecimalField;
class FlowLayout;
class SceneDocument;

// A tab of the explorer window showing one concept figure: a row of the view's own controls
// above a QCustomPlot that the view's figure builder fills (the builder that also writes the
// exported files). Rebuilt when the source changes, when resized, and when shown after a
// change while hidden; a figure that cannot be drawn is replaced by a message saying why.
class ConceptPage : public QWidget
{
    Q_OBJECT

public:
    ConceptPage(ConceptView view, QWidget* parent);
    ~ConceptPage() override;

    ConceptView view() const { return m_view; }
    // The window's scene, result, head and focused query.
    virtual void setSource(const ConceptSource& source);
    const ConceptSource& source() const { return m_source; }
    void setSpec(const FigureSpec& spec);

    // Draws what the page shows now (its controls' state included) into `plot`, for export.
    virtual void draw(QCustomPlot& plot, const FigureSpec& spec) const = 0;
    // Another scene (New, Open, an example): what the page's controls held for the scene before
    // (its words, its task) goes; how it is shown (a map, a learning rate) stays.
    virtual void forgetScene() {}

    QCustomPlot* plot() const { return m_plot; }
    QString message() const;

protected:
    FlowLayout* controls() const { return m_controls; }
    void scheduleRebuild();
    void rebuildNow();
    // Brings the page's own read-outs (beside the controls) up to date with m_source; called
    // before each rebuild, so that work costs nothing while the tab is hidden.
    virtual void refreshReadouts() {}
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

    ConceptSource m_source;
    FigureSpec m_spec;

private:
    ConceptView m_view;
    FlowLayout* m_controls = nullptr;
    QStackedLayout* m_stack = nullptr;
    QCustomPlot* m_plot = nullptr;
    QLabel* m_message = nullptr;
    DeferredCall m_rebuild;
    bool m_dirty = true;
};

// Seeds 000 and 002: the Jacobian of one query's weights, scaled beside unscaled.
class GradientPage : public ConceptPage
{
    Q_OBJECT
public:
    explicit GradientPage(QWidget* parent = nullptr);
    void setSource(const ConceptSource& source) override;
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;

private:
    QComboBox* m_query = nullptr;
};

// Seed 004: attention as a kernel smoother; the points are dragged with the mouse.
class KernelPage : public ConceptPage
{
    Q_OBJECT
public:
    explicit KernelPage(QWidget* parent = nullptr);
    void setSource(const ConceptSource& source) override;
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;
    const KernelSetup& setup() const { return m_setup; }
    // Moves point `index` to (key, value), as a drag does.
    void movePoint(int index, double key, double value);

private:
    void onPress(QMouseEvent* event);
    void onMove(QMouseEvent* event);

    KernelSetup m_setup = KernelSetup::defaults();
    QSlider* m_bandwidth = nullptr;
    QLabel* m_bandwidthLabel = nullptr;
    QComboBox* m_score = nullptr;
    int m_dragged = -1;
};

// Seeds 001 and 003: P, P Pᵀ, X = E + P; positions switched off and on through the document.
class PositionsPage : public ConceptPage
{
    Q_OBJECT
public:
    PositionsPage(SceneDocument& document, QWidget* parent = nullptr);
    void setSource(const ConceptSource& source) override;
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;
    QCheckBox* positionsCheck() const { return m_positions; }
    QLabel* orderLabel() const { return m_order; }

protected:
    void refreshReadouts() override;

private:
    SceneDocument& m_document;
    QCheckBox* m_positions = nullptr;
    QLabel* m_order = nullptr;
};

// Seed 003: the scene's vectors on a map, the nearest words, a − b + c.
class EmbeddingSpacePage : public ConceptPage
{
    Q_OBJECT
public:
    explicit EmbeddingSpacePage(QWidget* parent = nullptr);
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;
    void forgetScene() override;
    QLineEdit* analogyEdit() const { return m_analogy; }

protected:
    void refreshReadouts() override;

private:
    QComboBox* m_map = nullptr;
    QLineEdit* m_analogy = nullptr; // "king - man + woman"
    QLabel* m_nearest = nullptr;
};

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

    SceneDocument& m_document;
    std::unique_ptr<core::Trainer> m_trainer;
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
