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

void adamUpdate(const AdamSettings& settings, int t, Eigen::Map<Eigen::ArrayXd> theta,
                Eigen::Map<const Eigen::ArrayXd> g, Eigen::Map<Eigen::ArrayXd> m,
                Eigen::Map<Eigen::ArrayXd> v)
{
    const double b1 = settings.beta1;
    const double b2 = settings.beta2;
    const double c1 = 1.0 - std::pow(b1, t); // bias corrections of Algorithm 1
    const double c2 = 1.0 - std::pow(b2, t);
    m = b1 * m + (1.0 - b1) * g;
    v = b2 * v + (1.0 - b2) * g.square();
    theta -= settings.learningRate * (m / c1) / ((v / c2).sqrt() + settings.epsilon);
}

void Adam::step(LayerParameters& parameters, LayerParameters& gradient,
                const std::vector<bool>& trainable)
{
    ++m_t;
    const std::vector<ParameterBlock> theta = parameterBlocks(parameters);
    const std::vector<ParameterBlock> g = parameterBlocks(gradient);
    const std::vector<ParameterBlock> m = parameterBlocks(m_m);
    const std::vector<ParameterBlock> v = parameterBlocks(m_v);
    for (std::size_t b = 0; b < theta.size(); ++b) {
        if (b < trainable.size() && !trainable[b])
            continue;
        adamUpdate(m_settings, m_t, Eigen::Map<Eigen::ArrayXd>(theta[b].data, theta[b].size),
                   Eigen::Map<const Eigen::ArrayXd>(g[b].data, g[b].size),
                   Eigen::Map<Eigen::ArrayXd>(m[b].data, m[b].size),
                   Eigen::Map<Eigen::ArrayXd>(v[b].data, v[b].size));
    }
}

} // namespace attn::core
