#version 450
// Each row of x normalised, as core::BlockOps::norm: LayerNorm (x - mean) / sqrt(var + eps) g + b
// with the biased variance (Ba et al. 2016, eq. 4), or RMSNorm x / sqrt(mean(x^2) + eps) g
// (Zhang & Sennrich 2019, eq. 4).
//
// The mean and the variance are two passes over the row (not E[x^2] - E[x]^2, which cancels),
// each a compensated (Kahan) sum of vec4s: a model's residual stream has a few components in the
// thousands beside many near 1, and a plain float32 sum of 768 of them drifts by more than the
// reference (which sums in double) allows.
//
// Two shapes, as normalize.comp (PERF.md): LANES = 1 (lavapipe) runs one row per invocation with
// no barrier; LANES > 1 (GPUs) runs one row per workgroup of LANES invocations, reduced through
// shared memory.

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint RMS = 0;      // 0: LayerNorm, 1: RMSNorm
layout(constant_id = 2) const uint HAS_BIAS = 0; // LayerNorm's b
layout(constant_id = 3) const uint LANES = 1;    // invocations per row (the workgroup, when > 1)

layout(set = 0, binding = 0) uniform samplerBuffer inputs;  // rows of width4 vec4s
layout(set = 0, binding = 1) uniform samplerBuffer weights; // g at gainOffset, b at biasOffset
layout(std430, set = 0, binding = 2) writeonly buffer Outputs { vec4 outputs[]; };

layout(push_constant) uniform Shape
{
    uint rows;
    uint width4;       // vec4s per row (the padding holds zeros)
    uint width;        // d: the values per row
    uint gainOffset;   // vec4s
    uint biasOffset;   // vec4s
    float eps;
}
pc;

shared vec2 partial[LANES > 1 ? LANES : 1];

// Sum of v over the row's lanes (v itself when LANES = 1).
float rowSum(float v, uint lane)
{
    if (LANES == 1)
        return v;
    partial[lane].x = v;
    barrier();
    for (uint step = LANES / 2; step > 0; step /= 2) {
        if (lane < step)
            partial[lane].x += partial[lane + step].x;
        barrier();
    }
    const float sum = partial[0].x;
    barrier();
    return sum;
}

// Kahan summation, four lanes at a time: sum += v with the rounding error carried in
// compensation. `precise` keeps compilers from simplifying (t - sum) - y to zero.
void add(inout vec4 sum, inout vec4 compensation, vec4 v)
{
    precise vec4 y = v - compensation;
    precise vec4 t = sum + y;
    precise vec4 lost = (t - sum) - y;
    compensation = lost;
    sum = t;
}

float total(vec4 sum)
{
    return (sum.x + sum.y) + (sum.z + sum.w);
}

void main()
{
    const uint lane = LANES == 1 ? 0 : gl_LocalInvocationID.x;
    const uint row = LANES == 1 ? gl_GlobalInvocationID.x : gl_WorkGroupID.x;
    if (row >= pc.rows) // uniform over the workgroup when LANES > 1
        return;
    const uint base = row * pc.width4;
    const float n = float(pc.width);

    float mean = 0.0;
    if (RMS == 0) {
        vec4 sum = vec4(0.0);
        vec4 compensation = vec4(0.0);
        for (uint g = lane; g < pc.width4; g += LANES)
            add(sum, compensation, texelFetch(inputs, int(base + g)));
        mean = rowSum(total(sum), lane) / n;
    }
    vec4 sum = vec4(0.0);
    vec4 compensation = vec4(0.0);
    for (uint g = lane; g < pc.width4; g += LANES) {
        vec4 v = texelFetch(inputs, int(base + g)) - mean;
        // The padding's zeros minus the mean are no part of the row.
        const uvec4 column = 4 * g + uvec4(0, 1, 2, 3);
        v = mix(vec4(0.0), v, lessThan(column, uvec4(pc.width)));
        add(sum, compensation, v * v);
    }
    const float variance = rowSum(total(sum), lane) / n; // biased; mean(x^2) for RMSNorm
    const float scale = 1.0 / sqrt(variance + pc.eps);

    for (uint g = lane; g < pc.width4; g += LANES) {
        // As core: ((x - mean) * scale) rounded, then times g (and + b).
        vec4 y = (texelFetch(inputs, int(base + g)) - mean) * scale *
                 texelFetch(weights, int(pc.gainOffset + g));
        if (HAS_BIAS != 0)
            y += texelFetch(weights, int(pc.biasOffset + g));
        const uvec4 column = 4 * g + uvec4(0, 1, 2, 3);
        outputs[base + g] = mix(vec4(0.0), y, lessThan(column, uvec4(pc.width)));
    }
}
