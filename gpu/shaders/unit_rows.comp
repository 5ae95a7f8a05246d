#version 450
// Cosine score, first step: every row of Q and of K divided by its Euclidean norm (a zero row
// stays zero), as core's CPU backend does, so that the scores are plain dot products of unit
// vectors and round the same way. z = 0: Q rows into unitQ; z = 1: K rows into unitK.
#include "common.glsl"

layout(local_size_x_id = 0) in;

layout(set = 0, binding = 1) uniform samplerBuffer projections; // [Q | K | V] rows
layout(std430, set = 0, binding = 2) writeonly buffer UnitQ { vec4 unitQ[]; };
layout(std430, set = 0, binding = 3) writeonly buffer UnitK { vec4 unitK[]; };

layout(push_constant) uniform Shape
{
    uint width;  // d_k4 / 4: vec4s per head row
    uint stride; // vec4s per row of the projections
    uint kOffset; // vec4s: where K starts in a projection row
    uint unitStride; // vec4s per row of unitQ and unitK (h d_k4 / 4)
}
pc;

void main()
{
    const uint row = gl_GlobalInvocationID.x;
    const uint head = gl_GlobalInvocationID.y;
    const bool keys = gl_GlobalInvocationID.z == 1;
    if (row >= uint(keys ? params.keys : params.queries))
        return;
    if ((headFlags(head) & (keys ? HEAD_K : HEAD_QM)) == 0)
        return;
    const uint from = row * pc.stride + (keys ? pc.kOffset : 0) + head * pc.width;
    float squares = 0.0;
    for (uint g = 0; g < pc.width; ++g) {
        const vec4 v = texelFetch(projections, int(from + g));
        squares += dot(v, v);
    }
    const float norm = sqrt(squares);
    const uint to = row * pc.unitStride + head * pc.width;
    for (uint g = 0; g < pc.width; ++g) {
        const vec4 v = norm > 0.0 ? texelFetch(projections, int(from + g)) / norm : vec4(0.0);
        if (keys)
            unitK[to + g] = v;
        else
            unitQ[to + g] = v;
    }
}
