// The explorer window's view settings: the scene's view (tab, head, colours) shown by the
// controls and the figures' specs, and stored back from them; the head shown; the Difference
// tab's choices; a new scene's fresh start.

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
#include "ui/figures/colormap.h"
#include "ui/presentation/presentation_export.h"
#include "ui/presentation/presentation_window.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lines_view.h"
#include "ui/widgets/attention_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QToolButton>

namespace attn::ui {

// The concept views' tabs follow the heatmaps', in ConceptView's order.
int ExplorerWindow::conceptTab(ConceptView view)
{
    return TrainTab + int(view);
}

std::optional<ConceptView> ExplorerWindow::conceptOfTab(int tab)
{
    if (tab < TrainTab || tab > MixingTab)
        return std::nullopt;
    return ConceptView(tab - TrainTab);
}

QComboBox* ExplorerWindow::headCombo() const
{
    return m_viewBar->headCombo();
}

int ExplorerWindow::selectedHead() const
{
    return m_viewBar->selectedHead();
}

bool ExplorerWindow::allHeadsShown() const
{
    return m_viewBar->allHeadsShown();
}

void ExplorerWindow::selectHead(int head)
{
    m_viewBar->selectHead(head);
    storeViewSettings();
}

FigureSpec ExplorerWindow::figureSpec(FigureView view) const
{
    const core::ViewSettings& settings = m_document.scene().view;
    FigureSpec spec;
    spec.view = view;
    spec.head = selectedHead();
    spec.colormap = parseColormap(settings.colormap).value_or(Colormap::Viridis);
    spec.showValues = settings.showValues;
    spec.weightScale = parseWeightScale(settings.colorScale).value_or(WeightScale::Fixed);
    spec.precision = std::clamp(settings.valuePrecision, 0, 6);
    spec.transposed = settings.transposed;
    if (view == FigureView::Difference)
        spec.compareLabel =
            comparisonLabel(m_document.scene(), compareCombo()->currentData().toString());
    spec.dpi = logicalDpiY();
    spec.fontPoints = 9.0;
    // A dark system palette darkens the figures on screen too; exported and copied figures
    // keep their own light colours (ExportSettings::figureSpec).
    if (palette().color(QPalette::Base).lightness() < 128)
        spec.style = presentationStyle(PresentationTheme::Dark);
    return spec;
}

void ExplorerWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyViewSettings(); // the figures' colours follow the palette
}

// scene.view -> the controls and the views' specs.
void ExplorerWindow::applyViewSettings()
{
    m_syncingView = true;
    m_viewBar->setHeadCount(m_document.scene().weights.headCount());
    m_viewBar->setLayerCount(core::layerCount(m_document.scene()));
    const core::ViewSettings& settings = m_document.scene().view;
    FigureView view = FigureView::Head;
    int head = 0;
    int tab = HeadTab;
    if (const auto conceptView = parseConceptView(settings.view.section(QLatin1Char(':'), 0, 0))) {
        tab = conceptTab(*conceptView);
        if (*conceptView == ConceptView::Train && settings.view.contains(QLatin1Char(':')))
            m_trainPage->setTask(settings.view.section(QLatin1Char(':'), 1));
        if (*conceptView == ConceptView::Context)
            m_contextPage->setRequest(settings.view);
        if (*conceptView == ConceptView::Mixing)
            m_mixingPage->setRequest(settings.view);
        if (*conceptView == ConceptView::Projections)
            m_projectionsPage->setPart(projectionsPartOf(m_document.scene()));
        if (*conceptView == ConceptView::Kernel)
            m_kernelPage->setPart(kernelPartOf(m_document.scene()));
    } else if (parseFigureView(settings.view, view, head)) {
        tab = view == FigureView::Pipeline     ? PipelineTab
              : view == FigureView::Difference ? DifferenceTab
              : view == FigureView::Lines      ? LinesTab
                                               : HeadTab;
        if (view == FigureView::Heads)
            head = 0;
    }
    // The scene's own view, as an export of it shows: "heads" is All heads on the Weights tab.
    const bool all =
        tab == HeadTab && parseFigureView(settings.view, view, head) && view == FigureView::Heads;
    m_viewBar->showSettings(settings, head, all);
    m_tabs->setCurrentIndex(tab);
    // Never the scene as it is: that difference is all zeros.
    fillCompareCombo(settings.compareScore);
    m_syncingView = false;

    headView()->setSpec(figureSpec(allHeadsShown() ? FigureView::Heads : FigureView::Head));
    headView()->setMaskPainting(m_attention->paintMaskButton()->isChecked());
    FigureSpec grid = figureSpec(FigureView::Heads);
    grid.showValues = false;
    grid.title = QStringLiteral(" "); // the dock's title says it
    grid.colorBar = false;
    grid.showTokenLabels = false; // thumbnails: the large view beside them names the tokens
    m_gridView->setSpec(grid);
    m_gridView->setHighlightedHead(allHeadsShown() ? -1 : selectedHead());
    FigureSpec pipeline = figureSpec(FigureView::Pipeline);
    pipeline.head = std::max(0, pipeline.head);
    pipelineView()->setSpec(pipeline);
    differenceView()->setSpec(figureSpec(FigureView::Difference));
    for (ConceptPage* page : conceptPages())
        page->setSpec(figureSpec(FigureView::Head));
    const auto result = m_document.result();
    if (result && linesView()->head() != selectedHead()) {
        linesView()->setResult(result, selectedHead());
        linesView()->setColor(AttentionPanel::headColor(std::max(0, selectedHead())));
    }
}

