// The model window's figures leaving it: model figures written to files, the selected head
// for the export dialog, and the presentation.

#include "ui/model/model_window.h"

#include "ui/export/export_dialog.h"
#include "ui/model/head_grid_view.h"
#include "ui/model/lens_tabs.h"
#include "ui/presentation/presentation_window.h"
#include "ui/workspace/figure_exports.h"

#include <QFileInfo>
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

void ModelWindow::buildExports()
{
    m_exports = new FigureExports(
        *this,
        {[this] { return m_document.result() != nullptr; }, [this] { return exportSource(); },
         [this]() -> std::shared_ptr<const core::AttentionResult> {
             const auto result = m_document.result();
             if (!result || result->layerCount() == 0)
                 return nullptr;
             // A model head is an ordinary AttentionResult: the presentation takes it as it is.
             return selectedLayerDetail();
         },
         [this](PresentationWindow& presentation) {
             presentation.setHead(m_document.selectedHead());
         },
         [this] { return m_grid; },
         [this](const QString& text) { showError(QStringLiteral("export"), text); }},
        // The model window has said nothing here from the start: its commands are disabled
        // until a model has run.
        {QString(), QString(), false, false});
}

bool ModelWindow::exportModelFigure(ModelFigure figure, const QString& path, QSize size, double dpi)
{
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
    return m_exports->writeFigure(path, [&](FigureFormat format) {
        return modelFigureBytes(figure, figureSource(), size, dpi, format);
    });
}

void ModelWindow::exportModelFigureDialog(ModelFigure figure)
{
    if (!m_document.result())
        return;
    const QString path =
        m_exports->askFigurePath(QFileInfo(m_document.model()->name).fileName() + QLatin1Char('-') +
                                 modelFigureName(figure) + QStringLiteral(".pdf"));
    if (!path.isEmpty())
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
    m_exports->openDialog();
}

ExportDialog* ModelWindow::exportDialog() const
{
    return m_exports->dialog();
}

PresentationWindow* ModelWindow::presentation() const
{
    return m_exports->presentation();
}

void ModelWindow::togglePresentation()
{
    m_exports->togglePresentation();
}
} // namespace attn::ui
