#include "ui/concepts/hard_figure.h"

#include "ui/concepts/concept_heatmap.h"
#include "ui/concepts/concept_plot.h"
#include "ui/figures/figure_builder.h"

#include "core/analysis/hard_attention.h"
#include "core/attention_result.h"
#include "core/error.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(HardFigure)
};

QString number(double value)
{
    return QLocale().toString(value, 'f', 2);
}

// A frame around cell (row, column) of `rect`: the key the argmax keeps.
void frameCell(QCPAxisRect* rect, int row, int column, const FigureSpec& spec)
{
    auto* frame = new QCPItemRect(rect->parentPlot());
    frame->setClipAxisRect(rect);
    for (QCPItemPosition* p : {frame->topLeft, frame->bottomRight}) {
        p->setAxisRect(rect);
        p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    }
    frame->topLeft->setCoords(column - 0.47, row - 0.47);
    frame->bottomRight->setCoords(column + 0.47, row + 0.47);
    frame->setPen(QPen(spec.style.accent, 2.5 * spec.style.lineScale));
    frame->setBrush(Qt::NoBrush);
}

} // namespace

void buildHardFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec)
{
    if (!source.result || source.result->heads.empty())
        throw core::Error("hard attention view: there is no result to show yet");
    const core::AttentionResult& result = *source.result;
    const int head = std::clamp(source.head, 0, int(result.heads.size()) - 1);
    const core::HardAttentionLoss loss = core::hardAttentionLoss(result, head);
    const core::Problem& problem = *result.problem;
    const QStringList queries = tokenLabels(problem.queryTokens, 1);
    const QStringList keys = tokenLabels(problem.keyTokens, 1);

    clearPlot(plot, spec);
    addFigureText(plot, spec, 0,
                  spec.title.isEmpty()
                      ? Words::tr("Hard attention keeps one key per query: head %1").arg(head + 1)
                      : spec.title,
                  true);
    auto* body = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, body);
    body->setColumnSpacing(int(std::lround(12 * spec.pixelsPerPoint())));
    body->setRowSpacing(int(std::lround(8 * spec.pixelsPerPoint())));

    std::vector<NumberedPanel> panels;
    const std::pair<const core::MatrixD*, QString> maps[] = {
        {&loss.soft, Words::tr("softmax of the scores (soft)")},
        {&loss.hard, Words::tr("argmax of the scores (hard)")}};
    for (int c = 0; c < 2; ++c) {
        const ConceptHeatmap how{maps[c].second,
                                 Words::tr("key"),
                                 c == 0 ? Words::tr("query") : QString(),
                                 queries,
                                 keys,
                                 spec.colormap,
                                 0.0,
                                 1.0};
        QCPAxisRect* rect = addConceptHeatmap(plot, spec, body, 0, c, *maps[c].first, how);
        panels.push_back({rect, *maps[c].first, how});
        for (int i = 0; i < int(loss.chosen.size()); ++i)
            if (loss.chosen[std::size_t(i)] >= 0)
                frameCell(rect, i, loss.chosen[std::size_t(i)], spec);
    }
    addColorScale(plot, spec, body, 0, 2, spec.colormap, 0.0, 1.0, Words::tr("weight"));
    body->setColumnStretchFactor(2, 0.01);

    // What the argmax drops of each row: 1 - the kept key's soft weight.
    QCPAxisRect* bars =
        addAxisRect(plot, spec, body, 1, 0, Words::tr("query"), Words::tr("weight dropped"));
    auto* dropped = new QCPBars(bars->axis(QCPAxis::atBottom), bars->axis(QCPAxis::atLeft));
    dropped->setName(QStringLiteral("dropped"));
    QVector<double> x, y;
    for (std::size_t i = 0; i < loss.lost.size(); ++i) {
        x << double(i);
        y << loss.lost[i];
    }
    dropped->setData(x, y, true);
    dropped->setWidth(0.7);
    dropped->setPen(Qt::NoPen);
    dropped->setBrush(spec.style.accent);
    bars->axis(QCPAxis::atBottom)->setRange(-0.5, double(loss.lost.size()) - 0.5);
    bars->axis(QCPAxis::atLeft)->setRange(0.0, 1.0);
    bars->axis(QCPAxis::atLeft)->ticker()->setTickCount(3); // 0, 0.5, 1: the panel is short
    setTokenTicks(bars->axis(QCPAxis::atBottom), queries, queries.size() > 6 ? 45.0 : 0.0);
    setPanelTitle(plot, spec, bars, Words::tr("soft weight the argmax drops, per query"));
    body->setRowStretchFactor(0, 1.6);
    body->setRowStretchFactor(1, 0.8);

    // The row that loses most, in words.
    int worst = -1;
    for (int i = 0; i < int(loss.lost.size()); ++i)
        if (loss.runnerUp[std::size_t(i)] >= 0 &&
            (worst < 0 || loss.lost[std::size_t(i)] > loss.lost[std::size_t(worst)]))
            worst = i;
    QString example;
    if (worst >= 0) {
        const auto w = std::size_t(worst);
        example =
            Words::tr("“%1” puts %2 on “%3” and %4 on “%5”; the argmax keeps “%3” alone "
                      "and drops %6 of the row (a query takes one key: ∑ p = 1, so an "
                      "alignment of one word to two is lost). ")
                .arg(queries[worst], number(loss.kept[w]), keys[loss.chosen[w]],
                     number(loss.runnerUpWeight[w]), keys[loss.runnerUp[w]], number(loss.lost[w]));
    }
    addFigureText(plot, spec, 2,
                  example +
                      Words::tr("The argmax is flat almost everywhere, so its gradient is 0: the "
                                "Train tab trains hard attention only through a surrogate "
                                "(straight-through or softmax-relaxed). Seed 000's remedy is an "
                                "auxiliary loss beside the prediction loss, such as one on the "
                                "alignment itself."),
                  false);
    numberPanels(plot, spec, panels);
    finishFigure(plot);
}

} // namespace attn::ui
