#pragma once

#include "core/model/model_config.h"

#include <cstdint>

namespace attn::gpu {

class Buffer;
class OpContext;

// C = act(A B + bias) on gemm.comp: the feed-forward layers, the masked-LM head's dense layer
// and (B transposed, the vocabulary's rows) the logits.
// Every operand is row-major with widths padded to multiples of 4 by zeros, as the attention's
// products have them; the padded columns of C come out as zeros (act(0) = 0 for every
// activation here).
class OpLinear
{
public:
    struct Args
    {
        const Buffer* a = nullptr; // m x k4 (row stride lda)
        std::uint32_t offA = 0, lda = 0;
        const Buffer* b = nullptr; // k4 x n4 (ldb), or n x k4 when transposedB
        std::uint32_t offB = 0, ldb = 0;
        bool transposedB = false;
        const Buffer* bias = nullptr; // n4 floats at offBias; null: none
        std::uint32_t offBias = 0;
        const Buffer* c = nullptr; // m x n4 (ldc)
        std::uint32_t offC = 0, ldc = 0;
        std::uint32_t m = 0, n = 0, k4 = 0;           // offsets, strides and k4 multiples of 4
        const core::Activation* activation = nullptr; // null: none
    };

    static void record(OpContext& context, const Args& args);
    // C = A * B elementwise over `floats` floats (a multiple of 4): the gated product.
    static void recordMultiply(OpContext& context, const Buffer& a, const Buffer& b,
                               const Buffer& c, std::uint32_t floats);
};

} // namespace attn::gpu
