#pragma once

#include "ui/figures/figure_spec.h"

#include "core/backend.h"
#include "core/model/activation_patching.h"
#include "core/model/model_result.h"

#include <QPointer>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace attn::ui {

class LensJob;
class MatrixPanelsView;

// The Patching tab (Wang et al. 2022; Meng et al. 2022): a clean and a corrupted prompt of the
// same token length and a metric; Run patches each head's output and each position of the
// residual stream after each layer from the clean run into the corrupted one, in the
// background with progress and Cancel, and shows the fraction of the metric each restores as a
// layers x heads and a layers x positions heatmap. A click on a head's cell opens that head.
class PatchingView : public QWidget
{
    Q_OBJECT

public:
    using BackendMaker = std::function<std::unique_ptr<core::Backend>()>;

    explicit PatchingView(QWidget* parent = nullptr);

    // The window's run (its model and interventions) and sentence: the clean prompt follows
    // the sentence until the field is edited. Another model drops what was patched.
    void setSource(std::shared_ptr<const core::ModelResult> result, BackendMaker makeBackend,
                   const QString& sentence);
    void setSelection(int layer, int head); // framed in the heads' heatmap
    void setFigureStyle(const FigureStyle& style);
    const std::optional<core::ActivationPatching>& patching() const { return m_patching; }
    bool isRunning() const;

    QLineEdit* cleanEdit() const { return m_clean; }
    QLineEdit* corruptEdit() const { return m_corrupt; }
    QLineEdit* metricEdit() const { return m_metric; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* exampleButton() const { return m_example; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* noteLabel() const { return m_note; }
    QComboBox* shownBox() const { return m_shown; }
    MatrixPanelsView* panels() const { return m_panels; }

public slots:
    void run();
    void cancel();
    // Wang et al.'s indirect-object pair, and the logit difference of the two names.
    void useExample();

signals:
    void headClicked(int layer, int head);
    void errorShown(const QString& text); // prompts of different lengths, a metric not one token
    void errorCleared();
    void ended(); // patched, failed or cancelled

private:
    void showPatching();
    void setRunning(bool running);
    void fail(const QString& text);

    std::shared_ptr<const core::ModelResult> m_source;
    BackendMaker m_makeBackend;
    std::optional<core::ActivationPatching> m_patching;
    QPointer<LensJob> m_job;
    bool m_cleanFollows = true; // the clean prompt is the window's sentence
    int m_layer = -1;
    int m_head = -1;

    QLineEdit* m_clean = nullptr;
    QLineEdit* m_corrupt = nullptr;
    QLineEdit* m_metric = nullptr;
    QPushButton* m_example = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QComboBox* m_shown = nullptr; // both heatmaps, the heads', the positions'
    QProgressBar* m_progress = nullptr;
    QLabel* m_note = nullptr;
    MatrixPanelsView* m_panels = nullptr;
};

} // namespace attn::ui
