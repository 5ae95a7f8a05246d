#include "ui/concepts/context_figure.h"

#include "ui/concepts/concept_heatmap.h"
#include "ui/concepts/concept_plot.h"

#include "core/analysis/context_vectors.h"
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
    Q_DECLARE_TR_FUNCTIONS(ContextFigure)
};

} // namespace

void buildContextFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec)
{
    if (!source.scene)
        throw core::Error("context view: there is no scene");
    const QString view = source.scene->view.view;
    buildContextFigure(plot, source, spec, view.section(QLatin1Char(':'), 1, 1),
                       view.section(QLatin1Char(':'), 2));
}

void buildContextFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec,
                        const QString& word, const QString& other)
{
    if (!source.scene)
        throw core::Error("context view: there is no scene");
    if (word.isEmpty() || other.isEmpty())
        throw core::Error("context view: the scene's view names no word and second sentence "
                          "(context:WORD:SENTENCE)");
    const core::ContextComparison c = core::compareContexts(*source.scene, other, word);

    clearPlot(plot, spec);
    addFigureText(plot, spec, 0,
                  spec.title.isEmpty()
                      ? Words::tr("“%1” in two sentences: one input vector, two outputs").arg(word)
                      : spec.title,
                  true);
    auto* body = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, body);
    body->setRowSpacing(int(std::lround(10 * spec.pixelsPerPoint())));
    const QStringList rows{QStringLiteral("1"), QStringLiteral("2")};
    std::vector<NumberedPanel> panels;
    const std::pair<const core::MatrixD*, QString> parts[] = {
        {&c.inputs, Words::tr("input x: the embedding of “%1”, a lookup").arg(word)},
        {&c.outputs, Words::tr("output y: “%1” after attention").arg(word)}};
    for (int r = 0; r < 2; ++r) {
        const double top = largestMagnitude(*parts[r].first);
        const ConceptHeatmap how{parts[r].second,
                                 Words::tr("dimension"),
                                 Words::tr("sentence"),
                                 rows,
                                 {},
                                 spec.style.signedColormap,
                                 -top,
                                 top};
        panels.push_back({addConceptHeatmap(plot, spec, body, r, 0, *parts[r].first, how),
                          *parts[r].first, how});
        addColorScale(plot, spec, body, r, 1, spec.style.signedColormap, -top, top,
                      Words::tr("value"));
    }
    body->setColumnStretchFactor(1, 0.01);
    addFigureText(plot, spec, 2,
                  Words::tr("Sentence 1: “%1”. Sentence 2: “%2”. The input is the same in both "
                            "(largest difference %3): one global vector per word. The output "
                            "differs (largest difference %4, cosine %5): attention mixes in the "
                            "other words, so the word's representation depends on its context.")
                      .arg(c.sentences[0], c.sentences[1], differenceText(c.inputDifference),
                           differenceText(c.outputDifference), differenceText(c.outputCosine)),
                  false);
    numberPanels(plot, spec, panels);
    finishFigure(plot);
}

} // namespace attn::ui
