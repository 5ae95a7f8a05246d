// The model window's computing: a request for each edit, the reply shown in the grid, the
// predictions and the selected head's views, and head importance in the background.

#include "ui/model/model_window.h"

#include "ui/export/export_dialog.h"
#include "ui/model/encdec_view.h"
#include "ui/model/gallery_view.h"
#include "ui/model/generate_view.h"
#include "ui/model/head_grid_view.h"
#include "ui/model/head_importance_job.h"
#include "ui/model/importance_view.h"
#include "ui/model/kv_cache_view.h"
#include "ui/model/lens_tabs.h"
#include "ui/model/matrix_panels_view.h"
#include "ui/model/model_head_panel.h"
#include "ui/model/model_load_job.h"
#include "ui/model/predictions_view.h"
#include "ui/model/token_focus_bar.h"
#include "ui/presentation/presentation_window.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lines_view.h"
#include "ui/widgets/message_bar.h"
#include "ui/widgets/score_options.h"
#include "ui/widgets/stale_indicator.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QTabWidget>

namespace attn::ui {

void ModelWindow::requestCompute()
{
    if (m_computeQueued || !m_document.hasModel())
        return;
    m_computeQueued = true;
    // The edits of one event (a macro, a drag step) make one request.
    QTimer::singleShot(0, this, [this] {
        m_computeQueued = false;
        if (!m_document.hasModel())
            return;
        ModelComputeRequest request;
        request.model = m_document.model();
        request.text = m_document.text();
        request.tokens = m_followTokens;
        request.interventions = m_document.interventions();
        request.encoderInterventions = m_document.interventions(HeadKind::Encoder);
        request.crossInterventions = m_document.interventions(HeadKind::Cross);
        request.detailLayer = m_document.selectedLayer();
        if (m_tabs->currentIndex() == DifferenceTab) {
            const core::LayerEdit settings = m_document.layerSettings(m_document.selectedLayer());
            core::ScoreKind score = *settings.score;
            core::Normalization normalization = *settings.normalization;
            const ScoreOption other = comparisonOption(
                m_tabs->compareCombo()->currentData().toString(), score, normalization);
            {
                const QSignalBlocker blocker(m_tabs->compareCombo());
                m_tabs->compareCombo()->setCurrentIndex(
                    std::max(0, m_tabs->compareCombo()->findData(scoreOptionName(other))));
            }
            applyScoreOption(other, score, normalization);
            request.compareLayer = m_document.selectedLayer();
            request.compareScore = score;
            request.compareNormalization = normalization;
        }
        m_compute->request(std::move(request));
    });
}

bool ModelWindow::isUpToDate() const
{
    return !m_computeQueued && !m_compute->isBusy() &&
           m_shownGeneration == m_compute->latestGeneration() && !m_selectionLater.isPending();
}

void ModelWindow::onComputeFinished(const ModelComputeReply& reply)
{
    m_shownGeneration = reply.generation;
    if (!reply.result) {
        m_computeError = reply.error;
        showError(QStringLiteral("compute"),
                  reply.error.isEmpty() ? tr("The model could not be computed.") : reply.error);
        m_timeLabel->setText(m_document.result()
                                 ? tr("Not computed: the figures show an earlier input")
                                 : tr("Not computed"));
        if (const auto shown = m_document.result()) {
            m_stale->setStale(StaleIndicator::earlierInputNote(shown->tokens));
        } else {
            const QString why = tr("Not computed: the message above says why.");
            m_grid->setMessage(why);
            for (HeatmapView* view : {headView(), pipelineView(), differenceView()})
                view->showMessage(why);
            m_rollout->setMessage(why);
        }
        emit resultShown();
        return;
    }
    m_computeError.clear();
    m_messages->clearMessage(QStringLiteral("compute"));
    m_compare = reply.compare;
    m_compareFor = reply.result;
    m_detail = reply.detail;
    m_detailLayer = reply.detailLayer;
    m_detailFor = reply.result;
    m_kvCache->setRun(reply.result, reply.cachedPositions, reply.milliseconds);
    m_document.setResults(reply.result, reply.baseline); // -> showResult
}

void ModelWindow::showResult()
{
    const auto result = m_document.result();
    m_stale->setStale(QString()); // a new result, or a new model still computing
    const bool gallery = !result && !m_document.hasModel() && !m_load;
    if (gallery && m_gallery->isHidden())
        m_gallery->refresh(); // what was downloaded meanwhile
    m_gallery->setVisible(gallery);
    m_grid->setVisible(!gallery);
    if (!result) {
        const QString empty = m_load
                                  ? tr("Loading %1…").arg(core::modelDisplayName(m_load->source()))
                                  : tr("No model open");
        m_grid->setMessage(m_document.hasModel() ? tr("Computing…")
                           : m_load              ? empty
                                    : tr("No model open: File > Open Model… (Ctrl+Shift+O)"));
        m_predictions->setResults(nullptr, nullptr);
        m_tokens->setTokens({});
        for (HeatmapView* view : {headView(), pipelineView(), differenceView()})
            view->showMessage(m_document.hasModel() ? tr("Computing…") : empty);
        m_rollout->setMessage(m_document.hasModel() ? tr("Computing…") : empty);
        if (!m_document.hasModel()) {
            m_generate->setSource(nullptr, {});
            m_encdec->setSource(nullptr, {});
            m_lensTabs->setSource(nullptr, {}, QString());
        }
        m_headPanel->setPlaceholder(empty);
        updateStatus();
        return;
    }
    if (m_followTokens.empty()) // else the grid shows a step of what Generate wrote
        m_generate->setSource(
            result, [this] { return makeBackend(m_backends, m_choice, m_selector, nullptr); });
    m_encdec->setSource(result,
                        [this] { return makeBackend(m_backends, m_choice, m_selector, nullptr); });
    showGrid();
    m_lensTabs->setSource(
        result, [this] { return makeBackend(m_backends, m_choice, m_selector, nullptr); },
        m_document.text());
    updateGridOptions();
    m_predictions->setResults(result, m_document.baseline());
    updateTokens();
    // The grid and the predictions paint first (posted paints go before a zero timer); the
    // selected head's figures, rebuilt by QCustomPlot, follow in the next pass.
    m_selectionLater.schedule();
    if (m_importanceResult && m_importanceFor != result) {
        m_importance->setMessage(tr("Ranked for an earlier run: Rank Heads again for this one."));
    }
    updateStatus();
    emit resultShown();
}

std::shared_ptr<const core::ModelResult> ModelWindow::gridResult() const
{
    auto result = m_document.result();
    if (!result || !result->model->config().encoderDecoder())
        return result;
    return m_encdec->kindResult(EncDecView::Kind(m_gridKind->currentIndex()));
}

// An encoder-decoder model's run decodes the start token alone: its decoder heads are one cell
// each. The grid shows the encoder's heads over the source instead, or what a translation
// decoded.
void ModelWindow::showGrid()
{
    const auto result = m_document.result();
    if (!result)
        return;
    m_gridKind->setVisible(result->model->config().encoderDecoder());
    if (result->model->config().encoderDecoder()) // the selected head is of the kind shown
        m_document.select(HeadKind(m_gridKind->currentIndex()), m_document.selectedLayer(),
                          m_document.selectedHead());
    if (m_tabs->indexOf(m_gridPane) < 0 && m_gridPane->isHidden() != translateTakesGridRoom())
        arrangeFigures(); // another kind of model with the Translate tab in front
    if (const auto shown = gridResult())
        m_grid->setResult(shown);
    else
        m_grid->setMessage(tr("Nothing decoded yet: translate the sentence in the Translate tab "
                              "to see the decoder's heads."));
}

void ModelWindow::updateTokens()
{
    const auto result = m_document.result();
    const auto shown = gridResult(); // an encoder-decoder model's tokens of the grid's rows
    m_tokens->setTokens(shown    ? shown->tokens
                        : result ? result->tokens
                                 : std::vector<core::Token>{});
    m_tokens->setFocusToken(m_document.focusToken());
}

void ModelWindow::updateGridOptions()
{
    HeadGridOptions options = m_grid->options();
    options.selectedLayer = m_document.selectedLayer();
    options.selectedHead = m_document.selectedHead();
    options.focusToken = m_document.focusToken();
    options.headsOff = m_document.interventions().headsOff;
    const auto shown = gridResult();
    if (shown && shown != m_document.result()) {
        options.headsOff = shown->interventions.headsOff; // the Translate tab's, of that kind
        if (shown->layerCount() > 0) // the encoder's heads may be fewer than the decoder's
            options.selectedHead =
                std::min(options.selectedHead, int(shown->layers.front()->heads.size()) - 1);
    }
    if (shown)
        options.edited = editedHeads(*shown);
    else if (m_document.result())
        options.edited.clear();
    options.style.text = palette().color(QPalette::WindowText);
    options.style.background = palette().color(QPalette::Base);
    options.style.mutedText = palette().color(QPalette::PlaceholderText);
    m_grid->setOptions(options);
    const auto& off = m_document.interventions().headsOff;
    const int edited = int(options.edited.size());
    QStringList notes;
    if (!off.empty())
        notes << (off.size() == 1 ? tr("1 head off") : tr("%1 heads off").arg(off.size()));
    if (edited > 0)
        notes << (edited == 1 ? tr("1 head edited") : tr("%1 heads edited").arg(edited));
    if (!m_followTokens.empty())
        notes.prepend(tr("a step of Generate: its newest token's row"));
    m_gridNote->setText(notes.isEmpty() ? tr("(click a head; its box switches it off)")
                                        : notes.join(QStringLiteral(" · ")));
    m_resetAction->setEnabled(m_document.hasInterventions());
}

FigureSpec ModelWindow::figureSpec(FigureView view) const
{
    FigureSpec spec;
    spec.view = view;
    spec.head = m_document.selectedHead();
    spec.dpi = logicalDpiY();
    spec.fontPoints = 9.0;
    spec.showValues = true;
    const auto result = m_document.result();
    if (result && m_document.model())
        spec.title = tr("%1 · layer %2 · head %3 · %4")
                         .arg(m_document.model()->name)
                         .arg(m_document.selectedLayer() + 1)
                         .arg(m_document.selectedHead() + 1)
                         .arg(view == FigureView::Pipeline     ? tr("pipeline")
                              : view == FigureView::Difference ? tr("difference")
                                                               : tr("weights"));
    if (palette().color(QPalette::Base).lightness() < 128)
        spec.style = presentationStyle(PresentationTheme::Dark);
    return spec;
}

void ModelWindow::showSelection()
{
    m_selectionLater.markDone();
    const auto result = m_document.result();
    if (!result || result->layerCount() == 0)
        return;
    const auto grid = gridResult();
    if (grid != result) { // an encoder-decoder model: its head of the kind the grid shows
        showKindSelection(grid);
        return;
    }
    const int layer = std::clamp(m_document.selectedLayer(), 0, result->layerCount() - 1);
    const int head = m_document.selectedHead();
    const auto& attention = result->layers[std::size_t(layer)];
    // A layer below the first one a run computed is the earlier run's very result: its
    // figures stand as they are.
    auto show = [&attention](HeatmapView* view, const FigureSpec& spec) {
        if (view->result() == attention && view->spec().head == spec.head &&
            view->spec().title == spec.title)
            return;
        view->setSpec(spec);
        view->setResult(attention);
    };
    show(headView(), figureSpec(FigureView::Head));
    const auto detail = selectedLayerDetail();
    if (detail->intermediatesKept) {
        const FigureSpec spec = figureSpec(FigureView::Pipeline);
        if (pipelineView()->result() != detail || pipelineView()->spec().head != spec.head ||
            pipelineView()->spec().title != spec.title) {
            pipelineView()->setSpec(spec);
            pipelineView()->setResult(detail);
        }
    } else if (m_computeQueued || m_compute->isBusy()) {
        pipelineView()->showMessage(
            tr("Computing…")); // the reply asked for brings it, or asks again
    } else if (m_detailAsked != std::pair{result.get(), layer}) {
        // Another layer than the last run's detail: computed again with its intermediates (the
        // run itself is reused whole).
        m_detailAsked = {result.get(), layer};
        pipelineView()->showMessage(tr("Computing…"));
        requestCompute();
    } else {
        pipelineView()->showMessage(
            tr("The sentence is long: every head's intermediate scores are not kept. The "
               "Weights and Lines tabs show this head."));
    }
    if (linesView()->result() != attention || linesView()->head() != head)
        linesView()->setResult(attention, head);
    differenceView()->setSpec(figureSpec(FigureView::Difference));
    if (m_compare && m_compareFor == result &&
        m_compare->problem->queryCount() == attention->problem->queryCount())
        differenceView()->setResult(attention, m_compare);
    else
        differenceView()->showMessage(tr("Computing the other score…"));
    std::vector<MatrixPanel> panels = rolloutPanels(*result, layer, Colormap::Viridis);
    for (MatrixPanel& panel : panels)
        panel.highlightRow = m_document.focusToken();
    FigureStyle style;
    style.text = palette().color(QPalette::WindowText);
    style.background = palette().color(QPalette::Base);
    style.mutedText = palette().color(QPalette::PlaceholderText);
    m_rollout->setFigureStyle(style);
    m_rollout->setPanels(
        panels,
        tr("Attention rollout (Abnar & Zuidema 2020): residual included, layers multiplied from "
           "the bottom"));
    m_importance->panels()->setFigureStyle(style);
    m_lensTabs->setFigureStyle(style);
    m_lensTabs->setSelection(layer, head);
    m_kvCache->setFigureStyle(style);
    m_kvCache->setSelection(layer, head);
    if (m_importanceResult)
        m_importance->setImportance(
            m_importanceResult, defaultModelFigureTitle(ModelFigure::Importance, figureSource()),
            layer, head);
    if (PresentationWindow* shown = presentation()) {
        shown->setResult(detail);
        shown->setHead(head);
    }
    if (ExportDialog* dialog = exportDialog())
        dialog->setSource(exportSource());
}

// An encoder-decoder model's selected head of the kind the grid shows (`grid`, null before a
// translation for the decoder's kinds): its weights, lines and rollout.
void ModelWindow::showKindSelection(const std::shared_ptr<const core::ModelResult>& grid)
{
    FigureStyle style;
    style.text = palette().color(QPalette::WindowText);
    style.background = palette().color(QPalette::Base);
    style.mutedText = palette().color(QPalette::PlaceholderText);
    m_rollout->setFigureStyle(style);
    if (!grid || grid->layerCount() == 0) {
        const QString why = m_grid->message();
        for (HeatmapView* view : {headView(), pipelineView(), differenceView()})
            view->showMessage(why);
        linesView()->setResult(nullptr, 0);
        m_rollout->setMessage(why);
        return;
    }
    const int layer = std::clamp(m_document.selectedLayer(), 0, grid->layerCount() - 1);
    const auto& attention = grid->layers[std::size_t(layer)];
    const int head = std::clamp(m_document.selectedHead(), 0, int(attention->heads.size()) - 1);
    FigureSpec spec = figureSpec(FigureView::Head);
    spec.head = head;
    spec.title = tr("%1 · layer %2 · head %3 · %4")
                     .arg(m_document.model()->name)
                     .arg(layer + 1)
                     .arg(head + 1)
                     .arg(m_gridKind->currentText());
    if (headView()->result() != attention || headView()->spec().head != spec.head ||
        headView()->spec().title != spec.title) {
        headView()->setSpec(spec);
        headView()->setResult(attention);
    }
    if (linesView()->result() != attention || linesView()->head() != head)
        linesView()->setResult(attention, head);
    const QString only = tr("This tab shows a decoder-only or encoder-only model's heads; the "
                            "Weights and Lines tabs show this one.");
    pipelineView()->showMessage(only);
    differenceView()->showMessage(only);
    if (attention->problem->cross) {
        m_rollout->setMessage(tr("Rollout multiplies a stack's self-attention: choose the "
                                 "encoder's or the decoder's heads above the grid."));
    } else {
        std::vector<MatrixPanel> panels = rolloutPanels(*grid, layer, Colormap::Viridis);
        for (MatrixPanel& panel : panels)
            panel.highlightRow = m_document.focusToken();
        m_rollout->setPanels(panels, tr("Attention rollout (Abnar & Zuidema 2020): residual "
                                        "included, layers multiplied from the bottom"));
    }
}

// --- head importance ------------------------------------------------------------------------

void ModelWindow::computeImportance()
{
    const auto result = m_document.result();
    if (!result)
        return;
    if (!predictionsMessage(*result).isEmpty()) {
        m_importance->setMessage(predictionsMessage(*result));
        return;
    }
    m_importanceJob.reset();
    m_importanceJob = std::make_unique<HeadImportanceJob>(
        result, makeBackend(m_backends, m_choice, m_selector, nullptr));
    HeadImportanceJob* job = m_importanceJob.get();
    m_importance->setRunning(true);
    connect(job, &HeadImportanceJob::progress, m_importance, &ImportanceView::setProgress);
    connect(job, &HeadImportanceJob::finished, this,
            [this, result](const core::HeadImportance& importance) {
                m_importance->setRunning(false);
                m_importanceResult = importance;
                m_importanceFor = result;
                m_importance->setMessage(tr("For the run with %1.")
                                             .arg(result->interventions.empty()
                                                      ? tr("no interventions")
                                                      : tr("the interventions then")));
                m_importance->setImportance(
                    importance, defaultModelFigureTitle(ModelFigure::Importance, figureSource()),
                    m_document.selectedLayer(), m_document.selectedHead());
                QTimer::singleShot(0, this, [this] { m_importanceJob.reset(); });
            });
    connect(job, &HeadImportanceJob::failed, this, [this](const QString& message) {
        m_importance->setRunning(false);
        m_importance->setMessage(message);
        QTimer::singleShot(0, this, [this] { m_importanceJob.reset(); });
    });
    connect(job, &HeadImportanceJob::cancelled, this, [this] {
        m_importance->setRunning(false);
        m_importance->setMessage(tr("Cancelled."));
        QTimer::singleShot(0, this, [this] { m_importanceJob.reset(); });
    });
    job->start();
}

void ModelWindow::cancelImportance()
{
    if (m_importanceJob)
        m_importanceJob->cancel();
}
} // namespace attn::ui
