#include "stacked_training.h"

#include "core/error.h"
#include "core/random.h"
#include "core/scene_layers.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace attn::core {
namespace {

// Post-norm's LayerNorm with unit gain and zero bias, row by row (Ba et al. 2016, eq. 4, the
// biased variance): y = (x - mean) r, r = 1 / sqrt(var + eps). Returns y; r per row in `inverse`.
MatrixD layerNorm(const MatrixD& x, Eigen::VectorXd& inverse)
{
    MatrixD y(x.rows(), x.cols());
    inverse.resize(x.rows());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const double mean = x.row(i).mean();
        const double variance = (x.row(i).array() - mean).square().mean();
        inverse(i) = 1.0 / std::sqrt(variance + double(kStackedNormEps));
        y.row(i) = (x.row(i).array() - mean) * inverse(i);
    }
    return y;
}

// Its vector-Jacobian product: dx = r (dy - mean(dy) - y mean(dy * y)).
MatrixD layerNormBackward(const MatrixD& dy, const MatrixD& y, const Eigen::VectorXd& inverse)
{
    MatrixD dx(dy.rows(), dy.cols());
    for (Eigen::Index i = 0; i < dy.rows(); ++i) {
        const double meanDy = dy.row(i).mean();
        const double meanDyY = dy.row(i).cwiseProduct(y.row(i)).mean();
        dx.row(i) = inverse(i) * (dy.row(i).array() - meanDy - y.row(i).array() * meanDyY);
    }
    return dx;
}

MatrixD relu(const MatrixD& x)
{
    return x.cwiseMax(0.0);
}

} // namespace

StackedParameters StackedParameters::fromScene(const Scene& scene)
{
    if (!isStacked(scene))
        throw Error("layers", "the scene has no stacked blocks to train");
    StackedParameters p;
    for (int l = 0; l < layerCount(scene); ++l) {
        p.attention.push_back(LayerParameters::fromWeights(layerAttention(scene, l)));
        const StackedLayer& layer = scene.layers[std::size_t(l)];
        p.feedForward.push_back({layer.W1.cast<double>(), layer.b1.cast<double>(),
                                 layer.W2.cast<double>(), layer.b2.cast<double>()});
    }
    return p;
}

void StackedParameters::store(Scene& scene) const
{
    for (std::size_t l = 0; l < attention.size(); ++l) {
        ModelWeights& weights = layerAttention(scene, int(l));
        weights = attention[l].toWeights(weights);
        StackedLayer& layer = scene.layers[l];
        layer.W1 = feedForward[l].W1.cast<float>();
        layer.b1 = feedForward[l].b1.cast<float>();
        layer.W2 = feedForward[l].W2.cast<float>();
        layer.b2 = feedForward[l].b2.cast<float>();
    }
}

StackedParameters StackedParameters::zerosLike() const
{
    StackedParameters z;
    for (const LayerParameters& a : attention)
        z.attention.push_back(a.zerosLike());
    for (const FeedForwardParameters& f : feedForward)
        z.feedForward.push_back(
            {MatrixD::Zero(f.W1.rows(), f.W1.cols()), RowVectorD::Zero(f.b1.size()),
             MatrixD::Zero(f.W2.rows(), f.W2.cols()), RowVectorD::Zero(f.b2.size())});
    return z;
}

std::vector<std::pair<double*, Eigen::Index>> StackedParameters::spans()
{
    std::vector<std::pair<double*, Eigen::Index>> out;
    for (std::size_t l = 0; l < attention.size(); ++l) {
        for (const ParameterBlock& block : parameterBlocks(attention[l]))
            out.emplace_back(block.data, block.size);
        FeedForwardParameters& f = feedForward[l];
        out.emplace_back(f.W1.data(), f.W1.size());
        out.emplace_back(f.b1.data(), f.b1.size());
        out.emplace_back(f.W2.data(), f.W2.size());
        out.emplace_back(f.b2.data(), f.b2.size());
    }
    return out;
}

std::vector<StackedBlockForward> forwardStacked(const StackedParameters& parameters,
                                                const LayerInputs& first)
{
    std::vector<StackedBlockForward> blocks;
    MatrixD x = first.queryInput;
    for (std::size_t l = 0; l < parameters.attention.size(); ++l) {
        StackedBlockForward b;
        b.inputs = first;
        b.inputs.queryInput = x;
        b.inputs.keyInput = x;
        b.attention = forwardLayer(parameters.attention[l], b.inputs);
        b.normed = layerNorm(x + b.attention.output, b.inverse1);
        const FeedForwardParameters& f = parameters.feedForward[l];
        b.preActivation = b.normed * f.W1;
        b.preActivation.rowwise() += f.b1;
        MatrixD ffn = relu(b.preActivation) * f.W2;
        ffn.rowwise() += f.b2;
        b.output = layerNorm(b.normed + ffn, b.inverse2);
        x = b.output;
        blocks.push_back(std::move(b));
    }
    return blocks;
}

