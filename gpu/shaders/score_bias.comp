#version 450
// A per-head additive score bias (core::Problem::scoreBias; T5's relative position bias,
// Raffel et al. 2020, sec. 2.1) added to one chunk of scores after their product and before
// the mask: the raw scores get b, the scaled scores s b (the bias is part of the raw score).
// Invocations stride over the chunk's rows x keys of one head; z is the head.
#include "common.glsl"

layout(local_size_x_id = 0) in;

layout(set = 0, binding = 1) uniform samplerBuffer bias; // [head][query][key4], R32F
layout(std430, set = 0, binding = 2) buffer Scores { float scores[]; }; // [head][row][key4]

layout(push_constant) uniform Shape
{
    uint rows;       // of this chunk
    uint rowBase;    // the chunk's first query
    uint keys;       // Tk
    uint rowStride;  // floats per row, in the scores and in the bias (Tk padded to 4)
    uint headStride; // floats between heads' scores in the chunk
    uint queries;    // Tq: the bias's rows per head
    uint scaled;     // 1: times params.scale
}
pc;

void main()
{
    const uint head = gl_GlobalInvocationID.z;
    if ((headFlags(head) & HEAD_SCORES) == 0)
        return;
    const float factor = pc.scaled != 0 ? params.scale : 1.0;
    const uint count = pc.rows * pc.keys;
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint e = gl_GlobalInvocationID.x; e < count; e += stride) {
        const uint i = e / pc.keys;
        const uint j = e % pc.keys;
        const uint from = (head * pc.queries + pc.rowBase + i) * pc.rowStride + j;
        const float b = texelFetch(bias, int(from)).r;
        scores[head * pc.headStride + i * pc.rowStride + j] += pc.scaled != 0 ? factor * b : b;
    }
}
