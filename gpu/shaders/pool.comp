#version 450
// Pools each head's weights to the view's grid (core::poolMatrix): one invocation per grid
// cell, over the rows of this chunk, 4 keys at a time. A grid row split across chunks
// accumulates: sums for the mean (the host divides by the cell count), running maxima for max.
// Heads whose weights did not change keep their grid.

#include "common.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint MODE = 0; // 0: mean (sum here), 1: max

layout(set = 0, binding = 1) uniform samplerBuffer weights;
layout(std430, set = 0, binding = 2) buffer Grid { float grid[]; };

layout(push_constant) uniform Shape
{
    uint rows;       // rows in this chunk
    uint rowBase;    // query index of the chunk's row 0
    uint queries;    // Tq
    uint keys;       // Tk
    uint rowBlock;
    uint colBlock;
    uint gridRows;
    uint gridCols;
    uint headStride; // floats between heads in the chunk buffer
    uint rowStride;  // floats between rows (a multiple of 4)
    uint firstGridRow;
    uint accumulate; // 1: add to (max with) what earlier chunks left in the grid
}
pc;

void main()
{
    const uint gc = gl_GlobalInvocationID.x;
    const uint gr = pc.firstGridRow + gl_GlobalInvocationID.y;
    const uint head = gl_GlobalInvocationID.z;
    if (gc >= pc.gridCols || gr >= pc.gridRows || (headFlags(head) & HEAD_SCORES) == 0)
        return;
    const uint r0 = max(gr * pc.rowBlock, pc.rowBase);
    const uint r1 = min(min((gr + 1) * pc.rowBlock, pc.rowBase + pc.rows), pc.queries);
    if (r0 >= r1)
        return;
    const uint c0 = gc * pc.colBlock;
    const uint c1 = min(c0 + pc.colBlock, pc.keys);
    const float none = MODE == 0 ? 0.0 : -1.0 / 0.0;
    vec4 acc = vec4(none);
    for (uint r = r0; r < r1; ++r) {
        const uint base = (head * pc.headStride + (r - pc.rowBase) * pc.rowStride) >> 2;
        for (uint g = c0 / 4; g * 4 < c1; ++g) {
            const uvec4 col = uvec4(g * 4) + uvec4(0, 1, 2, 3);
            const bvec4 inside = bvec4(uvec4(greaterThanEqual(col, uvec4(c0))) & uvec4(lessThan(col, uvec4(c1))));
            const vec4 w = mix(vec4(none), texelFetch(weights, int(base + g)), inside);
            acc = MODE == 0 ? acc + w : max(acc, w);
        }
    }
    const float cellValue = MODE == 0 ? (acc.x + acc.y) + (acc.z + acc.w) : max(max(acc.x, acc.y), max(acc.z, acc.w));
    const uint cell = (head * pc.gridRows + gr) * pc.gridCols + gc;
    if (pc.accumulate == 0)
        grid[cell] = cellValue;
    else
        grid[cell] = MODE == 0 ? grid[cell] + cellValue : max(grid[cell], cellValue);
}
