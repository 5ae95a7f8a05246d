#pragma once

#include "core/scene.h"
#include "core/training/trainer.h"

#include <QJsonObject>
#include <QString>
#include <memory>
#include <optional>

class QCommandLineParser;

namespace attn::app {

struct CommandLineError;

// What the command line asks of training: --train TASK and what goes with it.
struct TrainOptions
{
    std::optional<core::TrainingTask>
        task;                           // --train copy|previous-token|reverse|translation|key-value
    int steps = 200;                    // --steps N
    std::optional<double> learningRate; // --learning-rate LR (default core::AdamSettings')
    core::HardGradient hardGradient = core::HardGradient::Zero; // --hard-gradient
    QString savePath; // --train-save FILE.json: the trained scene

    bool active() const { return task.has_value(); }
};

// Adds --train, --steps, --learning-rate, --hard-gradient and --train-save to the parser.
void addTrainOptions(QCommandLineParser& parser);
// Reads them back after parsing; false (with a usage error) for a malformed value, for
// --steps and the others without --train, and for --train with --model.
bool readTrainOptions(const QCommandLineParser& parser, TrainOptions& options, bool modelActive,
                      CommandLineError& error);

// A finished run: the scene with the trained weights and the trainer's JSON for --dump.
struct TrainingReport
{
    core::Scene scene;
    QJsonObject json;                             // core::trainingToJson
    std::shared_ptr<const core::Trainer> trainer; // what --view train draws
};

// With --train: fits `scene` on the task (fresh seeded weights, on the CPU), prints one line
// on stdout (the loss from first to last step) and the task's notes on stderr, and returns
// the trained scene (the caller writes --train-save with its other outputs). Nothing without
// --train. Throws core::Error (exit 3) when the task cannot be posed on the scene.
std::optional<TrainingReport> trainIfAsked(const TrainOptions& options, const core::Scene& scene);

// The --dump object with "training" added when there was a run (docs/DUMP_FORMAT.md).
QJsonObject withTraining(QJsonObject dump, const std::optional<TrainingReport>& training);

} // namespace attn::app
