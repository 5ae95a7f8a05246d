#include "cpu_block_ops.h"

#include "core/kernels/gemm.h"
#include "core/parallel.h"

#include <unsupported/Eigen/SpecialFunctions>

#include <algorithm>
#include <cmath>

namespace attn::core {
namespace {

template <class Values> void activateInPlace(Values a, Activation activation)
{
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

// The GEMM's epilogue: each finished run of a row, while it is in L1 (fused bias and activation).
void activateRun(float* values, int count, const void* activation)
{
    activateInPlace(Eigen::Map<Eigen::ArrayXf>(values, count),
                    *static_cast<const Activation*>(activation));
}

// y = act(x W + b): W is d_in x d_out as the forward multiplies, read in place (gemm.h).
Matrix affine(const Matrix& x, const LinearWeights& w, const Activation* activation = nullptr)
{
    Matrix y(x.rows(), w.weight.cols());
    const GemmColumns columns{w.weight.data(),
                              w.weight.cols(),
                              y.data(),
                              y.cols(),
                              1,
                              w.bias.size() ? w.bias.data() : nullptr,
                              int(w.weight.cols())};
    GemmOptions options;
    if (activation) {
        options.activation = activateRun;
        options.activationContext = activation;
    }
    gemm(x.data(), x.cols(), int(x.rows()), int(x.cols()), {&columns, 1}, options);
    return y;
}

} // namespace

float activate(float x, Activation activation)
{
    switch (activation) {
    case Activation::GeluTanh:
        return 0.5f * x *
               (1.0f + std::tanh(float(std::sqrt(2.0 / M_PI)) * (x + 0.044715f * x * x * x)));
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
    // Rows in chunks of 32 on the job runner (a row of GPT-2 takes about a microsecond).
    constexpr Eigen::Index kChunk = 32;
    const int chunks = int((x.rows() + kChunk - 1) / kChunk);
    auto normalise = [&](int chunk, int) {
        const Eigen::Index last = std::min(x.rows(), (chunk + 1) * kChunk);
        for (Eigen::Index i = chunk * kChunk; i < last; ++i) {
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
    };
    if (chunks > 1)
        parallelFor(chunks, normalise);
    else
        serialFor(chunks, normalise);
    return y;
}

Matrix CpuBlockOps::feedForward(const Matrix& x, const FeedForwardWeights& w)
{
    if (w.kind == FeedForwardKind::Gated) {
        Matrix hidden = affine(x, w.in);
        hidden.array() *= affine(x, w.gate, &w.activation).array();
        return affine(hidden, w.out);
    }
    return affine(affine(x, w.in, &w.activation), w.out);
}

Matrix CpuBlockOps::dense(const Matrix& x, const LinearWeights& w, Activation activation)
{
    return affine(x, w, &activation);
}

Matrix CpuBlockOps::logits(const Matrix& x, const Matrix& outputEmbedding, const RowVector& bias)
{
    // logits^T = E x^T: E (vocab x d, as stored) is the GEMM's A, read once row by row in
    // place; x^T is the small panel; C is written transposed into y (T x vocab). A few rows
    // (one position, a few [MASK]s) are dot products of each vocabulary row with them instead.
    const Eigen::Index vocab = outputEmbedding.rows();
    Matrix y(x.rows(), vocab);
    if (y.size() == 0)
        return y;
    if (x.rows() <= 4) {
        dotRows(outputEmbedding.data(), outputEmbedding.cols(), int(vocab), int(x.cols()), x.data(),
                x.cols(), int(x.rows()), y.data(), 1, vocab, bias.size() ? bias.data() : nullptr);
        return y;
    }
    const Matrix xt = x.transpose();
    const GemmColumns columns{xt.data(), xt.cols(), y.data(), 1, vocab, nullptr, int(x.rows())};
    GemmOptions options;
    options.rowBias = bias.size() ? bias.data() : nullptr;
    gemm(outputEmbedding.data(), outputEmbedding.cols(), int(vocab), int(outputEmbedding.cols()),
         {&columns, 1}, options);
    return y;
}

} // namespace attn::core
