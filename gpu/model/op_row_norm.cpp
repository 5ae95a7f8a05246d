#include "op_row_norm.h"

#include "gpu/buffer.h"
#include "op_context.h"

#include <algorithm>

namespace attn::gpu {
namespace {

// row_norm.comp's push constants.
struct RowNormPush
{
    std::uint32_t rows, width4, width, gainOffset, biasOffset;
    float eps;
};

} // namespace

void OpRowNorm::record(OpContext& context, const Buffer& input, const Buffer& weights,
                       const Buffer& output, const Shape& shape)
{
    // PERF.md: lavapipe runs a row per invocation without barriers fastest; GPUs want the
    // row's reduction spread over a workgroup.
    const bool registers = context.variant() == ShaderVariant::Registers;
    const std::uint32_t lanes = registers ? 1u : 64u;
    const std::uint32_t local = registers ? 64u : lanes;
    const ComputePipeline& pipeline = context.pipeline(
        "row_norm", {kTexelBinding, kTexelBinding, kStorageBinding}, sizeof(RowNormPush),
        {local, shape.rms ? 1u : 0u, shape.bias ? 1u : 0u, lanes});
    const RowNormPush push{shape.rows, shape.width4 / 4, shape.width,
                           0,          shape.width4 / 4, shape.eps};
    const std::uint32_t groups = registers ? (shape.rows + local - 1) / local : shape.rows;
    context.dispatch(pipeline, {&input, &weights, &output}, &push, sizeof push,
                     std::max(1u, groups), 1, 1);
}

} // namespace attn::gpu