StackedParameters backwardStacked(const StackedParameters& parameters,
                                  const std::vector<StackedBlockForward>& forward,
                                  const LayerUpstream& upstream, const MatrixD& dOutput)
{
    StackedParameters g = parameters.zerosLike();
    const int last = int(forward.size()) - 1;
    MatrixD dY = dOutput.size() > 0 ? dOutput
                                    : MatrixD::Zero(forward[std::size_t(last)].output.rows(),
                                                    forward[std::size_t(last)].output.cols());
    for (int l = last; l >= 0; --l) {
        const StackedBlockForward& b = forward[std::size_t(l)];
        const FeedForwardParameters& f = parameters.feedForward[std::size_t(l)];
        FeedForwardParameters& gf = g.feedForward[std::size_t(l)];
        // Y = LN(H + FFN(H)), FFN(H) = max(0, H W_1 + b_1) W_2 + b_2 (Vaswani et al. eq. 2).
        const MatrixD dSum2 = layerNormBackward(dY, b.output, b.inverse2);
        const MatrixD hidden = relu(b.preActivation);
        gf.W2 = hidden.transpose() * dSum2;
        gf.b2 = dSum2.colwise().sum();
        const MatrixD dPre =
            (dSum2 * f.W2.transpose())
                .cwiseProduct((b.preActivation.array() > 0.0).cast<double>().matrix());
        gf.W1 = b.normed.transpose() * dPre;
        gf.b1 = dPre.colwise().sum();
        const MatrixD dH = dSum2 + dPre * f.W1.transpose();
        // H = LN(X + attention(X)).
        const MatrixD dSum1 = layerNormBackward(dH, b.normed, b.inverse1);
        LayerUpstream up = l == last ? upstream : LayerUpstream{};
        up.dOutput = up.dOutput.size() > 0 ? MatrixD(up.dOutput + dSum1) : dSum1;
        InputGradients dInputs;
        g.attention[std::size_t(l)] = backwardLayer(parameters.attention[std::size_t(l)], b.inputs,
                                                    b.attention, up, {}, &dInputs);
        dY = dSum1 + dInputs.query + dInputs.key; // X feeds the residual, queries, keys, values
    }
    return g;
}

TrainingData makeInductionData(const Scene& scene, const InductionOptions& options)
{
    if (scene.source)
        throw Error("source", "the induction task is self-attention; remove the source sentence");
    const std::vector<QString> words = sceneVocabulary(scene);
    if (words.size() < 2)
        throw Error("text", "the induction task needs at least 2 different words");
    const int length = options.length > 0
                           ? options.length
                           : std::max<int>(8, int(resolveProblem(scene)->queryTokens.size()));
    TrainingData data;
    data.attentionWeight = 1.0;
    data.outputWeight = 0.0;
    Random random(hashString("induction", options.seed));
    Scene sequenceScene = scene;
    sequenceScene.mask = MaskSpec();
    sequenceScene.mask.causal = true;
    sequenceScene.paddingToken.clear();
    sequenceScene.paddingPositions.clear();
    for (int e = 0; e < options.examples; ++e) {
        std::vector<QString> sequence;
        QStringList text;
        for (int i = 0; i < length; ++i) {
            sequence.push_back(words[std::size_t(random.nextU64() % words.size())]);
            text.append(sequence.back());
        }
        sequenceScene.text = text.join(QLatin1Char(' '));
        const std::shared_ptr<const Problem> problem = resolveProblem(sequenceScene);
        if (problem->queryCount() != length)
            throw Error("tokenizer", "the induction task needs one token per word");
        TrainingExample example;
        example.inputs = LayerInputs::fromProblem(*problem);
        example.queryTokens = sequence;
        example.keyTokens = sequence;
        example.targetWeights = MatrixD::Zero(length, length);
        example.targetOutput = MatrixD::Zero(length, problem->queryInput().cols());
        example.countedRows.assign(std::size_t(length), false);
        bool any = false;
        for (int i = 1; i < length; ++i)
            for (int p = i - 1; p >= 0; --p)
                if (sequence[std::size_t(p)] == sequence[std::size_t(i)]) {
                    example.targetWeights(i, p + 1) = 1.0;
                    example.countedRows[std::size_t(i)] = true;
                    any = true;
                    break;
                }
        if (any)
            data.examples.push_back(std::move(example));
    }
    if (data.examples.empty())
        throw Error("text", "no sequence repeats a word; use more examples or fewer words");
    return data;
}