std::array<ConceptPage*, 10> ExplorerWindow::conceptPages() const
{
    return {m_trainPage,       m_gradientPage, m_kernelPage,  m_positionsPage, m_embeddingPage,
            m_projectionsPage, m_hardPage,     m_contextPage, m_layersPage,    m_mixingPage};
}

// Another scene starts as in a fresh window: the side panels at their top, the concept pages
// without the task or words of the scene before (its view may set them again).
void ExplorerWindow::forgetPreviousScene()
{
    for (QScrollArea* panel : {m_sceneScroll, m_weightsScroll}) {
        panel->verticalScrollBar()->setValue(0);
        panel->horizontalScrollBar()->setValue(0);
    }
    for (ConceptPage* page : conceptPages())
        page->forgetScene();
}

// The Difference tab's choices for the scene as it is now, `wanted` selected where it is one.
void ExplorerWindow::fillCompareCombo(const QString& wanted)
{
    const core::Scene& scene = m_document.scene();
    const QSignalBlocker blocker(compareCombo());
    compareCombo()->clear();
    for (const ComparisonChoice& choice : comparisonChoices(scene, m_openedScene.has_value()))
        compareCombo()->addItem(choice.label, choice.name);
    compareCombo()->setCurrentIndex(std::max(
        0, compareCombo()->findData(chooseComparison(wanted, scene, m_openedScene.has_value()))));
}

// The controls -> scene.view (saved with the scene; not an undo step).
void ExplorerWindow::storeViewSettings()
{
    if (m_syncingView)
        return;
    core::ViewSettings settings = m_document.scene().view;
    const int head = selectedHead();
    switch (m_tabs->currentIndex()) {
    case PipelineTab:
        settings.view = figureViewName(FigureView::Pipeline, std::max(0, head));
        break;
    case LinesTab:
        settings.view = figureViewName(FigureView::Lines, head);
        break;
    case DifferenceTab:
        settings.view = figureViewName(FigureView::Difference, head);
        break;
    case TrainTab:
        settings.view =
            conceptViewName(ConceptView::Train) + QLatin1Char(':') + m_trainPage->taskName();
        break;
    case GradientTab:
    case PositionsTab:
    case EmbeddingSpaceTab:
    case HardTab:
    case LayersTab:
        settings.view = conceptViewName(*conceptOfTab(m_tabs->currentIndex()));
        break;
    case ContextTab: // the word and the second sentence the page holds
        settings.view = m_contextPage->viewName();
        break;
    case MixingTab: // the second sentence the page holds
        settings.view = m_mixingPage->viewName();
        break;
    case KernelTab: // the smoother or the learned kernel
        settings.view = m_kernelPage->viewName();
        break;
    case ProjectionsTab:
        settings.view = conceptViewName(ConceptView::Projections) + QLatin1Char(':') +
                        projectionsPartName(m_projectionsPage->part());
        break;
    default:
        settings.view = allHeadsShown() ? figureViewName(FigureView::Heads, 0)
                                        : figureViewName(FigureView::Head, head);
        break;
    }
    m_viewBar->storeSettings(settings);
    settings.compareScore = compareCombo()->currentData().toString();
    m_document.setView(settings); // -> applyViewSettings
}
} // namespace attn::ui
