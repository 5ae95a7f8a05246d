#include "adam.h"

#include "core/error.h"

#include <cmath>

namespace attn::core {

void AdamSettings::validate() const
{
    if (!(learningRate > 0.0) || !std::isfinite(learningRate))
        throw Error("learning_rate: must be a positive finite number");
    if (!(beta1 >= 0.0 && beta1 < 1.0))
        throw Error("adam.beta1: must be in [0, 1)");
    if (!(beta2 >= 0.0 && beta2 < 1.0))
        throw Error("adam.beta2: must be in [0, 1)");
    if (!(epsilon > 0.0) || !std::isfinite(epsilon))
        throw Error("adam.epsilon: must be a positive finite number");
}

Adam::Adam(const LayerParameters& shape, const AdamSettings& settings)
    : m_settings(settings), m_m(shape.zerosLike()), m_v(shape.zerosLike())
{
    m_settings.validate();
}

void Adam::reset()
{
    m_m = m_m.zerosLike();
    m_v = m_v.zerosLike();
    m_t = 0;
}

void Adam::setLearningRate(double learningRate)
{
    AdamSettings next = m_settings;
    next.learningRate = learningRate;
    next.validate();
    m_settings = next;
}

void Adam::step(LayerParameters& parameters, LayerParameters& gradient,
                const std::vector<bool>& trainable)
{
    ++m_t;
    const double b1 = m_settings.beta1;
    const double b2 = m_settings.beta2;
    const double c1 = 1.0 - std::pow(b1, m_t); // bias corrections of Algorithm 1
    const double c2 = 1.0 - std::pow(b2, m_t);
    const std::vector<ParameterBlock> theta = parameterBlocks(parameters);
    const std::vector<ParameterBlock> g = parameterBlocks(gradient);
    const std::vector<ParameterBlock> m = parameterBlocks(m_m);
    const std::vector<ParameterBlock> v = parameterBlocks(m_v);
    for (std::size_t b = 0; b < theta.size(); ++b) {
        if (b < trainable.size() && !trainable[b])
            continue;
        Eigen::Map<Eigen::ArrayXd> x(theta[b].data, theta[b].size);
        Eigen::Map<const Eigen::ArrayXd> grad(g[b].data, g[b].size);
        Eigen::Map<Eigen::ArrayXd> mb(m[b].data, m[b].size);
        Eigen::Map<Eigen::ArrayXd> vb(v[b].data, v[b].size);
        mb = b1 * mb + (1.0 - b1) * grad;
        vb = b2 * vb + (1.0 - b2) * grad.square();
        x -= m_settings.learningRate * (mb / c1) / ((vb / c2).sqrt() + m_settings.epsilon);
    }
}

} // namespace attn::core
