// The explorer window's computing: the request for the scene as it is (pooled to the view,
// with the Difference tab's other scene), and the reply shown in every view, the status bar
// and the concept pages.

#include "ui/explorer/explorer_window.h"

#include "ui/app/window_manager.h"
#include "ui/concepts/concept_pages.h"
#include "ui/concepts/context_page.h"
#include "ui/concepts/hard_page.h"
#include "ui/concepts/layers_page.h"
#include "ui/concepts/mixing_page.h"
#include "ui/concepts/projections_page.h"
#include "ui/concepts/train_page.h"
#include "ui/explorer/comparison_choices.h"
#include "ui/explorer/compute_schedule.h"
#include "ui/explorer/crash_recovery.h"
#include "ui/explorer/explorer_menus.h"
#include "ui/explorer/input_panel.h"
#include "ui/explorer/mask_brush.h"
#include "ui/explorer/scene_files.h"
#include "ui/explorer/view_bar.h"
#include "ui/explorer/weights_panel.h"
#include "ui/explorer/window_words.h"
#include "ui/export/export_dialog.h"
#include "ui/figures/colormap.h"
#include "ui/presentation/presentation_export.h"
#include "ui/presentation/presentation_extras.h"
#include "ui/presentation/presentation_window.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lines_view.h"
#include "ui/widgets/attention_panel.h"
#include "ui/widgets/message_bar.h"
#include "ui/widgets/stale_indicator.h"
#include "ui/widgets/status_labels.h"
#include "ui/workspace/figure_exports.h"

#include "core/error.h"

#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QTabWidget>

namespace attn::ui {

namespace {

// Above this many score cells (all heads together) the raw, scaled and masked scores are
// not kept: the pipeline view needs them, long inputs do not.
constexpr qint64 kKeepIntermediatesCells = qint64(4) << 20;

} // namespace

void ExplorerWindow::requestCompute()
{
    m_schedule->request();
}

ComputeRequest ExplorerWindow::computeRequest() const
{
    ComputeRequest request;
    request.scene = m_document.scene();
    const qint64 queries = qint64(m_input->queryTokens().size());
    const qint64 keys = qint64(m_input->keyTokens().size());
    const qint64 heads = std::max(1, request.scene.weights.headCount());
    request.options.keepIntermediates = queries * keys * heads <= kKeepIntermediatesCells;
    // Long inputs: pool in the backend to what the heatmap can show.
    QSize pixels = headView()->devicePixelSize();
    if (pixels.width() < 64 || pixels.height() < 64)
        pixels = QSize(1024, 1024);
    if (queries > pixels.height() || keys > pixels.width()) {
        request.options.viewRows = pixels.height();
        request.options.viewCols = pixels.width();
        // The largest weight of a block: a mean of 1/T-sized weights is one dark colour.
        request.options.pool = core::PoolMode::Max;
    }
    if (m_tabs->currentIndex() == DifferenceTab) {
        try {
            request.compare =
                comparisonScene(request.scene, compareCombo()->currentData().toString(),
                                m_openedScene ? &*m_openedScene : nullptr);
        } catch (const core::Error& e) {
            differenceView()->showMessage(QString::fromUtf8(e.what()));
        }
    }
    return request;
}

bool ExplorerWindow::isShowingStale() const
{
    return m_stale->isStale();
}

bool ExplorerWindow::isUpToDate() const
{
    return m_schedule->isAnswered() && !headView()->isRebuildPending();
}

void ExplorerWindow::onComputeFailed(const QString& error)
{
    showError(QStringLiteral("compute"), error);
    if (m_document.result()) {
        m_timeLabel->setText(tr("Not computed: the figures show an earlier input"));
    } else {
        m_timeLabel->setText(tr("Not computed"));
        for (HeatmapView* view : {headView(), m_gridView, pipelineView(), differenceView()})
            view->showMessage(tr("Nothing to show yet: %1").arg(error));
    }
    emit resultShown();
}

void ExplorerWindow::onComputed(const ComputeReply& reply)
{
    m_messages->clearMessage(QStringLiteral("compute"));
    m_compareResult = reply.compare;
    m_compareError = reply.compareError;
    m_document.setResult(reply.result); // -> showResult
}

void ExplorerWindow::showResult()
{
    const auto result = m_document.result();
    if (!result)
        return;
    const int head = selectedHead();
    headView()->setResult(result);
    m_gridView->setResult(result);
    pipelineView()->setResult(result);
    if (m_compareResult)
        differenceView()->setResult(result, m_compareResult);
    else if (!m_compareError.isEmpty())
        differenceView()->showMessage(m_compareError);
    linesView()->setResult(result, head);
    linesView()->setColor(AttentionPanel::headColor(std::max(0, head)));
    updateConceptPages();

    const core::Problem& p = *result->problem;
    const QLocale locale;
    // No translations are loaded, so no %n plurals ("1 head(s)"): the words themselves.
    const int heads = int(result->heads.size());
    QString shape = tr("%1 × %2 tokens · %3")
                        .arg(locale.toString(p.queryCount()), locale.toString(p.keyCount()),
                             heads == 1 ? tr("1 head") : tr("%1 heads").arg(heads));
    if (result->pooling.pooled)
        shape += tr(" · shown pooled, %1 × %2 per cell")
                     .arg(result->pooling.rowBlock)
                     .arg(result->pooling.colBlock);
    m_shapeLabel->setText(shape);
    m_timeLabel->setText(
        tr("Computed in %1").arg(formatComputeTime(result->diagnostics.computeMilliseconds)));
    const auto& warnings = result->diagnostics.warnings;
    m_warningLabel->setVisible(!warnings.empty());
    if (!warnings.empty()) {
        QStringList lines;
        for (const std::string& w : warnings)
            lines << QString::fromStdString(w);
        m_warningLabel->setText(QStringLiteral("⚠ ") + lines.first());
        m_warningLabel->setMaximumWidth(
            m_warningLabel->fontMetrics().horizontalAdvance(m_warningLabel->text()) + 16);
        m_warningLabel->setToolTip(lines.join(QLatin1Char('\n')));
    }
    m_input->setFallback(p.queryFallback, p.keyFallback);
    updateAllHeadsOffWarning();
    m_schedule->updateStale();
    m_exports->sourceChanged();
    if (PresentationWindow* shown = m_exports->presentation()) {
        shown->setResult(result);
        shown->setExtras(presentationExtras(m_document.scene(), m_mixingPage->viewName()));
    }
    emit resultShown();
}

// Every head off leaves nothing to average and an output of zeros: say so where the
// controls are, not only in the figure's title.
void ExplorerWindow::updateAllHeadsOffWarning()
{
    const auto& heads = m_document.scene().weights.heads;
    const bool allOff =
        !heads.empty() && std::none_of(heads.begin(), heads.end(),
                                       [](const core::HeadWeights& h) { return h.enabled; });
    if (allOff)
        m_messages->showMessage(
            QStringLiteral("heads"), MessageBar::Level::Warning,
            tr("Every head is switched off: the output is all zeros and the mean of heads has "
               "nothing to average. Switch a head on under Heads."));
    else
        m_messages->clearMessage(QStringLiteral("heads"));
}

// The concept views get the scene and its result; each redraws when next shown.
void ExplorerWindow::updateConceptPages()
{
    ConceptSource source;
    source.scene = std::make_shared<const core::Scene>(m_document.scene());
    source.result = m_document.result();
    source.head = std::max(0, selectedHead());
    source.query = source.result ? std::max(0, source.result->problem->queryCount() - 1) : 0;
    for (ConceptPage* page : conceptPages())
        page->setSource(source);
}
} // namespace attn::ui
