#include "ui/concepts/mixing_figure.h"

#include "ui/concepts/concept_heatmap.h"
#include "ui/concepts/concept_plot.h"

#include "core/analysis/mixing_weights.h"
#include "core/error.h"
#include "core/scene.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(MixingFigure)
};

} // namespace

void buildMixingFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec)
{
    if (!source.scene)
        throw core::Error("mixing view: there is no scene");
    // Another view's words ("head:1" from the command line) are no sentence.
    const QString view = source.scene->view.view;
    const bool mixing =
        view.section(QLatin1Char(':'), 0, 0) == conceptViewName(ConceptView::Mixing);
    buildMixingFigure(plot, source, spec, mixing ? view.section(QLatin1Char(':'), 1) : QString());
}

void buildMixingFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec,
                       const QString& other)
{
    if (!source.scene)
        throw core::Error("mixing view: there is no scene");
    if (other.isEmpty())
        throw core::Error("mixing view: the scene's view names no second sentence "
                          "(mixing:SENTENCE)");
    const int head = std::clamp(source.head, 0, source.scene->weights.headCount() - 1);
    const core::MixingComparison c = core::compareMixing(*source.scene, other, head);

    clearPlot(plot, spec);
    addFigureText(plot, spec, 0,
                  spec.title.isEmpty()
                      ? Words::tr("Fixed weights against weights computed from the words")
                      : spec.title,
                  true);
    auto* body = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, body);
    const int gap = int(std::lround(8 * spec.pixelsPerPoint()));
    body->setRowSpacing(gap);
    body->setColumnSpacing(gap);
    const QString layers[3] = {Words::tr("fully connected"), Words::tr("convolution"),
                               Words::tr("attention, head %1").arg(head + 1)};
    std::vector<NumberedPanel> panels;
    for (int l = 0; l < 3; ++l) {
        const core::MatrixD difference = c.layers[l][1] - c.layers[l][0];
        const core::MatrixD* parts[3] = {&c.layers[l][0], &c.layers[l][1], &difference};
        // The layer names the column once; the rows below say which matrix.
        const QString titles[3] = {Words::tr("%1: before").arg(layers[l]), Words::tr("after"),
                                   Words::tr("after − before")};
        const QStringList* rows[3] = {&c.before, &c.after, &c.after};
        for (int p = 0; p < 3; ++p) {
            const bool signedPart = p == 2;
            const double top = signedPart ? std::max(largestMagnitude(difference), 0.05) : 1.0;
            const ConceptHeatmap how{titles[p],
                                     Words::tr("input position"),
                                     Words::tr("output position"),
                                     *rows[p],
                                     *rows[p],
                                     signedPart ? spec.style.signedColormap : spec.colormap,
                                     signedPart ? -top : 0.0,
                                     top};
            panels.push_back(
                {addConceptHeatmap(plot, spec, body, p, l, *parts[p], how), *parts[p], how});
        }
    }
    addFigureText(plot, spec, 2,
                  Words::tr("“%1” becomes “%2”. Rows are output positions, columns input "
                            "positions. The fully connected layer's weights belong to the "
                            "positions and the convolution's to its window: neither moves "
                            "(largest change %3 and %4). Attention computes its weights from "
                            "the words, so they move (largest change %5).")
                      .arg(c.before.join(QLatin1Char(' ')), c.after.join(QLatin1Char(' ')),
                           differenceText(c.changes[0]), differenceText(c.changes[1]),
                           differenceText(c.changes[2])),
                  false);
    numberPanels(plot, spec, panels);
    finishFigure(plot);
}

} // namespace attn::ui
