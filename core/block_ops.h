#pragma once

#include "core/matrix.h"

namespace attn::core {

// What a block operation reads: the norms, linear layers and feed-forward networks of a
// transformer block (a checkpoint's layers, model/transformer_weights.h, are made of these).

enum class NormKind {
    LayerNorm, // (x - mean) / sqrt(var + eps) * g + b   (Ba et al. 2016)
    RmsNorm,   // x / sqrt(mean(x^2) + eps) * g           (Zhang & Sennrich 2019)
};

enum class Activation {
    GeluTanh, // GPT-2's gelu_new: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    GeluErf,  // BERT's gelu: 0.5 x (1 + erf(x / sqrt(2)))   (Hendrycks & Gimpel 2016)
    Silu,     // x sigmoid(x)
    Relu,
};

enum class FeedForwardKind {
    Plain, // act(x W_in + b_in) W_out + b_out
    Gated, // (act(x W_gate) * (x W_in)) W_out: SwiGLU with Silu (Shazeer 2020, eq. 6)
};

struct NormWeights
{
    NormKind kind = NormKind::LayerNorm;
    RowVector gain; // 1 x d; empty: no norm at this place
    RowVector bias; // 1 x d for LayerNorm; empty for RMSNorm
    float eps = 1e-5f;

    bool present() const { return gain.size() > 0; }
};

struct LinearWeights
{
    Matrix weight;  // d_in x d_out
    RowVector bias; // empty or 1 x d_out

    bool present() const { return weight.size() > 0; }
};

struct FeedForwardWeights
{
    FeedForwardKind kind = FeedForwardKind::Plain;
    Activation activation = Activation::GeluTanh;
    LinearWeights in;   // d x d_ff: Plain's first layer, Gated's "up"
    LinearWeights gate; // d x d_ff: Gated only
    LinearWeights out;  // d_ff x d
};

// The parts of a transformer block around attention, computed by a backend: the CPU's are
// the reference (cpu_block_ops.h), a GPU backend runs them as shaders. Every operation works
// on rows (one per token) and returns a new matrix.
class BlockOps
{
public:
    virtual ~BlockOps() = default;

    // Each row normalised: LayerNorm (x - mean) / sqrt(var + eps) * g + b with the biased
    // variance (Ba et al. 2016, eq. 4), or RMSNorm x / sqrt(mean(x^2) + eps) * g (Zhang &
    // Sennrich 2019, eq. 4).
    virtual Matrix norm(const Matrix& x, const NormWeights& weights) = 0;

    // The position-wise feed-forward network (Vaswani et al. 2017, eq. 2, with the family's
    // activation), or its gated form (act(x W_gate + b) * (x W_in + b)) W_out + b.
    virtual Matrix feedForward(const Matrix& x, const FeedForwardWeights& weights) = 0;

    // act(x W + b), the masked-LM head's dense layer.
    virtual Matrix dense(const Matrix& x, const LinearWeights& weights, Activation activation) = 0;

    // Logits x E^T + b for the rows of x, with E the vocab x d output embedding.
    virtual Matrix logits(const Matrix& x, const Matrix& outputEmbedding,
                          const RowVector& bias) = 0;
};

// The activation applied to one value, as every backend must compute it.
float activate(float x, Activation activation);

} // namespace attn::core
