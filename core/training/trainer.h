#pragma once

#include "core/matrix.h"
#include "core/scene.h"
#include "core/training/adam.h"
#include "core/training/training_loss.h"
#include "core/training/training_task.h"

#include <QString>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

namespace attn::core {

// Which weights a trainer changes; the others keep their values.
struct TrainableParts
{
    bool query = true;  // W_q (and b_q)
    bool key = true;    // W_k (and b_k)
    bool value = true;  // W_v (and b_v)
    bool output = true; // W_O (and b_O)
    bool score = true;  // the additive score's w, the bilinear score's M
    bool biases = true; // every bias the scene has (a scene without biases gets none)
};

struct TrainingSetup
{
    TrainingTask task = TrainingTask::Copy;
    AdamSettings adam;
    // Start from Xavier weights drawn with `seed` (so that the task is learned, not given by
    // hand-set weights), or from the scene's own weights.
    bool freshWeights = true;
    std::uint64_t seed = 1;
    std::optional<double> attentionWeight;      // lambda_a; unset: the task's default
    std::optional<double> outputWeight;         // lambda_o; unset: the task's default
    std::optional<AttentionLoss> attentionLoss; // unset: defaultAttentionLoss
    HardSurrogate hard;                         // only used when the scene's normalization is hard
    TrainableParts trainable;
    TaskOptions taskOptions;

    // Throws Error naming the field.
    void validate() const;
};

// Where training stands: the loss, how many rows attend where the task asks, and every
// head's attention on the (first) example, for the heatmaps.
struct TrainingEvaluation
{
    int step = 0;
    LossValue loss;
    double accuracy = 0.0;       // attentionAccuracy, averaged over the examples
    std::vector<Matrix> weights; // per head, Tq x Tk, of the first example
    Matrix targetWeights;        // Tq x Tk, of the first example (counted rows)
};

// Up to `steps` calls of `step`, stopping early when *stop becomes true between two (a window's
// cancel). Returns the calls made. The run() of Trainer and StackedTrainer.
template <typename Step> int runSteps(int steps, const std::atomic<bool>* stop, Step step)
{
    int done = 0;
    for (; done < steps; ++done) {
        if (stop && stop->load(std::memory_order_relaxed))
            break;
        step();
    }
    return done;
}

// Training a single-layer scene's W_q, W_k, W_v and W_O on a task with Adam, on the CPU, in
// double. Not thread-safe: a window runs it on one worker thread and hands copies of
// lossHistory() and trainedScene() to the views. Pausing is not calling step() (or setting
// run()'s stop flag): nothing is lost between steps.
class Trainer
{
public:
    // Throws Error when the task cannot be posed on this scene (makeTrainingData) or the
    // setup is invalid; a scene of a real model (checkpoint) cannot be trained.
    Trainer(const Scene& scene, const TrainingSetup& setup);

    // One Adam step on every example. Returns the loss before the step (the loss whose
    // gradient was taken), which is also appended to lossHistory().
    double step();
    // Up to `steps` steps; stops early when *stop becomes true. Returns the steps taken.
    int run(int steps, const std::atomic<bool>* stop = nullptr);
    // Back to the initial weights, step 0, an empty history and fresh Adam moments.
    void reset();

    void setLearningRate(double learningRate); // throws Error when not positive and finite
    double learningRate() const { return m_adam.settings().learningRate; }

    int stepCount() const { return int(m_history.size()); }
    const std::vector<double>& lossHistory() const { return m_history; } // first step to last
    TrainingEvaluation evaluate() const;
    // The scene as trained: sceneForTask's mask, the trained weights in float. It saves like
    // any other scene.
    Scene trainedScene() const;

    const TrainingData& data() const { return m_data; }
    const TrainingSetup& setup() const { return m_setup; }
    const LossSettings& lossSettings() const { return m_loss; }
    const LayerParameters& parameters() const { return m_parameters; }
    // The task's notes, and why hard attention will not learn with the true gradient.
    std::vector<QString> notes() const;

    // The mean loss over the examples at `parameters`, and its gradient (same shapes) when
    // asked: what step() descends; public for the finite-difference tests.
    LossValue lossAndGradient(const LayerParameters& parameters, LayerParameters* gradient) const;

private:
    Scene m_scene; // sceneForTask(scene, task)
    TrainingSetup m_setup;
    TrainingData m_data;
    LossSettings m_loss;
    LayerParameters m_initial;
    LayerParameters m_parameters;
    std::vector<bool> m_trainable; // per parameterBlocks entry
    Adam m_adam;
    std::vector<double> m_history;
};

} // namespace attn::core
