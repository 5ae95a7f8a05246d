#version 450
// C = A * B elementwise, four values at a time: the gated feed-forward's act(x W_gate + b) *
// (x W_in + b) (SwiGLU, Shazeer 2020, eq. 6). A pass of its own rather than gemm.comp reading its
// output back: a readable C costs lavapipe's products about 5 % (measured), this pass far less.

layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) uniform samplerBuffer bufferA;
layout(set = 0, binding = 1) uniform samplerBuffer bufferB;
layout(std430, set = 0, binding = 2) writeonly buffer BufferC { vec4 c[]; };

layout(push_constant) uniform Shape
{
    uint count; // vec4s
}
pc;

void main()
{
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint e = gl_GlobalInvocationID.x; e < pc.count; e += stride)
        c[e] = texelFetch(bufferA, int(e)) * texelFetch(bufferB, int(e));
}
