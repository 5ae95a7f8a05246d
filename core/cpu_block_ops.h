#pragma once

#include "core/block_ops.h"

namespace attn::core {

// The reference implementation of the block operations (Eigen, float32 storage; reductions
// over a row in double so that the reference does not depend on the summation order).
class CpuBlockOps final : public BlockOps
{
public:
    Matrix norm(const Matrix& x, const NormWeights& weights) override;
    Matrix feedForward(const Matrix& x, const FeedForwardWeights& weights) override;
    Matrix dense(const Matrix& x, const LinearWeights& weights, Activation activation) override;
    Matrix logits(const Matrix& x, const Matrix& outputEmbedding, const RowVector& bias) override;
};

} // namespace attn::core
