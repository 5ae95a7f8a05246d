#include "bench_training.h"

#include "app/bench_timing.h"
#include "core/scene.h"
#include "core/training/trainer.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <ctime>

namespace attn::bench {
namespace {

struct TrainingCase
{
    int tokens;
    int dModel;
    int heads;
    core::ScoreKind score;
    core::TrainingTask task;
};

QString sentence(int tokens)
{
    QStringList words;
    for (int i = 0; i < tokens; ++i)
        words << QStringLiteral("w%1").arg(i);
    return words.join(QLatin1Char(' '));
}

} // namespace

QJsonArray runTrainingBenchmark(bool quick)
{
    std::vector<TrainingCase> cases;
    for (core::ScoreKind score : {core::ScoreKind::ScaledDot, core::ScoreKind::Additive,
                                  core::ScoreKind::Bilinear, core::ScoreKind::Cosine})
        cases.push_back({16, 64, 1, score, core::TrainingTask::Copy});
    for (int heads : {4, 8})
        cases.push_back({16, 64, heads, core::ScoreKind::ScaledDot, core::TrainingTask::Copy});
    // key-value trains on four orderings of the sentence at once: the heaviest task.
    cases.push_back({16, 64, 1, core::ScoreKind::ScaledDot, core::TrainingTask::KeyValue});
    cases.push_back({16, 64, 1, core::ScoreKind::Additive, core::TrainingTask::KeyValue});
    cases.push_back({8, 16, 2, core::ScoreKind::ScaledDot, core::TrainingTask::Reverse});

    const int steps = quick ? 100 : 1000;
    std::printf("\n## Training: Adam steps per second, on the CPU\n\n"
                "| task | T | d_model | heads | score | steps/s (wall) | steps per CPU-second |\n"
                "|---|---|---|---|---|---|---|\n");
    QJsonArray out;
    for (const TrainingCase& c : cases) {
        core::Scene scene = core::makeScene(sentence(c.tokens), c.dModel, c.heads, 1);
        scene.score = c.score;
        core::TrainingSetup setup;
        setup.task = c.task;
        core::Trainer trainer(scene, setup);
        trainer.run(10); // warm-up: allocations, caches
        const auto start = Clock::now();
        const std::clock_t cpuStart = std::clock();
        trainer.run(steps);
        const double wall = millisecondsSince(start) / 1000.0;
        const double cpu = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
        const double perSecond = steps / wall;
        const double perCpuSecond = cpu > 0 ? steps / cpu : 0.0;
        const QString task = QString::fromLatin1(core::toString(c.task).data());
        const QString score = QString::fromLatin1(core::toString(c.score).data());
        std::printf("| %s | %d | %d | %d | %s | %.0f | %.0f |\n", qPrintable(task), c.tokens,
                    c.dModel, c.heads, qPrintable(score), perSecond, perCpuSecond);
        out.append(QJsonObject{{"task", task},
                               {"tokens", c.tokens},
                               {"d_model", c.dModel},
                               {"heads", c.heads},
                               {"score", score},
                               {"steps", steps},
                               {"steps_per_second", perSecond},
                               {"steps_per_cpu_second", perCpuSecond}});
    }
    std::fflush(stdout);
    return out;
}

int runTrainingMode(bool quick, const QString& jsonPath)
{
    const QJsonArray training = runTrainingBenchmark(quick);
    if (jsonPath.isEmpty())
        return 0;
    return writeJsonFile(jsonPath, QJsonObject{{"training", training}});
}

} // namespace attn::bench
