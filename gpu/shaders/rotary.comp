#version 450
// Rotary positions (Su et al. 2021, RoFormer eq. 34) in the Hugging Face rotate-half
// arrangement, core::RotarySpec: dimension j < d_k/2 of a head pairs with j + d_k/2 and, at
// position p, both turn by p * theta_j:
//   q'_j = q_j cos - q_{j+d/2} sin,   q'_{j+d/2} = q_{j+d/2} cos + q_j sin.
// Applied to every head's Q and K after the projection and its bias, into their own buffer
// (Q itself is shown unrotated); the scores read the rotated rows. cos and sin come from a
// table the host computes in double (as core's CPU backend does), so the angles carry no
// float32 rounding and both backends multiply the same floats.
//
// Invocations stride over the (row, j) pairs of one head's rows x d_k/2; y is the head, z = 0
// queries, 1 keys.
#include "common.glsl"

layout(local_size_x_id = 0) in;

layout(set = 0, binding = 1) uniform samplerBuffer projections; // [Q | K | V] rows, R32F
layout(set = 0, binding = 2) uniform samplerBuffer table;       // [position][j] (cos, sin), R32F
layout(std430, set = 0, binding = 3) writeonly buffer Rotated { float rotated[]; }; // [Q' | K']

layout(push_constant) uniform Shape
{
    uint halfWidth;      // d_k / 2
    uint headWidth;      // d_k4: floats between heads' columns
    uint stride;         // floats per row of the projections
    uint kOffset;        // floats: where K starts in a projection row
    uint rotatedStride;  // floats per row of the rotated buffer (2 h d_k4)
    uint rotatedKOffset; // floats: where K' starts in a rotated row (h d_k4)
}
pc;

void main()
{
    const uint head = gl_GlobalInvocationID.y;
    const bool keys = gl_GlobalInvocationID.z == 1;
    if ((headFlags(head) & (keys ? HEAD_K : HEAD_Q)) == 0)
        return;
    const uint count = uint(keys ? params.keys : params.queries) * pc.halfWidth;
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint e = gl_GlobalInvocationID.x; e < count; e += stride) {
        const uint row = e / pc.halfWidth;
        const uint j = e % pc.halfWidth;
        const uint from = row * pc.stride + (keys ? pc.kOffset : 0) + head * pc.headWidth + j;
        const float a = texelFetch(projections, int(from)).x;
        const float b = texelFetch(projections, int(from + pc.halfWidth)).x;
        const float c = texelFetch(table, int(2 * e)).x;
        const float s = texelFetch(table, int(2 * e + 1)).x;
        const uint to =
            row * pc.rotatedStride + (keys ? pc.rotatedKOffset : 0) + head * pc.headWidth + j;
        // precise: no fused multiply-add, so that the products round as core's do.
        precise float x = a * c - b * s;
        precise float y = b * c + a * s;
        rotated[to] = x;
        rotated[to + pc.halfWidth] = y;
    }
}
