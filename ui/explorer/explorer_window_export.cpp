// The explorer window's figures leaving it: the export dialog and its source, the clipboard,
// the presentation and its PDF.

#include "ui/explorer/explorer_window.h"

#include "ui/app/window_manager.h"
#include "ui/concepts/concept_pages.h"
#include "ui/concepts/context_page.h"
#include "ui/concepts/hard_page.h"
#include "ui/concepts/layers_page.h"
#include "ui/concepts/mixing_page.h"
#include "ui/concepts/projections_page.h"
#include "ui/concepts/train_page.h"
#include "ui/document/file_names.h"
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
#include "ui/widgets/attention_panel.h"
#include "ui/workspace/figure_exports.h"

#include "core/error.h"

#include <QFileInfo>
#include <QTabWidget>

namespace attn::ui {

void ExplorerWindow::buildExports()
{
    const auto result = [this] { return m_document.result(); };
    m_exports = new FigureExports(
        *this,
        {[result] { return result() != nullptr; }, [this] { return exportSource(); }, result,
         [this](PresentationWindow& presentation) {
             presentation.setHead(std::max(0, selectedHead()));
             presentation.setWeightScale(figureSpec(FigureView::Head).weightScale);
             presentation.setExtras(
                 presentationExtras(m_document.scene(), m_mixingPage->viewName()));
             if (m_document.scene().view.theme == QLatin1String("dark"))
                 presentation.setTheme(PresentationTheme::Dark);
         },
         [this] { return m_tabs->currentWidget(); },
         [this](const QString& text) { showError(QStringLiteral("export"), text); }},
        {tr("There is no figure to export yet: the scene has not been computed."),
         tr("There is nothing to present yet: the scene has not been computed.")});
}

ExportDialog* ExplorerWindow::exportDialog() const
{
    return m_exports->dialog();
}

PresentationWindow* ExplorerWindow::presentation() const
{
    return m_exports->presentation();
}

ExportSource ExplorerWindow::exportSource() const
{
    ExportSource source;
    source.result = m_document.result();
    source.compare = m_compareResult;
    const int tab = m_tabs->currentIndex();
    source.spec = figureSpec(tab == PipelineTab                  ? FigureView::Pipeline
                             : tab == DifferenceTab              ? FigureView::Difference
                             : tab == HeadTab && allHeadsShown() ? FigureView::Heads
                                                                 : FigureView::Head);
    source.lines = tab == LinesTab;
    if (const auto view = conceptOfTab(tab)) {
        // What the page shows now (dragged points, the chosen query, the training so far).
        QPointer<ConceptPage> page = conceptPages()[std::size_t(*view)];
        source.drawConcept = [page](QCustomPlot& plot, const FigureSpec& spec) {
            if (!page)
                throw core::Error("the view was closed");
            page->draw(plot, spec);
        };
        source.suggestedName += QLatin1Char('-') + conceptViewName(*view);
    }
    source.suggestedName =
        m_document.filePath().isEmpty()
            ? fileNameFromTitle(m_document.scene().title, QStringLiteral("attention"))
            : QFileInfo(m_document.filePath()).completeBaseName();
    return source;
}

void ExplorerWindow::openExportDialog()
{
    m_exports->openDialog();
}

void ExplorerWindow::copyFigure()
{
    m_exports->copyFigure();
}

void ExplorerWindow::togglePresentation()
{
    m_exports->togglePresentation();
}

bool ExplorerWindow::exportPresentation(const QString& path)
{
    return m_exports->exportPresentation(path, [this] {
        DeckOptions deck;
        deck.head = std::max(0, selectedHead());
        deck.theme = m_document.scene().view.theme == QLatin1String("dark")
                         ? PresentationTheme::Dark
                         : PresentationTheme::Light;
        deck.weightScale = figureSpec(FigureView::Head).weightScale;
        deck.extras = presentationExtras(m_document.scene(), m_mixingPage->viewName());
        return deck;
    });
}
} // namespace attn::ui
