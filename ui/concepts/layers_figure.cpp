#include "ui/concepts/layers_figure.h"

#include "ui/concepts/concept_heatmap.h"
#include "ui/concepts/concept_plot.h"
#include "ui/figures/figure_builder.h"

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene.h"
#include "core/scene_layers.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <cmath>

namespace attn::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(LayersFigure)
};

} // namespace

void buildLayersFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec)
{
    if (!source.scene)
        throw core::Error("layers view: there is no scene");
    const core::Scene& scene = *source.scene;
    if (!core::isStacked(scene))
        throw core::Error(
            Words::tr("This scene is one attention layer. Choose 2 blocks above (or open File › "
                      "Examples › Stacked blocks) to see attention and a feed-forward layer "
                      "stacked.")
                .toStdString());
    core::CpuBackend backend;
    core::ComputeOptions options;
    options.keepIntermediates = false;
    const std::vector<core::BlockForward> blocks = core::forwardLayers(scene, backend, options);
    const QStringList tokens = tokenLabels(blocks.front().attention->problem->queryTokens, 1);

    clearPlot(plot, spec);
    addFigureText(plot, spec, 0,
                  spec.title.isEmpty()
                      ? Words::tr("%1 stacked blocks: each block's output is the next one's input")
                            .arg(blocks.size())
                      : spec.title,
                  true);
    auto* body = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, body);
    body->setColumnSpacing(int(std::lround(6 * spec.pixelsPerPoint())));
    body->setRowSpacing(int(std::lround(8 * spec.pixelsPerPoint())));

    std::vector<NumberedPanel> panels;
    const int count = int(blocks.size());
    for (int l = 0; l < count; ++l) {
        const core::BlockForward& b = blocks[std::size_t(l)];
        // Short column names, so that they fit the narrow panels of a 1024 x 768 window; the
        // note below the figure says what each is.
        const std::pair<const core::Matrix*, QString> parts[] = {
            {&b.attention->queryInput(), QStringLiteral("X")},
            {&b.attention->output, QStringLiteral("A")},
            {&b.residual, QStringLiteral("+A")},
            {&b.normed, QStringLiteral("H")},
            {&b.feedForward, QStringLiteral("F")},
            {&b.feedForwardResidual, QStringLiteral("+F")},
            {&b.output, QStringLiteral("Y")},
        };
        const QString rowName = l == 0
                                    ? Words::tr("layer 1 (X = E + P)")
                                    : Words::tr("layer %1 (X = Y of layer %2)").arg(l + 1).arg(l);
        double top = 1e-12;
        for (const auto& part : parts)
            top = std::max(top, largestMagnitude(part.first->cast<double>()));
        for (int c = 0; c < 7; ++c) {
            const core::MatrixD values = parts[c].first->cast<double>();
            const ConceptHeatmap how{parts[c].second,
                                     l == count - 1 ? Words::tr("dim") : QString(),
                                     c == 0 ? rowName : QString(),
                                     tokens,
                                     {},
                                     spec.style.signedColormap,
                                     -top,
                                     top};
            QCPAxisRect* rect = addConceptHeatmap(plot, spec, body, l, c, values, how);
            if (c > 0)
                rect->axis(QCPAxis::atLeft)->setTickLabels(false);
            panels.push_back({rect, values, how});
        }
        addColorScale(plot, spec, body, l, 7, spec.style.signedColormap, -top, top,
                      Words::tr("value"));
    }
    // The first panel's token labels take part of its column: widen it so that its cells are
    // as wide as the others'.
    body->setColumnStretchFactor(0, 1.5);
    body->setColumnStretchFactor(7, 0.01);
    addFigureText(
        plot, spec, 2,
        Words::tr("Each row is one block, post-norm as in Vaswani et al. 2017: A = MHA(X), "
                  "the multi-head attention; H = LN(X + A), LN the layer norm; F = "
                  "FFN(H) = max(0, H W1 + b1) W2 + b2; Y = LN(H + F); +A is X + A and "
                  "+F is H + F. Rows are the "
                  "tokens in every panel: attention mixes rows, the FFN works on each "
                  "row alone. Each block's X is the Y of the block above it."),
        false);
    numberPanels(plot, spec, panels);
    finishFigure(plot);
}

} // namespace attn::ui
