#pragma once

#include "core/matrix.h"
#include "core/model/transformer_weights.h"

namespace attn::core {

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
