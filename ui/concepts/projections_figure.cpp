#include "ui/concepts/projections_figure.h"

#include "ui/concepts/concept_heatmap.h"
#include "ui/concepts/concept_plot.h"
#include "ui/figures/colormap.h"
#include "ui/figures/figure_builder.h"

#include "core/analysis/projection_algebra.h"
#include "core/attention_result.h"
#include "core/enum_names.h"
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
    Q_DECLARE_TR_FUNCTIONS(ProjectionsFigure)
};

constexpr core::EnumNames<ProjectionsPart, 3> kParts{{
    {ProjectionsPart::Split, "split"},
    {ProjectionsPart::Circuits, "circuits"},
    {ProjectionsPart::Bias, "bias"},
}};

// The largest difference of an identity's two sides, as a learner reads it: 0 where they are
// the same numbers, else the size of the rounding.
QString difference(double value)
{
    return value == 0.0 ? QStringLiteral("0") : QLocale().toString(value, 'e', 1);
}

// A signed panel on the symmetric scale ±top, its numbers added by numberPanels.
QCPAxisRect* addPanel(QCustomPlot& plot, const FigureSpec& spec, QCPLayoutGrid* grid, int row,
                      int column, const core::MatrixD& values, ConceptHeatmap how, double top,
                      std::vector<NumberedPanel>& panels)
{
    how.map = spec.style.signedColormap;
    how.low = -top;
    how.high = top;
    QCPAxisRect* rect = addConceptHeatmap(plot, spec, grid, row, column, values, how);
    panels.push_back({rect, values, how});
    return rect;
}

// "1.1", "1.2", ..., "2.1": head.column, so the heads' blocks read off the axis.
QStringList blockLabels(int heads, int width)
{
    QStringList labels;
    for (int h = 0; h < heads; ++h)
        for (int c = 0; c < width; ++c)
            labels << QStringLiteral("%1.%2").arg(h + 1).arg(c + 1);
    return labels;
}

QStringList numbered(int count, int from = 1)
{
    QStringList labels;
    for (int i = 0; i < count; ++i)
        labels << QString::number(from + i);
    return labels;
}

// The input's dimensions: with one-hot words (seed 001) dimension v is a word, so a row of
// W^Q W^Kᵀ reads as "this word asks for that word"; else their numbers.
QStringList dimensionLabels(const core::Scene* scene, int dModel)
{
    QStringList labels = numbered(dModel);
    if (!scene || scene->embedding.kind != core::EmbeddingKind::OneHot)
        return labels;
    std::vector<QString> words = scene->embedding.vocabulary;
    if (words.empty()) {
        try {
            words = core::sceneVocabulary(*scene);
        } catch (const core::Error&) {
            return labels; // a sentence that does not tokenize keeps the numbers
        }
    }
    for (int v = 0; v < dModel && v < int(words.size()); ++v)
        labels[v] = words[std::size_t(v)];
    return labels;
}

// A vertical line between the heads' blocks of columns.
void markBlocks(QCPAxisRect* rect, int heads, int width, const FigureSpec& spec)
{
    for (int h = 1; h < heads; ++h) {
        auto* line = new QCPItemStraightLine(rect->parentPlot());
        line->setClipAxisRect(rect);
        for (QCPItemPosition* p : {line->point1, line->point2}) {
            p->setAxisRect(rect);
            p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        }
        line->point1->setCoords(h * width - 0.5, 0);
        line->point2->setCoords(h * width - 0.5, 1);
        line->setPen(QPen(spec.style.accent, 2.5 * spec.style.lineScale));
    }
}

QCPLayoutGrid* startFigure(QCustomPlot& plot, const FigureSpec& spec, const QString& title)
{
    clearPlot(plot, spec);
    addFigureText(plot, spec, 0, spec.title.isEmpty() ? title : spec.title, true);
    auto* body = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, body);
    body->setColumnSpacing(int(std::lround(12 * spec.pixelsPerPoint())));
    body->setRowSpacing(int(std::lround(8 * spec.pixelsPerPoint())));
    return body;
}

