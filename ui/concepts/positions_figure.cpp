#include "ui/concepts/positions_figure.h"

#include "ui/concepts/concept_heatmap.h"
#include "ui/concepts/concept_plot.h"

#include "core/analysis/positional_analysis.h"
#include "core/attention_result.h"
#include "core/error.h"
#include "core/model/model_loader.h"
#include "core/problem.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(PositionsFigure)
};

// The rotary score R(m) q · R(n) k against m − n, from −reach to reach.
void addRotaryScores(QCPAxisRect* rect, const core::RotaryView& view, int reach,
                     const FigureSpec& spec)
{
    auto* graph = new QCPGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    graph->setName(QStringLiteral("rotary score"));
    QVector<double> d, s;
    for (std::size_t i = 0; i < view.distances.size(); ++i) {
        d << view.distances[i];
        s << view.scores[i];
    }
    graph->setData(d, s);
    graph->setPen(QPen(spec.style.accent, 2 * spec.style.lineScale));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4 * spec.pixelsPerPoint()));
    rect->axis(QCPAxis::atBottom)->setRange(-reach - 0.5, reach + 0.5);
    graph->rescaleValueAxis();
}

} // namespace

void buildPositionsFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec)
{
    if (!source.scene)
        throw core::Error("positions view: there is no scene");
    const core::PositionalView view = core::positionalView(*source.scene);
    QStringList tokens;
    for (const QString& t : view.tokens)
        tokens << t;
    const bool none = source.scene->positional.kind == core::PositionalKind::None;

    clearPlot(plot, spec);
    addFigureText(plot, spec, 0,
                  spec.title.isEmpty()
                      ? (none ? Words::tr("Positions: none, so the layer cannot tell word order")
                              : Words::tr("Positional encodings: X = E + P"))
                      : spec.title,
                  true);
    auto* body = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, body);
    body->setColumnSpacing(int(std::lround(10 * spec.pixelsPerPoint())));
    body->setRowSpacing(int(std::lround(8 * spec.pixelsPerPoint())));

    const core::MatrixD p = view.positions.cast<double>();
    const core::MatrixD e = view.embeddings.cast<double>();
    const core::MatrixD x = view.sum.cast<double>();
    const core::MatrixD similarity = view.similarity.cast<double>();
    // E and X share one scale (the sum compares with its parts); P and P Pᵀ have their own,
    // named in their titles: sines and cosines fill -1 to 1, P Pᵀ up to d/2.
    const double signedTop = std::max(largestMagnitude(e), largestMagnitude(x));
    const double alike = largestMagnitude(similarity, 1.0);
    const QString dimensions = Words::tr("dimension");
    addConceptHeatmap(plot, spec, body, 0, 0, p,
                      {Words::tr("P: sin and cos of the position (−1 to 1)"),
                       dimensions,
                       Words::tr("position"),
                       {},
                       {},
                       spec.style.signedColormap,
                       -1.0,
                       1.0});
    addConceptHeatmap(plot, spec, body, 0, 1, similarity,
                      {Words::tr("P Pᵀ: how alike two positions are (±%1)")
                           .arg(QLocale().toString(alike, 'g', 3)),
                       Words::tr("position"),
                       Words::tr("position"),
                       {},
                       {},
                       spec.style.signedColormap,
                       -alike,
                       alike});
    const std::pair<const core::MatrixD*, QString> inputs[] = {
        {&e, Words::tr("E: the words")}, {&x, Words::tr("X = E + P: what the projections see")}};
    for (int c = 0; c < 2; ++c)
        addConceptHeatmap(plot, spec, body, 1, c, *inputs[c].first,
                          {inputs[c].second,
                           dimensions,
                           QString(),
                           tokens,
                           {},
                           spec.style.signedColormap,
                           -signedTop,
                           signedTop});
    addColorScale(plot, spec, body, 1, 2, spec.style.signedColormap, -signedTop, signedTop,
                  Words::tr("value"));

    // Rotary positions: the score of one query and one key turned to positions m and n
    // depends on m − n only (RoFormer, eq. 16); drawn for the head's own q and k.
    if (source.result && !source.result->heads.empty() && source.result->intermediatesKept &&
        !source.result->pooling.pooled) {
        const core::AttentionResult& result = *source.result;
        const int head = std::clamp(source.head, 0, int(result.heads.size()) - 1);
        const core::Matrix& q = result.heads[std::size_t(head)].Q;
        const core::Matrix& k = result.heads[std::size_t(head)].K;
        const int dK = int(q.cols());
        if (dK >= 2 && dK % 2 == 0 && q.rows() > 0 && k.rows() > 0) {
            const int query = std::clamp(source.query, 0, int(q.rows()) - 1);
            const core::RotarySpec rotary =
                result.problem->rotary.enabled() ? result.problem->rotary : core::defaultRotary(dK);
            const int reach = std::max(8, int(std::max(q.rows(), k.rows())));
            const core::RotaryView turned = core::rotaryView(
                q.row(query).cast<double>(), k.row(0).cast<double>(), rotary, 2 * reach + 1, reach);
            QCPAxisRect* rect =
                addAxisRect(plot, spec, body, 2, 0,
                            Words::tr("m − n: “%1” at m, “%2” at n")
                                .arg(result.problem->queryTokens[std::size_t(query)].text,
                                     result.problem->keyTokens.front().text),
                            Words::tr("R(m) q · R(n) k"));
            addRotaryScores(rect, turned, reach, spec);
            setIntegerTicks(rect->axis(QCPAxis::atBottom));
            setPanelTitle(plot, spec, rect,
                          Words::tr("Rotary, head %1: score by distance").arg(head + 1));
            // A curve needs height to be read: at least 80 points, whatever the heatmaps
            // above ask (else a window's tab left it about 60 pixels).
            rect->setMinimumSize(0, int(std::lround(80 * spec.pixelsPerPoint())));
            body->setRowStretchFactor(1, 1.3);
            body->setRowStretchFactor(2, 0.8);
        }
    }
    finishFigure(plot);
}

