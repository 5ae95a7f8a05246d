#include "trainer.h"

#include "core/error.h"

#include <cmath>

namespace attn::core {
namespace {

// Xavier weights from `seed` in the scene's shapes; biases the scene has start at 0.
ModelWeights freshWeights(const ModelWeights& scene, std::uint64_t seed)
{
    ModelWeights w =
        makeWeights(scene.dModel, scene.headCount(), scene.dK, scene.dV, WeightInit::Xavier, seed);
    for (std::size_t h = 0; h < w.heads.size(); ++h) {
        const HeadWeights& old = scene.heads[h];
        HeadWeights& head = w.heads[h];
        head.enabled = old.enabled;
        if (old.bq.size())
            head.bq = RowVector::Zero(old.bq.size());
        if (old.bk.size())
            head.bk = RowVector::Zero(old.bk.size());
        if (old.bv.size())
            head.bv = RowVector::Zero(old.bv.size());
    }
    if (scene.bo.size())
        w.bo = RowVector::Zero(scene.bo.size());
    return w;
}

std::vector<bool> trainableBlocks(LayerParameters parameters, const TrainableParts& parts)
{
    std::vector<bool> out;
    for (const ParameterBlock& block : parameterBlocks(parameters)) {
        bool on = false;
        switch (block.role) {
        case ParameterRole::Query:
            on = parts.query;
            break;
        case ParameterRole::Key:
            on = parts.key;
            break;
        case ParameterRole::Value:
            on = parts.value;
            break;
        case ParameterRole::Output:
            on = parts.output;
            break;
        case ParameterRole::Score:
            on = parts.score;
            break;
        }
        if (block.bias && !parts.biases)
            on = false;
        if (block.head >= 0 && !parameters.heads[std::size_t(block.head)].enabled)
            on = false; // a switched-off head is neither shown in the output nor supervised
        out.push_back(on);
    }
    return out;
}

} // namespace

void TrainingSetup::validate() const
{
    adam.validate();
    auto checkWeight = [](const char* field, const std::optional<double>& value) {
        if (value && (!(*value >= 0.0) || !std::isfinite(*value)))
            throw Error(std::string(field) + ": must be a finite number >= 0");
    };
    checkWeight("attention_weight", attentionWeight);
    checkWeight("output_weight", outputWeight);
    if (!(hard.temperature > 0.0) || !std::isfinite(hard.temperature))
        throw Error("hard_gradient.temperature: must be a positive finite number");
}

Trainer::Trainer(const Scene& scene, const TrainingSetup& setup)
    : m_setup(setup), m_adam(LayerParameters::fromWeights(scene.weights), setup.adam)
{
    m_setup.validate();
    if (scene.checkpoint)
        throw Error("checkpoint: a scene of a real model cannot be trained here; training fits a "
                    "single-layer scene's weights");
    m_scene = sceneForTask(scene, setup.task);
    m_data = makeTrainingData(scene, setup.task, setup.taskOptions);

    m_loss.attentionWeight = setup.attentionWeight.value_or(m_data.attentionWeight);
    m_loss.outputWeight = setup.outputWeight.value_or(m_data.outputWeight);
    m_loss.attention =
        setup.attentionLoss.value_or(defaultAttentionLoss(m_scene.normalization, setup.hard));
    if (m_loss.attention == AttentionLoss::CrossEntropy &&
        defaultAttentionLoss(m_scene.normalization, setup.hard) != AttentionLoss::CrossEntropy)
        throw Error(
            "attention_loss: cross-entropy needs softmax weights, and this scene normalizes with " +
            std::string(toString(m_scene.normalization)) +
            " (a weight of 0 where the target is not has log -inf): use squared-error");
    if (m_loss.attentionWeight == 0.0 && m_loss.outputWeight == 0.0)
        throw Error("attention_weight, output_weight: both are 0, so there is nothing to learn");

    m_initial = LayerParameters::fromWeights(
        setup.freshWeights ? freshWeights(scene.weights, setup.seed) : scene.weights);
    m_parameters = m_initial;
    m_trainable = trainableBlocks(m_initial, setup.trainable);
}

LossValue Trainer::lossAndGradient(const LayerParameters& parameters,
                                   LayerParameters* gradient) const
{
    LossValue total;
    if (gradient)
        *gradient = parameters.zerosLike();
    const double share = 1.0 / double(m_data.examples.size());
    for (const TrainingExample& example : m_data.examples) {
        const LayerForward forward = forwardLayer(parameters, example.inputs, m_setup.hard);
        LayerUpstream upstream;
        const LossValue loss = exampleLoss(parameters, forward, example, m_loss, m_setup.hard,
                                           gradient ? &upstream : nullptr);
        total.total += share * loss.total;
        total.attention += share * loss.attention;
        total.output += share * loss.output;
        if (gradient) {
            LayerParameters g =
                backwardLayer(parameters, example.inputs, forward, upstream, m_setup.hard);
            std::vector<ParameterBlock> into = parameterBlocks(*gradient);
            std::vector<ParameterBlock> from = parameterBlocks(g);
            for (std::size_t b = 0; b < into.size(); ++b)
                Eigen::Map<Eigen::ArrayXd>(into[b].data, into[b].size) +=
                    share * Eigen::Map<const Eigen::ArrayXd>(from[b].data, from[b].size);
        }
    }
    return total;
}

double Trainer::step()
{
    LayerParameters gradient;
    const LossValue loss = lossAndGradient(m_parameters, &gradient);
    m_adam.step(m_parameters, gradient, m_trainable);
    m_history.push_back(loss.total);
    return loss.total;
}

int Trainer::run(int steps, const std::atomic<bool>* stop)
{
    return runSteps(steps, stop, [this] { step(); });
}

void Trainer::reset()
{
    m_parameters = m_initial;
    m_adam.reset();
    m_history.clear();
}

void Trainer::setLearningRate(double learningRate)
{
    m_adam.setLearningRate(learningRate);
    m_setup.adam.learningRate = learningRate;
}

TrainingEvaluation Trainer::evaluate() const
{
    TrainingEvaluation out;
    out.step = stepCount();
    out.loss = lossAndGradient(m_parameters, nullptr);
    for (std::size_t e = 0; e < m_data.examples.size(); ++e) {
        const TrainingExample& example = m_data.examples[e];
        const LayerForward forward = forwardLayer(m_parameters, example.inputs, m_setup.hard);
        out.accuracy +=
            attentionAccuracy(m_parameters, forward, example) / double(m_data.examples.size());
        if (e == 0) {
            for (const HeadForward& head : forward.heads)
                out.weights.push_back(head.weights.cast<float>());
            out.targetWeights = example.targetWeights.cast<float>();
        }
    }
    return out;
}

Scene Trainer::trainedScene() const
{
    Scene scene = m_scene;
    scene.weights = m_parameters.toWeights(m_scene.weights);
    return scene;
}

std::vector<QString> Trainer::notes() const
{
    std::vector<QString> notes = m_data.notes;
    if (m_scene.normalization == Normalization::Hard && m_setup.hard.mode == HardGradient::Zero)
        notes.push_back(QStringLiteral(
            "hard attention: the gradient reaching W_q and W_k is 0 almost everywhere "
            "(the argmax does not move when the scores move a little), so "
            "only W_v and W_O can learn; use the straight-through or the "
            "softmax-relaxed gradient"));
    return notes;
}

} // namespace attn::core
