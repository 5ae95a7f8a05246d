#version 450
// X = embedding + position (seed 004: the model's input), queries and keys in one pass.

#include "common.glsl"

layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 1) readonly buffer Inputs { vec4 inputs[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Sum { vec4 x[]; };

layout(push_constant) uniform Shape
{
    uint count;          // vec4s of X
    uint positionOffset; // inputs = [embeddings | positions], in vec4s
}
pc;

void main()
{
    if (params.inputsChanged == 0)
        return;
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint e = gl_GlobalInvocationID.x; e < pc.count; e += stride)
        x[e] = inputs[e] + inputs[pc.positionOffset + e];
}
