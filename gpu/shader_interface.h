#pragma once

// The C++ side of the shaders' interfaces: the uniform block of common.glsl and each shader's
// push constants, field for field (std140 / std430 scalars, so no padding but where noted).

#include <cstddef>
#include <cstdint>

namespace attn::gpu {

// common.glsl's Params (std140: twelve 4-byte scalars, then uvec4 headBits[64] at offset 48).
constexpr int kMaxHeadBits = 256; // core::kMaxHeads
// common.glsl's HEAD_* bits: which stages of a head must run this time.
constexpr std::uint32_t kHeadQ = 1, kHeadK = 2, kHeadV = 4, kHeadQM = 8, kHeadScores = 16,
                        kHeadOutput = 32, kHeadPartial = 64, kHeadEnabled = 128;

struct Params
{
    float scale;
    float fillValue;
    std::int32_t fillExcludes;
    std::int32_t causal;
    std::int32_t window;
    std::int32_t windowCausal;
    std::int32_t usePadding;
    std::int32_t useCustom;
    std::int32_t queries;
    std::int32_t keys;
    std::int32_t inputsChanged; // X = E + P must be recomputed
    std::int32_t reserved;
    std::uint32_t headBits[kMaxHeadBits];
};
static_assert(offsetof(Params, headBits) == 48);

// gemm.comp
struct GemmPush
{
    std::uint32_t M = 0, N = 0, K = 0;
    std::uint32_t lda = 0, ldb = 0, ldc = 0;
    std::uint32_t offA = 0, offB = 0, offC = 0, offAux = 0;
    std::uint32_t strideA = 0, strideB = 0, strideC = 0, strideAux = 0;
    std::int32_t rowBase = 0;
    std::uint32_t skipSplit1 = 0, skipSplit2 = 0, skipWidthA = 1, skipWidthB = 1, skipBitA = 0,
                  skipBitB = 0, skipBitC = 0;
    std::uint32_t scaled = 0;
};

// normalize.glsl
struct NormalizePush
{
    std::uint32_t rows;
    std::int32_t rowBase;
    std::uint32_t headStride;
    std::uint32_t rowStride;
    std::uint32_t paddingOffset;
    std::uint32_t customOffset;
    std::uint32_t customWords;
};

// pool.comp
struct PoolPush
{
    std::uint32_t rows, rowBase, queries, keys, rowBlock, colBlock, gridRows, gridCols, headStride,
        rowStride, firstGridRow, accumulate;
};

// sum_heads.comp
struct SumPush
{
    std::uint32_t count, width, headStride, heads, biasOffset, outputOffset;
};

// unit_rows.comp
struct UnitPush
{
    std::uint32_t width, stride, kOffset, unitStride; // vec4s
};

// rotary.comp (floats)
struct RotaryPush
{
    std::uint32_t halfWidth, headWidth, stride, kOffset, rotatedStride, rotatedKOffset;
};

// score_bias.comp
struct ScoreBiasPush
{
    std::uint32_t rows, rowBase, keys, rowStride, headStride, queries, scaled;
};

// add.comp
struct AddPush
{
    std::uint32_t count;          // vec4s
    std::uint32_t positionOffset; // vec4s
};

} // namespace attn::gpu
