#include "op_linear.h"

#include "gpu/buffer.h"
#include "gpu/shader_interface.h"
#include "op_context.h"

#include <algorithm>

namespace attn::gpu {
namespace {

// activation.glsl's ACT_* numbers.
std::uint32_t activationConstant(const core::Activation* activation)
{
    if (!activation)
        return 0;
    switch (*activation) {
    case core::Activation::GeluTanh:
        return 1;
    case core::Activation::GeluErf:
        return 2;
    case core::Activation::Silu:
        return 3;
    case core::Activation::Relu:
        return 4;
    }
    return 0;
}

std::uint32_t ceilDiv(std::uint32_t a, std::uint32_t b)
{
    return (a + b - 1) / b;
}

} // namespace

void OpLinear::record(OpContext& context, const Args& args)
{
    const bool registers = context.variant() == ShaderVariant::Registers;
    // The registers shape keeps TM x 4 outputs per invocation (PERF.md's best is 8 x 4, 64
    // invocations, 8 along N). A product of a few rows (the logits of the last position, the
    // masked-LM head) would compute 8 clamped copies of one row: TM = 1 with all 64
    // invocations along N reads each vocabulary row once per 4 columns instead.
    const std::uint32_t tm = args.m < 8 ? 1u : 8u;
    const std::uint32_t threadsN = tm == 1 ? 64u : 8u;
    const std::vector<std::uint32_t> constants = {
        registers ? 0u : 1u,                 // VARIANT
        registers ? 64u : 256u,              // local size
        args.transposedB ? 1u : 0u,          // B_TRANSPOSED
        0u,                                  // OP: dot
        args.bias ? 1u : 0u,                 // HAS_BIAS
        0u,                                  // MASK_SKIP
        0u,                                  // K_RANGE
        tm,                                  // TM
        threadsN,                            // THREADS_N
        registers ? 1u : 16u * 64u,          // SHARED_FLOATS
        0u,                                  // SKIP: nothing is incremental here
        activationConstant(args.activation), // ACTIVATION
    };
    const ComputePipeline& pipeline = context.pipeline(
        "gemm", {kUniformBinding, kTexelBinding, kTexelBinding, kStorageBinding, kTexelBinding},
        sizeof(GemmPush), constants);
    GemmPush push;
    push.M = args.m, push.N = args.n, push.K = args.k4;
    push.lda = args.lda, push.ldb = args.ldb, push.ldc = args.ldc;
    push.offA = args.offA, push.offB = args.offB, push.offC = args.offC, push.offAux = args.offBias;
    const std::uint32_t tileRows = registers ? (64 / threadsN) * tm : 64;
    const std::uint32_t tileCols = registers ? threadsN * 4 : 64;
    // Without a bias, binding 4 is never read: B stands in for it.
    context.dispatch(pipeline,
                     {&context.params(), args.a, args.b, args.c, args.bias ? args.bias : args.b},
                     &push, sizeof push, std::max(1u, ceilDiv(args.n, tileCols)),
                     std::max(1u, ceilDiv(args.m, tileRows)), 1);
}

void OpLinear::recordMultiply(OpContext& context, const Buffer& a, const Buffer& b, const Buffer& c,
                              std::uint32_t floats)
{
    const ComputePipeline& pipeline = context.pipeline(
        "multiply", {kTexelBinding, kTexelBinding, kStorageBinding}, sizeof(std::uint32_t), {64});
    const std::uint32_t count = floats / 4;
    context.dispatch(pipeline, {&a, &b, &c}, &count, sizeof count,
                     std::clamp(ceilDiv(count, 64), 1u, 4096u), 1, 1);
}

} // namespace attn::gpu
