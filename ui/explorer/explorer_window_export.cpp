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

#include "core/atomic_file.h"
#include "core/error.h"

#include <QDir>
#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>

namespace attn::ui {

ExportDialog* ExplorerWindow::exportDialog() const
{
    return m_exportDialog;
}

PresentationWindow* ExplorerWindow::presentation() const
{
    return m_presentation;
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
    if (!m_document.result()) {
        showError(QStringLiteral("export"),
                  tr("There is no figure to export yet: the scene has not been computed."));
        return;
    }
    if (!m_exportDialog) {
        m_exportDialog = new ExportDialog(exportSource(), this);
        m_exportDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_exportDialog, &ExportDialog::saved, this, [this](const QString& path) {
            statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 6000);
        });
    }
    m_exportDialog->show();
    m_exportDialog->raise();
    m_exportDialog->activateWindow();
}

void ExplorerWindow::copyFigure()
{
    if (!m_document.result())
        return;
    const ExportSource source = exportSource();
    try {
        copyFigureToClipboard(source, windowExportSettings(source));
    } catch (const std::exception& error) {
        showError(QStringLiteral("export"),
                  tr("The figure was not copied: %1").arg(QString::fromUtf8(error.what())));
        return;
    }
    statusBar()->showMessage(tr("Figure copied as PNG and SVG"), 4000);
}

void ExplorerWindow::togglePresentation()
{
    if (m_presentation) {
        m_presentation->close();
        return;
    }
    if (!m_document.result()) {
        showError(QStringLiteral("export"),
                  tr("There is nothing to present yet: the scene has not been computed."));
        return;
    }
    m_presentation = new PresentationWindow(m_document.result(), this);
    m_presentation->setAttribute(Qt::WA_DeleteOnClose);
    m_presentation->setHead(std::max(0, selectedHead()));
    m_presentation->setWeightScale(figureSpec(FigureView::Head).weightScale);
    m_presentation->setExtras(presentationExtras(m_document.scene(), m_mixingPage->viewName()));
    if (m_document.scene().view.theme == QLatin1String("dark"))
        m_presentation->setTheme(PresentationTheme::Dark);
    m_presentation->showOver(*this, m_tabs->currentWidget());
}

bool ExplorerWindow::exportPresentation(const QString& path)
{
    const auto result = m_document.result();
    if (!result) {
        showError(QStringLiteral("export"),
                  tr("There is nothing to present yet: the scene has not been computed."));
        return false;
    }
    DeckOptions deck;
    deck.head = std::max(0, selectedHead());
    deck.theme = m_document.scene().view.theme == QLatin1String("dark") ? PresentationTheme::Dark
                                                                        : PresentationTheme::Light;
    deck.weightScale = figureSpec(FigureView::Head).weightScale;
    deck.extras = presentationExtras(m_document.scene(), m_mixingPage->viewName());
    if (m_presentation) { // what is on the screen: its head, theme and chosen cell
        deck.head = m_presentation->head();
        deck.theme = m_presentation->theme();
        deck.query = m_presentation->query();
        deck.key = m_presentation->key();
    }
    try {
        core::writeFileAtomically(path, presentationPdf(*result, deck));
    } catch (const std::exception& error) {
        showError(QStringLiteral("export"),
                  tr("The presentation was not exported: %1").arg(QString::fromUtf8(error.what())));
        return false;
    }
    statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 6000);
    return true;
}
} // namespace attn::ui