StackedTrainer::StackedTrainer(const Scene& scene, const InductionOptions& task,
                               const AdamSettings& adam, std::uint64_t seed)
    : m_scene(scene), m_adam(adam)
{
    m_adam.validate();
    if (!isStacked(m_scene))
        throw Error("layers", "the scene has no stacked blocks to train");
    if (scene.checkpoint)
        throw Error("checkpoint", "a real model's layers are not trained here");
    m_scene.mask = MaskSpec();
    m_scene.mask.causal = true;
    const ModelWeights& w = m_scene.weights;
    reshapeModel(m_scene, w.dModel, w.headCount(), w.dK, w.dV, seed);
    m_data = makeInductionData(m_scene, task);
    m_parameters = StackedParameters::fromScene(m_scene);
    for (const auto& [data, size] : m_parameters.spans()) {
        m_m.push_back(Eigen::ArrayXd::Zero(size));
        m_v.push_back(Eigen::ArrayXd::Zero(size));
    }
}

LossValue StackedTrainer::lossAndGradient(const StackedParameters& parameters,
                                          StackedParameters* gradient) const
{
    LossValue total;
    if (gradient)
        *gradient = parameters.zerosLike();
    const double share = 1.0 / double(m_data.examples.size());
    for (const TrainingExample& example : m_data.examples) {
        const std::vector<StackedBlockForward> forward = forwardStacked(parameters, example.inputs);
        LayerUpstream upstream;
        const LossValue loss = exampleLoss(parameters.attention.back(), forward.back().attention,
                                           example, m_loss, {}, gradient ? &upstream : nullptr);
        total.total += share * loss.total;
        total.attention += share * loss.attention;
        if (gradient) {
            StackedParameters g = backwardStacked(parameters, forward, upstream);
            auto into = gradient->spans();
            const auto from = g.spans();
            for (std::size_t s = 0; s < into.size(); ++s)
                Eigen::Map<Eigen::ArrayXd>(into[s].first, into[s].second) +=
                    share * Eigen::Map<const Eigen::ArrayXd>(from[s].first, from[s].second);
        }
    }
    return total;
}

double StackedTrainer::step()
{
    StackedParameters gradient;
    const LossValue loss = lossAndGradient(m_parameters, &gradient);
    const int t = stepCount() + 1;
    auto theta = m_parameters.spans();
    const auto g = gradient.spans();
    for (std::size_t s = 0; s < theta.size(); ++s)
        adamUpdate(m_adam, t, Eigen::Map<Eigen::ArrayXd>(theta[s].first, theta[s].second),
                   Eigen::Map<const Eigen::ArrayXd>(g[s].first, g[s].second),
                   Eigen::Map<Eigen::ArrayXd>(m_m[s].data(), m_m[s].size()),
                   Eigen::Map<Eigen::ArrayXd>(m_v[s].data(), m_v[s].size()));
    m_history.push_back(loss.total);
    return loss.total;
}

int StackedTrainer::run(int steps, const std::atomic<bool>* stop)
{
    return runSteps(steps, stop, [this] { step(); });
}

double StackedTrainer::accuracy() const
{
    return accuracy(m_data);
}

double StackedTrainer::accuracy(const TrainingData& data) const
{
    double sum = 0.0;
    for (const TrainingExample& example : data.examples) {
        const std::vector<StackedBlockForward> forward =
            forwardStacked(m_parameters, example.inputs);
        sum += attentionAccuracy(m_parameters.attention.back(), forward.back().attention, example);
    }
    return sum / double(data.examples.size());
}

TrainingEvaluation StackedTrainer::evaluate() const
{
    TrainingEvaluation out;
    out.step = stepCount();
    out.loss = lossAndGradient(m_parameters, nullptr);
    out.accuracy = accuracy();
    const TrainingExample& first = m_data.examples.front();
    const std::vector<StackedBlockForward> forward = forwardStacked(m_parameters, first.inputs);
    for (const HeadForward& head : forward.back().attention.heads)
        out.weights.push_back(head.weights.cast<float>());
    out.targetWeights = first.targetWeights.cast<float>();
    return out;
}

void StackedTrainer::setLearningRate(double learningRate)
{
    AdamSettings next = m_adam;
    next.learningRate = learningRate;
    next.validate();
    m_adam = next;
}

Scene StackedTrainer::trainedScene() const
{
    Scene scene = m_scene;
    m_parameters.store(scene);
    return scene;
}

} // namespace attn::core
