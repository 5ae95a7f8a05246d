#include "cpu_block_ops.h"

#include "core/parallel.h"

#include <unsupported/Eigen/SpecialFunctions>

#include <cmath>

namespace attn::core {
namespace {

// y = x W + b, in place of nothing: W is d_in x d_out as the forward multiplies.
Matrix affine(const Matrix& x, const LinearWeights& w)
{
    Matrix y = parallelProduct(x, w.weight);
    if (w.bias.size())
        y.rowwise() += w.bias;
    return y;
}

void activateInPlace(Matrix& m, Activation activation)
{
    auto a = m.array();
    switch (activation) {
    case Activation::GeluTanh: {
        // Hendrycks & Gimpel 2016, sec. 2's tanh approximation (GPT-2's gelu_new).
        const float c = float(std::sqrt(2.0 / M_PI));
        a = 0.5f * a * (1.0f + (c * (a + 0.044715f * a.cube())).tanh());
        break;
    }
    case Activation::GeluErf:
        a = 0.5f * a * (1.0f + (a * float(M_SQRT1_2)).erf());
        break;
    case Activation::Silu:
        a = a / (1.0f + (-a).exp());
        break;
    case Activation::Relu:
        a = a.max(0.0f);
        break;
    }
}

} // namespace

float activate(float x, Activation activation)
{
    switch (activation) {
    case Activation::GeluTanh:
        return 0.5f * x * (1.0f + std::tanh(float(std::sqrt(2.0 / M_PI)) * (x + 0.044715f * x * x * x)));
    case Activation::GeluErf:
        return 0.5f * x * (1.0f + std::erf(x * float(M_SQRT1_2)));
    case Activation::Silu:
        return x / (1.0f + std::exp(-x));
    case Activation::Relu:
        return x > 0.0f ? x : 0.0f;
    }
    return x;
}

Matrix CpuBlockOps::norm(const Matrix& x, const NormWeights& w)
{
    Matrix y(x.rows(), x.cols());
    const double n = double(x.cols());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const auto row = x.row(i).cast<double>();
        double mean = 0.0;
        double scale;
        if (w.kind == NormKind::LayerNorm) {
            mean = row.sum() / n;
            const double variance = (row.array() - mean).square().sum() / n;
            scale = 1.0 / std::sqrt(variance + double(w.eps));
        } else {
            scale = 1.0 / std::sqrt(row.squaredNorm() / n + double(w.eps));
        }
        y.row(i) = ((row.array() - mean) * scale).cast<float>().matrix().cwiseProduct(w.gain);
        if (w.bias.size())
            y.row(i) += w.bias;
    }
    return y;
}

Matrix CpuBlockOps::feedForward(const Matrix& x, const FeedForwardWeights& w)
{
    Matrix hidden = affine(x, w.in);
    if (w.kind == FeedForwardKind::Gated) {
        Matrix gate = affine(x, w.gate);
        activateInPlace(gate, w.activation);
        hidden.array() *= gate.array();
    } else {
        activateInPlace(hidden, w.activation);
    }
    return affine(hidden, w.out);
}

Matrix CpuBlockOps::dense(const Matrix& x, const LinearWeights& w, Activation activation)
{
    Matrix y = affine(x, w);
    activateInPlace(y, activation);
    return y;
}

Matrix CpuBlockOps::logits(const Matrix& x, const Matrix& outputEmbedding, const RowVector& bias)
{
    // Row by row of E: each logit is a dot product of x's row with a vocabulary row, read once.
    const Eigen::Index vocab = outputEmbedding.rows();
    Matrix y(x.rows(), vocab);
    constexpr Eigen::Index kChunk = 4096;
    const int chunks = int((vocab + kChunk - 1) / kChunk);
    parallelFor(chunks, [&](int c, int) {
        const Eigen::Index first = Eigen::Index(c) * kChunk;
        const Eigen::Index n = std::min(kChunk, vocab - first);
        y.middleCols(first, n).noalias() = x * outputEmbedding.middleRows(first, n).transpose();
    });
    if (bias.size())
        y.rowwise() += bias;
    return y;
}

} // namespace attn::core
