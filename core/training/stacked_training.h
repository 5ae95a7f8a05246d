#pragma once

#include "core/scene.h"
#include "core/training/adam.h"
#include "core/training/attention_layer.h"
#include "core/training/trainer.h"
#include "core/training/training_loss.h"
#include "core/training/training_task.h"

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

namespace attn::core {

// Training stacked blocks (core/scene_layers.h) in double: every block's attention and
// feed-forward weights; the norms have unit gain and zero bias and stay.

struct FeedForwardParameters
{
    MatrixD W1;    // d_model x d_ff
    RowVectorD b1; // 1 x d_ff
    MatrixD W2;    // d_ff x d_model
    RowVectorD b2; // 1 x d_model
};

struct StackedParameters
{
    std::vector<LayerParameters> attention; // one per block
    std::vector<FeedForwardParameters> feedForward;

    // Throws Error for a scene without layers.
    static StackedParameters fromScene(const Scene& scene);
    // These values into `scene`'s weights and layers (float).
    void store(Scene& scene) const;
    StackedParameters zerosLike() const;
    // Every array of numbers, block by block: the attention's parameterBlocks, then W_1, b_1,
    // W_2, b_2. The same order for any two of the same shape.
    std::vector<std::pair<double*, Eigen::Index>> spans();
};

// One block's forward in double, as core::forwardLayers computes it in float.
struct StackedBlockForward
{
    LayerInputs inputs; // X (both sides: self-attention)
    LayerForward attention;
    MatrixD normed;           // H = LN(X + attention)
    Eigen::VectorXd inverse1; // per row 1 / sqrt(var + eps) of the first norm
    MatrixD preActivation;    // H W_1 + b_1
    MatrixD output;           // Y = LN(H + FFN(H))
    Eigen::VectorXd inverse2; // of the second norm
};

std::vector<StackedBlockForward> forwardStacked(const StackedParameters& parameters,
                                                const LayerInputs& first);

// Gradients shaped like `parameters`, from what the loss hands the last block's attention
// (`upstream`: its weights or scores, and its output) and dL/dY of the last block
// (`dOutput`, may be empty).
StackedParameters backwardStacked(const StackedParameters& parameters,
                                  const std::vector<StackedBlockForward>& forward,
                                  const LayerUpstream& upstream, const MatrixD& dOutput = {});

// A task one attention layer cannot learn and two stacked blocks can (an induction head,
// Olsson et al. 2022): random sequences of the scene's words; query i whose word occurred
// before attends to the key right after that word's latest earlier occurrence ("a b ... a"
// -> "b"). What follows a key is not in the key's own input, so one layer has nothing to
// match on: a first block must copy each word's predecessor into it. Causal mask on; the
// words' positions change from example to example. Throws Error for fewer than 2 distinct
// words or a scene with a source sentence.
struct InductionOptions
{
    int examples = 12;
    int length = 0; // tokens per sequence; 0: the scene's sentence length, at least 8
    std::uint64_t seed = 1;
};
TrainingData makeInductionData(const Scene& scene, const InductionOptions& options = {});

// Adam on every weight of the stacked blocks, the loss being the last block's attention
// against the task (cross-entropy, its heads averaged). Fresh Xavier weights from `seed`.
class StackedTrainer
{
public:
    StackedTrainer(const Scene& scene, const InductionOptions& task, const AdamSettings& adam,
                   std::uint64_t seed);

    double step();
    int run(int steps, const std::atomic<bool>* stop = nullptr);
    int stepCount() const { return int(m_history.size()); }
    const std::vector<double>& lossHistory() const { return m_history; }
    // attentionAccuracy of the last block, averaged over the training examples, or over
    // `data` (sequences not trained on: what was learned rather than remembered).
    double accuracy() const;
    double accuracy(const TrainingData& data) const;
    // The loss, the accuracy, and the last block's heads on the first example with its target
    // (what the Train tab draws).
    TrainingEvaluation evaluate() const;
    void setLearningRate(double learningRate); // throws Error when not positive and finite
    double learningRate() const { return m_adam.learningRate; }
    Scene trainedScene() const;
    const TrainingData& data() const { return m_data; }
    const StackedParameters& parameters() const { return m_parameters; }

    LossValue lossAndGradient(const StackedParameters& parameters,
                              StackedParameters* gradient) const;

private:
    Scene m_scene;
    TrainingData m_data;
    LossSettings m_loss;
    AdamSettings m_adam;
    StackedParameters m_parameters;
    std::vector<Eigen::ArrayXd> m_m, m_v; // Adam's moments per span
    std::vector<double> m_history;
};

} // namespace attn::core
