#include "ui/concepts/train_figure.h"

#include "ui/concepts/concept_heatmap.h"
#include "ui/concepts/concept_plot.h"

#include "core/error.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(TrainFigure)
};

QStringList labels(const std::vector<QString>& tokens)
{
    QStringList out;
    for (const QString& t : tokens)
        out << (t.size() > 12 ? t.left(11) + QChar(0x2026) : t);
    return out;
}

} // namespace

TrainingSnapshot TrainingSnapshot::of(const core::Trainer& trainer)
{
    TrainingSnapshot s;
    s.task = trainer.setup().task;
    s.loss = trainer.lossHistory();
    s.now = trainer.evaluate();
    if (!trainer.data().examples.empty()) {
        s.queryTokens = trainer.data().examples.front().queryTokens;
        s.keyTokens = trainer.data().examples.front().keyTokens;
    }
    s.learningRate = trainer.learningRate();
    s.taskName = QString::fromLatin1(core::toString(s.task).data());
    return s;
}

TrainingSnapshot TrainingSnapshot::of(const core::StackedTrainer& trainer)
{
    TrainingSnapshot s;
    s.loss = trainer.lossHistory();
    s.now = trainer.evaluate();
    s.queryTokens = trainer.data().examples.front().queryTokens;
    s.keyTokens = trainer.data().examples.front().keyTokens;
    s.learningRate = trainer.learningRate();
    s.taskName = Words::tr("induction (last of %1 stacked blocks)")
                     .arg(trainer.parameters().attention.size());
    return s;
}

void buildTrainingFigure(QCustomPlot& plot, const TrainingSnapshot& snapshot,
                         const FigureSpec& spec)
{
    clearPlot(plot, spec);
    const QString task = snapshot.taskName.isEmpty()
                             ? QString::fromLatin1(core::toString(snapshot.task).data())
                             : snapshot.taskName;
    addFigureText(
        plot, spec, 0,
        spec.title.isEmpty()
            ? Words::tr("Training on the %1 task: step %2, loss %3, %4 % of rows attend where "
                        "the task asks")
                  .arg(task)
                  .arg(snapshot.loss.size())
                  .arg(QLocale().toString(snapshot.now.loss.total, 'g', 3))
                  .arg(QLocale().toString(100.0 * snapshot.now.accuracy, 'f', 0))
            : spec.title,
        true);
    auto* body = new QCPLayoutGrid;
    plot.plotLayout()->addElement(1, 0, body);
    body->setColumnSpacing(int(std::lround(12 * spec.pixelsPerPoint())));

    QCPAxisRect* curve = addAxisRect(plot, spec, body, 0, 0, Words::tr("step"), Words::tr("loss"));
    auto* graph = new QCPGraph(curve->axis(QCPAxis::atBottom), curve->axis(QCPAxis::atLeft));
    graph->setName(QStringLiteral("loss"));
    QVector<double> steps, loss;
    double lowest = std::numeric_limits<double>::max();
    double highest = 0.0;
    for (std::size_t i = 0; i < snapshot.loss.size(); ++i) {
        steps << double(i + 1);
        loss << snapshot.loss[i];
        if (snapshot.loss[i] > 0.0)
            lowest = std::min(lowest, snapshot.loss[i]);
        highest = std::max(highest, snapshot.loss[i]);
    }
    graph->setData(steps, loss, true);
    graph->setPen(QPen(spec.style.accent, 2 * spec.style.lineScale));
    QCPAxis* y = curve->axis(QCPAxis::atLeft);
    // A log scale once the loss spans a decade: the late, slow part of training stays visible.
    if (lowest < std::numeric_limits<double>::max() && highest / lowest > 10.0) {
        y->setScaleType(QCPAxis::stLogarithmic);
        y->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        y->setRange(lowest / 1.5, highest * 1.5);
    } else {
        y->setRange(0.0, std::max(1e-9, highest * 1.1));
    }
    curve->axis(QCPAxis::atBottom)
        ->setRange(0.0, std::max<double>(1.0, double(snapshot.loss.size())));

    const QStringList rows = labels(snapshot.queryTokens);
    const QStringList cols = labels(snapshot.keyTokens);
    auto* maps = new QCPLayoutGrid;
    body->addElement(0, 1, maps);
    maps->setRowSpacing(int(std::lround(8 * spec.pixelsPerPoint())));
    const int heads = int(snapshot.now.weights.size());
    for (int h = 0; h < heads; ++h)
        addConceptHeatmap(
            plot, spec, maps, h / 2, h % 2, snapshot.now.weights[std::size_t(h)].cast<double>(),
            {heads == 1 ? Words::tr("the weights now") : Words::tr("head %1 now").arg(h + 1),
             QString(), QString(), rows, cols, spec.colormap, 0.0, 1.0});
    const int targetRow = (heads + 1) / 2;
    if (snapshot.now.targetWeights.size())
        addConceptHeatmap(plot, spec, maps, targetRow, 0, snapshot.now.targetWeights.cast<double>(),
                          {Words::tr("what the task asks"), QString(), QString(), rows, cols,
                           spec.colormap, 0.0, 1.0});
    // The scale beside all the maps, not in their grid: there it took the second head's
    // column and left that head a sliver, its title cut at the figure's edge.
    addColorScale(plot, spec, body, 0, 2, spec.colormap, 0.0, 1.0, Words::tr("attention weight"));
    body->setColumnStretchFactor(0, 1.0);
    body->setColumnStretchFactor(1, 1.2);
    finishFigure(plot);
}

void buildTrainingFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec)
{
    if (!source.trainer)
        throw core::Error("train view: nothing has been trained (--train TASK, or Run in the "
                          "window's Train tab)");
    buildTrainingFigure(plot, TrainingSnapshot::of(*source.trainer), spec);
}

} // namespace attn::ui
