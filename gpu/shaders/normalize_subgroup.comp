#version 450
// Scale, mask and normalise the scores: one workgroup per row, reductions through subgroup
// operations and a little shared memory, the shape GPUs want (PERF.md).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint NORMALIZATION = 0;
layout(constant_id = 2) const uint KEEP = 0;

const uint LANES = gl_WorkGroupSize.x;
const uint MAX_SUBGROUPS = 64; // enough for 1024 invocations in subgroups of 16

shared float partialF[MAX_SUBGROUPS];
shared uvec4 partialU[MAX_SUBGROUPS];

float reduceMax(float v)
{
    v = subgroupMax(v);
    if (subgroupElect())
        partialF[gl_SubgroupID] = v;
    barrier();
    float r = partialF[0];
    for (uint s = 1; s < gl_NumSubgroups; ++s)
        r = max(r, partialF[s]);
    barrier();
    return r;
}

float reduceSum(float v)
{
    v = subgroupAdd(v);
    if (subgroupElect())
        partialF[gl_SubgroupID] = v;
    barrier();
    float r = 0.0;
    for (uint s = 0; s < gl_NumSubgroups; ++s)
        r += partialF[s];
    barrier();
    return r;
}

uvec4 reduceAdd(uvec4 v)
{
    v = subgroupAdd(v);
    if (subgroupElect())
        partialU[gl_SubgroupID] = v;
    barrier();
    uvec4 r = uvec4(0);
    for (uint s = 0; s < gl_NumSubgroups; ++s)
        r += partialU[s];
    barrier();
    return r;
}

uint reduceMin(uint v)
{
    v = subgroupMin(v);
    if (subgroupElect())
        partialU[gl_SubgroupID].x = v;
    barrier();
    uint r = partialU[0].x;
    for (uint s = 1; s < gl_NumSubgroups; ++s)
        r = min(r, partialU[s].x);
    barrier();
    return r;
}

#include "normalize.glsl"

void main()
{
    const uint row = gl_WorkGroupID.x;
    if (row < pc.rows) // uniform over the workgroup
        normalizeRow(row, gl_WorkGroupID.y, gl_LocalInvocationID.x);
}