void buildSplit(QCustomPlot& plot, const core::AttentionResult& result,
                const QStringList& dimensions, int head, const FigureSpec& spec)
{
    const core::ModelWeights& w = *result.problem->weights;
    const core::OneProjection q = core::oneProjection(result, core::Projection::Query);
    const int h = w.headCount();
    const QStringList tokens = tokenLabels(result.problem->queryTokens, 1);
    std::vector<NumberedPanel> panels;
    QCPLayoutGrid* body =
        startFigure(plot, spec,
                    Words::tr("One projection cut into heads: W^Q is d_model × h·d_k = %1 × %2")
                        .arg(w.dModel)
                        .arg(h * w.dK));
    const double top = std::max({largestMagnitude(q.weights), largestMagnitude(q.product), 1.0});
    const QString dims = Words::tr("head.column");
    // W^Q across the top; below it X W^Q and head i's block, so that the columns line up by eye.
    QCPAxisRect* all = addPanel(plot, spec, body, 0, 0, q.weights,
                                {Words::tr("W^Q = [W_1^Q … W_%1^Q]").arg(h), dims,
                                 Words::tr("input dimension"), dimensions, blockLabels(h, w.dK)},
                                top, panels);
    markBlocks(all, h, w.dK, spec);
    addColorScale(plot, spec, body, 0, 1, spec.style.signedColormap, -top, top, Words::tr("value"));
    auto* below = new QCPLayoutGrid;
    body->addElement(1, 0, below);
    below->setColumnSpacing(body->columnSpacing());
    QCPAxisRect* product = addPanel(
        plot, spec, below, 0, 0, q.product,
        {Words::tr("Q = X W^Q, one product"), dims, QString(), tokens, blockLabels(h, w.dK)}, top,
        panels);
    markBlocks(product, h, w.dK, spec);
    addPanel(plot, spec, below, 0, 1, q.separate[std::size_t(head)],
             {Words::tr("Q_%1 = X W_%1^Q").arg(head + 1), Words::tr("column"), QString(), tokens,
              numbered(w.dK)},
             top, panels);
    below->setColumnStretchFactor(0, double(h * w.dK));
    below->setColumnStretchFactor(1, double(w.dK));
    body->setColumnStretchFactor(1, 0.01);
    body->setRowStretchFactor(0, double(w.dModel));
    body->setRowStretchFactor(1, double(std::max(2, int(q.product.rows()))));

    QString sizes =
        w.dK * h == w.dModel
            ? Words::tr("d_k = d_model / h = %1 / %2 = %3.").arg(w.dModel).arg(h).arg(w.dK)
            : Words::tr("Here h·d_k = %1 is not d_model = %2: W^Q is d_model × h·d_k.")
                  .arg(h * w.dK)
                  .arg(w.dModel);
    addFigureText(plot, spec, 2,
                  Words::tr("Columns %1.1–%1.%2 of X W^Q are X W_%1^Q: the largest difference of "
                            "any head's block is %3. %4 The heads' outputs are joined the same "
                            "way, so W^O is h·d_v × d_model = %5 × %6.")
                      .arg(head + 1)
                      .arg(w.dK)
                      .arg(difference(q.largestDifference), sizes)
                      .arg(h * w.dV)
                      .arg(w.dModel),
                  false);
    numberPanels(plot, spec, panels);
    finishFigure(plot);
}

void buildCircuits(QCustomPlot& plot, const core::AttentionResult& result, const QStringList& dims,
                   int head, const FigureSpec& spec)
{
    const core::ModelWeights& w = *result.problem->weights;
    const core::HeadCircuits c = core::headCircuits(result, head);
    std::vector<NumberedPanel> panels;
    QCPLayoutGrid* body =
        startFigure(plot, spec,
                    Words::tr("Head %1 as two d_model × d_model matrices: W_%1^Q W_%1^Kᵀ and "
                              "W_%1^V W_%1^O")
                        .arg(head + 1));
    const double top = std::max({largestMagnitude(c.qk), largestMagnitude(c.ov), 1.0});
    addPanel(plot, spec, body, 0, 0, c.qk,
             {Words::tr("QK: W^Q W^Kᵀ, rank %1 (d_k = %2)").arg(c.qkRank).arg(w.dK),
              Words::tr("key's input dimension"), Words::tr("query's input dimension"), dims, dims},
             top, panels);
    addPanel(plot, spec, body, 0, 1, c.ov,
             {Words::tr("OV: W^V W^O, rank %1 (d_v = %2)").arg(c.ovRank).arg(w.dV),
              Words::tr("output dimension"), Words::tr("value's input dimension"), dims,
              numbered(w.dModel)},
             top, panels);
    addColorScale(plot, spec, body, 0, 2, spec.style.signedColormap, -top, top, Words::tr("value"));
    body->setColumnStretchFactor(2, 0.01);

    QString scores =
        c.scoreDifference >= 0
            ? Words::tr("The scores x_a (W^Q W^Kᵀ) x_bᵀ are q_a · k_b (largest difference %1).")
                  .arg(difference(c.scoreDifference))
            : Words::tr("The score here is not q · k alone (biases, rotation or another score), "
                        "so only the OV identity is checked.");
    addFigureText(plot, spec, 2,
                  Words::tr("%1 The output written as ∑ᵢ Aᵢ X W_i^V W_i^O + b^O is Concat(H) W^O "
                            "+ b^O (largest difference %2). Only the products matter: W^V R "
                            "and R⁻¹ W^O give the same OV for any invertible R, so one matrix "
                            "of each pair is redundant; the products have rank at most d_k and "
                            "d_v, not d_model = %3.")
                      .arg(scores, difference(c.outputDifference))
                      .arg(w.dModel),
                  false);
    numberPanels(plot, spec, panels);
    finishFigure(plot);
}

