#include "ui/concepts/concept_figures.h"

#include "ui/concepts/context_figure.h"
#include "ui/concepts/embedding_space_figure.h"
#include "ui/concepts/gradient_figure.h"
#include "ui/concepts/hard_figure.h"
#include "ui/concepts/kernel_figure.h"
#include "ui/concepts/layers_figure.h"
#include "ui/concepts/mixing_figure.h"
#include "ui/concepts/positions_figure.h"
#include "ui/concepts/projections_figure.h"
#include "ui/concepts/train_figure.h"

#include <qcustomplot.h>

namespace attn::ui {

void buildConceptFigure(QCustomPlot& plot, ConceptView view, const ConceptSource& source,
                        const FigureSpec& spec)
{
    switch (view) {
    case ConceptView::Train:
        buildTrainingFigure(plot, source, spec);
        return;
    case ConceptView::Gradient:
        buildGradientFigure(plot, source, spec);
        return;
    case ConceptView::Kernel:
        buildKernelFigure(plot, source, spec);
        return;
    case ConceptView::Positions:
        buildPositionsFigure(plot, source, spec);
        return;
    case ConceptView::EmbeddingSpace:
        buildEmbeddingSpaceFigure(plot, source, spec);
        return;
    case ConceptView::Projections: // the part the scene's view names
        buildProjectionsFigure(plot, source, spec, projectionsPartOf(*source.scene));
        return;
    case ConceptView::Hard:
        buildHardFigure(plot, source, spec);
        return;
    case ConceptView::Context:
        buildContextFigure(plot, source, spec);
        return;
    case ConceptView::Layers:
        buildLayersFigure(plot, source, spec);
        return;
    case ConceptView::Mixing:
        buildMixingFigure(plot, source, spec);
        return;
    }
}

QByteArray drawnFigureBytes(const std::function<void(QCustomPlot&)>& draw, QSize size, double dpi,
                            FigureFormat format)
{
    QCustomPlot plot;
    plot.setAttribute(Qt::WA_DontShowOnScreen);
    plot.resize(size);
    plot.setViewport(QRect(QPoint(0, 0), size)); // what the builders wrap their text to
    draw(plot);
    plot.replot(QCustomPlot::rpImmediateRefresh);
    return renderFigure(plot, size, dpi, format);
}

QByteArray conceptFigureBytes(ConceptView view, const ConceptSource& source, const FigureSpec& spec,
                              QSize size, FigureFormat format)
{
    return drawnFigureBytes(
        [&](QCustomPlot& plot) { buildConceptFigure(plot, view, source, spec); }, size, spec.dpi,
        format);
}

} // namespace attn::ui