void buildModelPositionsFigure(QCustomPlot& plot, const core::Model& model, int positions,
                               const FigureSpec& spec)
{
    const core::ModelConfig& config = model.config();
    clearPlot(plot, spec);
    auto* body = new QCPLayoutGrid;
    body->setColumnSpacing(int(std::lround(14 * spec.pixelsPerPoint())));
    if (config.positions == core::PositionKind::Learned) {
        const core::Matrix& table = model.weights.positionEmbedding;
        const int rows = int(std::min<Eigen::Index>(positions, table.rows()));
        if (rows < 1)
            throw core::Error("positions view: the model has no position table");
        addFigureText(
            plot, spec, 0,
            spec.title.isEmpty()
                ? Words::tr("%1: learned positions, the first %2").arg(model.name).arg(rows)
                : spec.title,
            true);
        plot.plotLayout()->addElement(1, 0, body);
        const core::MatrixD p = table.topRows(rows).cast<double>();
        const core::MatrixD cosine =
            core::positionSimilarity(table.topRows(rows), true).cast<double>();
        const double top = largestMagnitude(p);
        addConceptHeatmap(plot, spec, body, 0, 0, p,
                          {Words::tr("P: the position table"),
                           Words::tr("dimension"),
                           Words::tr("position"),
                           {},
                           {},
                           spec.style.signedColormap,
                           -top,
                           top});
        addConceptHeatmap(plot, spec, body, 0, 1, cosine,
                          {Words::tr("cosine of positions i and j"),
                           Words::tr("position"),
                           Words::tr("position"),
                           {},
                           {},
                           spec.style.signedColormap,
                           -1.0,
                           1.0});
        addColorScale(plot, spec, body, 0, 2, spec.style.signedColormap, -1.0, 1.0,
                      Words::tr("cosine"));
        finishFigure(plot);
        return;
    }
    const std::vector<float>& frequencies = config.ropeInverseFrequencies;
    if (frequencies.empty())
        throw core::Error("positions view: the model has no rotary frequencies");
    core::RotarySpec rotary;
    rotary.inverseFrequencies = frequencies;
    const int dHead = int(2 * frequencies.size());
    addFigureText(plot, spec, 0,
                  spec.title.isEmpty() ? Words::tr("%1: rotary positions, %2 frequencies, θ = %3")
                                             .arg(model.name)
                                             .arg(frequencies.size())
                                             .arg(QLocale().toString(config.ropeTheta, 'g', 6))
                                       : spec.title,
                  true);
    plot.plotLayout()->addElement(1, 0, body);
    const core::RowVectorD ones = core::RowVectorD::Ones(dHead);
    const int reach = std::max(8, positions);
    const core::RotaryView view = core::rotaryView(ones, ones, rotary, reach + 1, reach);
    const core::MatrixD angles = view.angles.cast<double>();
    ConceptHeatmap how{Words::tr("angle p · θ_i (radians)"),
                       Words::tr("frequency i"),
                       Words::tr("position p"),
                       {},
                       {},
                       spec.colormap,
                       0.0,
                       std::max(1e-9, angles.maxCoeff())};
    addConceptHeatmap(plot, spec, body, 0, 0, angles, how);
    QCPAxisRect* rect = addAxisRect(plot, spec, body, 0, 1, Words::tr("distance m − n"),
                                    Words::tr("R(m) q · R(n) k"));
    addRotaryScores(rect, view, reach, spec);
    setPanelTitle(plot, spec, rect, Words::tr("q = k = (1, …, 1) turned to m and n"));
    finishFigure(plot);
}

} // namespace attn::ui
