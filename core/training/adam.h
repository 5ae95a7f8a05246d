#pragma once

#include "core/training/layer_parameters.h"

#include <vector>

namespace attn::core {

struct AdamSettings
{
    double learningRate = 0.05; // alpha
    double beta1 = 0.9;
    double beta2 = 0.999;
    double epsilon = 1e-8;

    // Throws Error naming the field ("adam.beta1: must be in [0, 1)").
    void validate() const;
};

// One Adam update of `theta` at step t (from 1) with gradient `g` and moments `m`, `v` (all of
// one size), as Adam::step applies it to each block.
void adamUpdate(const AdamSettings& settings, int t, Eigen::Map<Eigen::ArrayXd> theta,
                Eigen::Map<const Eigen::ArrayXd> g, Eigen::Map<Eigen::ArrayXd> m,
                Eigen::Map<Eigen::ArrayXd> v);

// Adam (Kingma & Ba 2015, Algorithm 1), over every block of a LayerParameters:
//   t <- t + 1
//   m <- beta1 m + (1 - beta1) g            v <- beta2 v + (1 - beta2) g^2
//   m^ = m / (1 - beta1^t)                  v^ = v / (1 - beta2^t)
//   theta <- theta - alpha m^ / (sqrt(v^) + epsilon)
// The learning rate may change between steps; the moments stay.
class Adam
{
public:
    Adam(const LayerParameters& shape, const AdamSettings& settings);

    // One update of the blocks whose entry in `trainable` is true (parameterBlocks order).
    void step(LayerParameters& parameters, LayerParameters& gradient,
              const std::vector<bool>& trainable);
    // Moments to zero, t to 0.
    void reset();

    int steps() const { return m_t; }
    const AdamSettings& settings() const { return m_settings; }
    void setLearningRate(double learningRate);

private:
    AdamSettings m_settings;
    LayerParameters m_m;
    LayerParameters m_v;
    int m_t = 0;
};

} // namespace attn::core
