#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_spec.h"

#include "core/training/stacked_training.h"
#include "core/training/trainer.h"

#include <vector>

class QCustomPlot;

namespace attn::ui {

// What the train figure shows: a copy of a trainer's state, so that a view can draw it while
// the trainer runs on another thread.
struct TrainingSnapshot
{
    core::TrainingTask task = core::TrainingTask::Copy;
    std::vector<double> loss;     // every step's, first to last
    core::TrainingEvaluation now; // the weights on the first example, the target
    std::vector<QString> queryTokens;
    std::vector<QString> keyTokens;
    double learningRate = 0.0;

    QString taskName; // the title's word for the task ("copy"; "induction" for stacked blocks)

    static TrainingSnapshot of(const core::Trainer& trainer);
    static TrainingSnapshot of(const core::StackedTrainer& trainer);
};

// The loss curve (log scale) beside every head's weights on the first example now and the
// pattern the task asks for, with the step, the loss and the share of rows that attend where
// the task asks.
void buildTrainingFigure(QCustomPlot& plot, const TrainingSnapshot& snapshot,
                         const FigureSpec& spec);

// The command line's figure, of source.trainer. Throws core::Error when nothing was trained.
void buildTrainingFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec);

} // namespace attn::ui
