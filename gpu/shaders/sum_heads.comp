#version 450
// Z = sum over enabled heads of H_h W_O,h + b_O: the concatenation times W^O (seed 004),
// written as a sum of per-head products so that an edit of one head recomputes one product.
// A disabled head contributes zeros to the concatenation, so it is left out of the sum.
#include "common.glsl"

layout(local_size_x_id = 0) in;

layout(set = 0, binding = 1) uniform samplerBuffer partials; // [head][row][d_model4]
layout(set = 0, binding = 2) uniform samplerBuffer weights;                        // b_O at biasOffset
layout(std430, set = 0, binding = 3) writeonly buffer Output { vec4 outputs[]; };

layout(push_constant) uniform Shape
{
    uint count;       // vec4s of Z (rows x d_model4 / 4)
    uint width;       // vec4s per row
    uint headStride;  // vec4s between heads' partial products
    uint heads;
    uint biasOffset;  // floats
    uint outputOffset; // vec4s: the chunk's first row of Z
}
pc;

void main()
{
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint e = gl_GlobalInvocationID.x; e < pc.count; e += stride) {
        vec4 sum = vec4(0.0);
        for (uint h = 0; h < pc.heads; ++h)
            if ((headFlags(h) & HEAD_ENABLED) != 0)
                sum += texelFetch(partials, int(h * pc.headStride + e));
        outputs[pc.outputOffset + e] = sum + texelFetch(weights, int(pc.biasOffset / 4 + e % pc.width));
    }
}