void buildBias(QCustomPlot& plot, const core::AttentionResult& result,
               const QStringList& dimensions, int head, const FigureSpec& spec)
{
    const core::AbsorbedBias q = core::absorbedBias(result, head, core::Projection::Query);
    double worst = 0.0; // over Q, K and V
    for (core::Projection p :
         {core::Projection::Query, core::Projection::Key, core::Projection::Value})
        worst = std::max(worst, core::absorbedBias(result, head, p).largestDifference);
    const core::ModelWeights& w = *result.problem->weights;
    std::vector<NumberedPanel> panels;
    QCPLayoutGrid* body = startFigure(
        plot, spec, Words::tr("Head %1: the bias as a row of W, 1 as a column of X").arg(head + 1));
    const double top =
        std::max({largestMagnitude(q.augmentedInput), largestMagnitude(q.augmentedWeights),
                  largestMagnitude(q.product), 1.0});
    const QStringList tokens = tokenLabels(result.problem->queryTokens, 1);
    QStringList inputColumns = dimensions;
    inputColumns << QStringLiteral("1");
    QStringList weightRows = dimensions;
    weightRows << QStringLiteral("b");
    addPanel(plot, spec, body, 0, 0, q.augmentedInput,
             {Words::tr("[X 1]"), Words::tr("dimension"), QString(), tokens, inputColumns}, top,
             panels);
    addPanel(plot, spec, body, 0, 1, q.augmentedWeights,
             {Words::tr("[W^Q; b^Q]"), Words::tr("column"), QString(), weightRows, numbered(w.dK)},
             top, panels);
    addPanel(plot, spec, body, 0, 2, q.product,
             {Words::tr("Q = X W^Q + b^Q"), Words::tr("column"), QString(), tokens, numbered(w.dK)},
             top, panels);
    addColorScale(plot, spec, body, 0, 3, spec.style.signedColormap, -top, top, Words::tr("value"));
    body->setColumnStretchFactor(0, double(w.dModel + 1));
    body->setColumnStretchFactor(1, double(w.dK));
    body->setColumnStretchFactor(2, double(w.dK));
    body->setColumnStretchFactor(3, 0.01);
    addFigureText(
        plot, spec, 2,
        (q.hasBias ? QString() : Words::tr("This head has no bias: the extra row is zeros. ")) +
            Words::tr("The same for K and V: the largest difference from the layer's "
                      "own Q, K and V is %1.")
                .arg(difference(worst)),
        false);
    numberPanels(plot, spec, panels);
    finishFigure(plot);
}

} // namespace

std::optional<ProjectionsPart> parseProjectionsPart(const QString& name)
{
    return core::enumFromName(kParts, name);
}

QString projectionsPartName(ProjectionsPart part)
{
    return core::enumQName(kParts, part);
}

ProjectionsPart projectionsPartOf(const core::Scene& scene)
{
    const QString view = scene.view.view;
    if (view.section(QLatin1Char(':'), 0, 0) != conceptViewName(ConceptView::Projections))
        return ProjectionsPart::Split;
    return parseProjectionsPart(view.section(QLatin1Char(':'), 1)).value_or(ProjectionsPart::Split);
}

void buildProjectionsFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec,
                            ProjectionsPart part)
{
    if (!source.result || source.result->heads.empty())
        throw core::Error("projections view: there is no result to show yet");
    const core::AttentionResult& result = *source.result;
    const int head = std::clamp(source.head, 0, int(result.heads.size()) - 1);
    const QStringList dimensions =
        dimensionLabels(source.scene.get(), result.problem->weights->dModel);
    switch (part) {
    case ProjectionsPart::Split:
        buildSplit(plot, result, dimensions, head, spec);
        return;
    case ProjectionsPart::Circuits:
        buildCircuits(plot, result, dimensions, head, spec);
        return;
    case ProjectionsPart::Bias:
        buildBias(plot, result, dimensions, head, spec);
        return;
    }
}

} // namespace attn::ui
