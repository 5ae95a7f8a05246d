#version 450
// Scale, mask and normalise the scores: one row per invocation, no shared memory and no
// barrier, the shape lavapipe runs fastest (PERF.md: 1.5-20x faster than workgroup reductions).

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint NORMALIZATION = 0; // softmax, hard, relu, sparsemax, none
layout(constant_id = 2) const uint KEEP = 0;          // write scaled and masked scores too

const uint LANES = 1;
float reduceMax(float v) { return v; }
float reduceSum(float v) { return v; }
uvec4 reduceAdd(uvec4 v) { return v; }
uint reduceMin(uint v) { return v; }

#include "normalize.glsl"

void main()
{
    const uint row = gl_GlobalInvocationID.x;
    if (row < pc.rows)
        normalizeRow(row, gl_GlobalInvocationID.y, 0);
}
