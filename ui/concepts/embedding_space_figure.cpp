#include "ui/concepts/embedding_space_figure.h"

#include "ui/concepts/concept_plot.h"

#include "core/error.h"
#include "core/tokenizer.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(EmbeddingSpaceFigure)
};

QString percent(double share)
{
    return QLocale().toString(100.0 * share, 'f', 0);
}

} // namespace

void buildEmbeddingSpaceFigure(QCustomPlot& plot, const core::EmbeddingSpace& space,
                               const EmbeddingMapOptions& options, const FigureSpec& spec)
{
    if (space.size() < 2)
        throw core::Error("embedding space: a map needs at least two words");
    const core::EmbeddingSpace::Map map = options.tsne ? space.tsneMap() : space.pcaMap();
    clearPlot(plot, spec);
    addFigureText(plot, spec, 0,
                  spec.title.isEmpty() ? Words::tr("Embedding space: %1 words of %2, %3 dimensions")
                                             .arg(space.size())
                                             .arg(space.source())
                                             .arg(space.dimension())
                                       : spec.title,
                  true);
    auto* body = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, body);
    const bool pca = !options.tsne && map.explained.size() >= 2;
    QCPAxisRect* rect = addAxisRect(
        plot, spec, body, 0, 0,
        pca ? Words::tr("PC 1 (%1 % of the variance)").arg(percent(map.explained[0]))
            : Words::tr("t-SNE 1"),
        pca ? Words::tr("PC 2 (%1 %)").arg(percent(map.explained[1])) : Words::tr("t-SNE 2"));
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);

    std::vector<int> rowOf(std::size_t(space.size()), -1);
    for (std::size_t r = 0; r < map.indices.size(); ++r)
        rowOf[std::size_t(map.indices[r])] = int(r);
    auto point = [&](int index) {
        return QPointF(map.points(rowOf[std::size_t(index)], 0),
                       map.points(rowOf[std::size_t(index)], 1));
    };

    auto* dots = new QCPGraph(x, y);
    auto* marked = new QCPGraph(x, y);
    QVector<double> xs, ys, mx, my;
    const QFont label = figureFont(plot, spec, spec.fontPoints * 0.85);
    const QFont strong = figureFont(plot, spec, spec.fontPoints, true);
    // Past a hundred or so words the labels would only cover each other: then the
    // highlighted words (and the analogy's) are named, the rest are points.
    constexpr std::size_t kLabelledWords = 120;
    const bool labelAll = map.indices.size() <= kLabelledWords;
    // Labels in the order they claim room: highlighted words, the analogy's, the rest.
    std::pair<QList<QCPItemText*>, QList<QCPItemText*>> labels;
    QList<QCPItemText*> others;
    QStringList named = options.highlighted;
    if (options.analogy)
        named << (*options.analogy)[0] << (*options.analogy)[1] << (*options.analogy)[2];
    for (std::size_t r = 0; r < map.indices.size(); ++r) {
        const QString& word = space.words()[std::size_t(map.indices[r])];
        const bool highlight = options.highlighted.contains(word);
        (highlight ? mx : xs) << map.points(Eigen::Index(r), 0);
        (highlight ? my : ys) << map.points(Eigen::Index(r), 1);
        if (!labelAll && !named.contains(word))
            continue;
        auto* text = new QCPItemText(&plot);
        text->setClipAxisRect(rect);
        text->position->setAxes(x, y);
        text->position->setCoords(map.points(Eigen::Index(r), 0), map.points(Eigen::Index(r), 1));
        const int gap = int(std::lround(2 * spec.pixelsPerPoint()));
        text->setPadding(QMargins(gap, gap, gap, gap));
        text->setFont(highlight ? strong : label);
        text->setColor(highlight ? spec.style.accent : spec.style.text);
        text->setText(word);
        (highlight ? labels.first : named.contains(word) ? labels.second : others) << text;
    }
    dots->setData(xs, ys);
    dots->setLineStyle(QCPGraph::lsNone);
    dots->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colorAt(spec.colormap, 0.35),
                                          5 * spec.pixelsPerPoint()));
    marked->setData(mx, my);
    marked->setLineStyle(QCPGraph::lsNone);
    marked->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDisc, spec.style.accent, 7 * spec.pixelsPerPoint()));
    dots->rescaleAxes();
    marked->rescaleAxes(true);
    for (QCPAxis* axis : {x, y}) { // room for the labels
        const QCPRange r = axis->range();
        axis->setRange(r.lower - 0.08 * r.size(), r.upper + 0.18 * r.size());
    }

    if (options.analogy) {
        const auto& [a, b, c] = *options.analogy;
        const core::EmbeddingSpace::Analogy answer = space.analogy(a, b, c, 3);
        if (!answer.answers.empty()) {
            const int to = answer.answers.front().index;
            auto arrow = [&](int from, int target, const QColor& colour) {
                if (rowOf[std::size_t(from)] < 0 || rowOf[std::size_t(target)] < 0)
                    return;
                auto* line = new QCPItemLine(&plot);
                line->setClipAxisRect(rect);
                line->start->setAxes(x, y);
                line->end->setAxes(x, y);
                line->start->setCoords(point(from));
                line->end->setCoords(point(target));
                line->setPen(QPen(colour, 2 * spec.style.lineScale, Qt::DashLine));
                line->setHead(QCPLineEnding::esSpikeArrow);
            };
            arrow(*space.indexOf(b), *space.indexOf(c), spec.style.mutedText);
            arrow(*space.indexOf(a), to, spec.style.accent);
            QStringList nearest;
            for (const core::EmbeddingSpace::Neighbour& n : answer.answers)
                nearest << QStringLiteral("%1 (%2)").arg(n.word,
                                                         QLocale().toString(n.cosine, 'f', 3));
            addFigureText(
                plot, spec, 2,
                Words::tr("%1 − %2 + %3 ≈ %4   (nearest by cosine: %5)")
                    .arg(a, b, c, answer.answers.front().word, nearest.join(QStringLiteral(", "))),
                false);
        }
    }
    finishFigure(plot);
    std::vector<QCPItemText*> order(labels.first.begin(), labels.first.end());
    order.insert(order.end(), labels.second.begin(), labels.second.end());
    order.insert(order.end(), others.begin(), others.end());
    placeLabels(plot, rect, order);
}

void buildEmbeddingSpaceFigure(QCustomPlot& plot, const ConceptSource& source,
                               const FigureSpec& spec)
{
    if (!source.scene)
        throw core::Error("embedding space: there is no scene");
    const core::EmbeddingSpace space = core::EmbeddingSpace::fromScene(*source.scene);
    EmbeddingMapOptions options;
    if (source.result)
        for (const core::Token& token : source.result->problem->queryTokens)
            options.highlighted << token.text;
    if (space.indexOf(QStringLiteral("king")) && space.indexOf(QStringLiteral("man")) &&
        space.indexOf(QStringLiteral("woman")))
        options.analogy = std::array<QString, 3>{QStringLiteral("king"), QStringLiteral("man"),
                                                 QStringLiteral("woman")};
    buildEmbeddingSpaceFigure(plot, space, options, spec);
}

} // namespace attn::ui
