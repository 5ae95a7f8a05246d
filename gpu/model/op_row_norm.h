#pragma once

#include <cstdint>

namespace attn::gpu {

class Buffer;
class OpContext;

// LayerNorm or RMSNorm of every row (row_norm.comp): one row per invocation on lavapipe, one
// row per workgroup with a shared-memory reduction on GPUs.
class OpRowNorm
{
public:
    struct Shape
    {
        std::uint32_t rows = 0;
        std::uint32_t width = 0;  // d
        std::uint32_t width4 = 0; // d padded to 4: the row stride of input and output
        float eps = 0.0f;
        bool rms = false;
        bool bias = false; // LayerNorm's b, at width4 floats into the weights
    };

    // input: rows x width4; weights: g (width4 floats) then b; output: rows x width4 (its padding
    // written as zeros).
    static void record(OpContext& context, const Buffer& input, const Buffer& weights,
                       const Buffer& output, const Shape& shape);
};

} // namespace attn::gpu
