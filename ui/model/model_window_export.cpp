// The model window's figures leaving it: model figures written to files, the selected head
// for the export dialog, and the presentation.

#include "ui/model/model_window.h"

#include "ui/document/preferences.h"
#include "ui/export/export_dialog.h"
#include "ui/model/head_grid_view.h"
#include "ui/model/lens_tabs.h"
#include "ui/presentation/presentation_window.h"

#include "core/atomic_file.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>
#include <QTabWidget>

namespace attn::ui {

ModelFigureSource ModelWindow::figureSource() const
{
    ModelFigureSource source;
    source.result = m_document.result();
    source.baseline = m_document.baseline();
    source.layer = m_document.selectedLayer();
    source.focusToken = m_document.focusToken();
    if (m_importanceResult && m_importanceFor == source.result)
        source.importance = m_importanceResult;
    m_lensTabs->fill(source);
    return source;
}

bool ModelWindow::exportModelFigure(ModelFigure figure, const QString& path, QSize size, double dpi)
{
    const auto format = figureFormatForPath(path);
    if (!format) {
        showError(QStringLiteral("export"),
                  tr("Export: the file name must end in .png, .svg or .pdf"));
        return false;
    }
    if (!size.isValid() || size.isEmpty()) {
        switch (figure) {
        case ModelFigure::Grid:
            size = QSize(1800, 1700);
            break;
        case ModelFigure::Rollout:
            size = QSize(2200, 1200);
            break;
        case ModelFigure::Predictions:
            size = QSize(1600, 1000);
            break;
        case ModelFigure::Importance:
            size = QSize(1600, 1500);
            break;
        case ModelFigure::LogitLens:
        case ModelFigure::Patching:
        case ModelFigure::Attribution:
            size = QSize(1920, 1080);
            break;
        }
    }
    try {
        core::writeFileAtomically(path,
                                  modelFigureBytes(figure, figureSource(), size, dpi, *format));
    } catch (const std::exception& error) {
        showError(QStringLiteral("export"),
                  tr("The figure was not exported: %1").arg(QString::fromUtf8(error.what())));
        return false;
    }
    statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 6000);
    return true;
}

void ModelWindow::exportModelFigureDialog(ModelFigure figure)
{
    if (!m_document.result())
        return;
    const QString name = QFileInfo(m_document.model()->name).fileName() + QLatin1Char('-') +
                         modelFigureName(figure) + QStringLiteral(".pdf");
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Figure"), QDir(preferences::sceneDirectory()).filePath(name),
        tr("PDF (*.pdf);;SVG (*.svg);;PNG (*.png)"));
    if (path.isEmpty())
        return;
    preferences::rememberSceneFile(path);
    exportModelFigure(figure, path);
}

std::shared_ptr<const core::AttentionResult> ModelWindow::selectedLayerDetail() const
{
    const auto result = m_document.result();
    if (!result || result->layerCount() == 0)
        return nullptr;
    const int layer = std::clamp(m_document.selectedLayer(), 0, result->layerCount() - 1);
    if (m_detail && m_detailFor == result && m_detailLayer == layer)
        return m_detail;
    return result->layers[std::size_t(layer)];
}

ExportSource ModelWindow::exportSource() const
{
    ExportSource source;
    const auto result = m_document.result();
    if (!result || result->layerCount() == 0)
        return source;
    const int layer = std::clamp(m_document.selectedLayer(), 0, result->layerCount() - 1);
    source.result = m_tabs->currentIndex() == PipelineTab ? selectedLayerDetail()
                                                          : result->layers[std::size_t(layer)];
    if (m_compareFor == result)
        source.compare = m_compare;
    const int tab = m_tabs->currentIndex();
    source.spec = figureSpec(tab == PipelineTab     ? FigureView::Pipeline
                             : tab == DifferenceTab ? FigureView::Difference
                                                    : FigureView::Head);
    source.spec.style = FigureStyle{};
    source.lines = tab == LinesTab;
    source.suggestedName = QStringLiteral("%1-layer%2-head%3")
                               .arg(QFileInfo(m_document.model()->name).fileName())
                               .arg(layer + 1)
                               .arg(m_document.selectedHead() + 1);
    return source;
}

void ModelWindow::openExportDialog()
{
    if (!m_document.result())
        return;
    if (!m_exportDialog) {
        m_exportDialog = new ExportDialog(exportSource(), this);
        m_exportDialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_exportDialog->show();
    m_exportDialog->raise();
}

ExportDialog* ModelWindow::exportDialog() const
{
    return m_exportDialog;
}

PresentationWindow* ModelWindow::presentation() const
{
    return m_presentation;
}

void ModelWindow::togglePresentation()
{
    if (m_presentation) {
        m_presentation->close();
        return;
    }
    const auto result = m_document.result();
    if (!result || result->layerCount() == 0)
        return;
    // A model head is an ordinary AttentionResult: the presentation takes it as it is.
    m_presentation = new PresentationWindow(selectedLayerDetail(), this);
    m_presentation->setAttribute(Qt::WA_DeleteOnClose);
    m_presentation->setHead(m_document.selectedHead());
    m_presentation->showOver(*this, m_grid);
}
} // namespace attn::ui
