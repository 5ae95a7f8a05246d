#pragma once

#include "ui/figures/figure_spec.h"
#include "ui/model/lens_trace_view.h"

#include "core/backend.h"
#include "core/model/logit_lens.h"
#include "core/model/model_result.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace attn::ui {

class LensJob;
class MatrixPanelsView;

// The token a lens or attribution tab follows, as typed: empty is the model's own prediction
// (nullopt, no error); else one token of the vocabulary (core::parsePatchingMetric's rules),
// or nullopt with `error` saying why not.
std::optional<int> typedToken(const core::Model& model, const QString& text, QString* error);

// The Logit lens tab (nostalgebraist 2020; Ecco's rankings): what each layer would predict at
// each position, as the top token per cell beside the rank of the followed token (the model's
// own prediction, or one typed). Computed in the background while the tab is shown, again for
// each new run; the prediction panel's trace shows the same lens at the predicted position.
class LensView : public QWidget
{
    Q_OBJECT

public:
    using BackendMaker = std::function<std::unique_ptr<core::Backend>()>;

    explicit LensView(QWidget* parent = nullptr);
    ~LensView() override;

    void setSource(std::shared_ptr<const core::ModelResult> result, BackendMaker makeBackend);
    void setFigureStyle(const FigureStyle& style);
    // The lens of the run shown, once computed (nullopt while computing, or for another run).
    std::optional<core::LogitLens> lens() const;
    bool isComputing() const; // or about to, once typing pauses
    // The prediction panel's trace of this lens, made once with the panel as its parent.
    LensTraceView* createTrace(QWidget* parent);
    LensTraceView* trace() const { return m_trace; }

    QLineEdit* tokenEdit() const { return m_token; }
    MatrixPanelsView* panels() const { return m_panels; }
    QProgressBar* progressBar() const { return m_progress; }

public slots:
    // The lens of the run shown, with the token typed; a job still running is cancelled.
    void compute();

signals:
    void computed();
    void errorShown(const QString& text); // a token typed that is not one token
    void errorCleared();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void showLens(const core::LogitLens& lens);
    void setRunning(bool running);

    std::shared_ptr<const core::ModelResult> m_source;
    BackendMaker m_makeBackend;
    std::shared_ptr<const core::ModelResult> m_lensFor; // the run m_lens belongs to
    std::optional<core::LogitLens> m_lens;
    std::shared_ptr<const core::ModelResult> m_jobFor; // the run the latest job computes
    QPointer<LensJob> m_job;
    QPointer<LensTraceView> m_trace;
    FigureStyle m_style;
    QTimer m_typing; // a pause after the latest run

    QLineEdit* m_token = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QLabel* m_note = nullptr;
    MatrixPanelsView* m_panels = nullptr;
};

} // namespace attn::ui
