#include "train_command.h"

#include "app/command_line.h"
#include "app/output_paths.h"
#include "core/error.h"
#include "core/training/training_json.h"

#include <QCommandLineParser>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace attn::app {
namespace {

constexpr int kMaxSteps = 1000000;

} // namespace

void addTrainOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("train"),
         QStringLiteral("Fit the scene's W_q, W_k, W_v and W_O on a task first (fresh seeded "
                        "weights, Adam, on the "
                        "CPU): %1.")
             .arg(QString::fromStdString(core::allTrainingTaskNames())),
         QStringLiteral("TASK")},
        {QStringLiteral("steps"), QStringLiteral("Training steps (default 200)."),
         QStringLiteral("N")},
        {QStringLiteral("learning-rate"), QStringLiteral("Adam's learning rate (default 0.05)."),
         QStringLiteral("LR")},
        {QStringLiteral("hard-gradient"),
         QStringLiteral(
             "Hard attention's gradient: zero (the true one), straight-through or relaxed."),
         QStringLiteral("MODE")},
        {QStringLiteral("train-save"), QStringLiteral("Save the trained scene to this file."),
         QStringLiteral("FILE.json")},
    });
}

bool readTrainOptions(const QCommandLineParser& parser, TrainOptions& options, bool modelActive,
                      CommandLineError& error)
{
    auto usage = [&error](const QString& message) {
        error = {kUsage, message};
        return false;
    };
    if (!parser.isSet(QStringLiteral("train"))) {
        // --steps also counts an encoder-decoder's training (readSeq2SeqOptions).
        const bool seq2seq = parser.isSet(QStringLiteral("seq2seq-train"));
        for (const char* name : {"steps", "learning-rate", "hard-gradient", "train-save"})
            if (parser.isSet(QLatin1String(name)) &&
                !(seq2seq && std::string_view(name) == "steps"))
                return usage(QStringLiteral("--%1 needs --train TASK").arg(QLatin1String(name)));
        return true;
    }
    if (modelActive)
        return usage(
            QStringLiteral("--train fits a single-layer scene and cannot be used with --model"));
    const QString task = parser.value(QStringLiteral("train"));
    options.task = core::parseTrainingTask(task.toStdString());
    if (!options.task)
        return usage(QStringLiteral("--train: expected %1, got \"%2\"")
                         .arg(QString::fromStdString(core::allTrainingTaskNames()), task));
    if (!readWholeNumber(parser, QStringLiteral("steps"), 1, kMaxSteps, options.steps, error))
        return false;
    if (parser.isSet(QStringLiteral("learning-rate"))) {
        bool ok = false;
        const double rate = parser.value(QStringLiteral("learning-rate")).toDouble(&ok);
        if (!ok || !(rate > 0.0) || !std::isfinite(rate))
            return usage(QStringLiteral("--learning-rate: expected a positive number, got \"%1\"")
                             .arg(parser.value(QStringLiteral("learning-rate"))));
        options.learningRate = rate;
    }
    if (parser.isSet(QStringLiteral("hard-gradient"))) {
        const QString mode = parser.value(QStringLiteral("hard-gradient"));
        const auto parsed = core::parseHardGradient(mode.toStdString());
        if (!parsed)
            return usage(QStringLiteral(
                             "--hard-gradient: expected zero|straight-through|relaxed, got \"%1\"")
                             .arg(mode));
        options.hardGradient = *parsed;
    }
    options.savePath = parser.value(QStringLiteral("train-save"));
    return true;
}

std::optional<TrainingReport> trainIfAsked(const TrainOptions& options, const core::Scene& scene)
{
    if (!options.active())
        return std::nullopt;
    core::TrainingSetup setup;
    setup.task = *options.task;
    setup.seed = scene.seed;
    if (options.learningRate)
        setup.adam.learningRate = *options.learningRate;
    setup.hard.mode = options.hardGradient;
    auto owned = std::make_shared<core::Trainer>(scene, setup);
    core::Trainer& trainer = *owned;
    for (const QString& note : trainer.notes())
        printLine(stderr, QStringLiteral("note: ") + note);
    trainer.run(options.steps);
    const core::TrainingEvaluation final = trainer.evaluate();
    const std::vector<double>& loss = trainer.lossHistory();
    printLine(stdout,
              QStringLiteral(
                  "trained %1: %2 steps at learning rate %3, loss %4 -> %5, %6% of rows attend "
                  "where the task asks")
                  .arg(QString::fromLatin1(core::toString(setup.task).data()))
                  .arg(trainer.stepCount())
                  .arg(trainer.learningRate())
                  .arg(loss.front(), 0, 'g', 4)
                  .arg(final.loss.total, 0, 'g', 4)
                  .arg(100.0 * final.accuracy, 0, 'f', 0));
    return TrainingReport{trainer.trainedScene(), core::trainingToJson(trainer), std::move(owned)};
}

QJsonObject withTraining(QJsonObject dump, const std::optional<TrainingReport>& training)
{
    if (training)
        dump.insert(QStringLiteral("training"), training->json);
    return dump;
}

} // namespace attn::app
