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
// A row whose squares pass the float32 range (|x - mean| above about 1.8e19: a weight of 1e20 in
// the layer below) has an infinite or NaN variance here but a finite one in the reference's
// double. Such a row is summed again scaled by the power of two that brings its largest |x| into
// [0.5, 1): exact, so the result is the reference's up to rounding. A row holding inf or NaN
// stays NaN, as in the reference.
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

// Sum (or maximum) of v over the row's lanes (v itself when LANES = 1).
float rowReduce(float v, uint lane, bool maximum)
{
    if (LANES == 1)
        return v;
    partial[lane].x = v;
    barrier();
    for (uint step = LANES / 2; step > 0; step /= 2) {
        if (lane < step) {
            const float other = partial[lane + step].x;
            partial[lane].x = maximum ? max(partial[lane].x, other) : partial[lane].x + other;
        }
        barrier();
    }
    const float result = partial[0].x;
    barrier();
    return result;
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

// The row's mean and biased variance (mean(x^2) for RMSNorm) of x sigma, sigma a power of two.
vec2 moments(uint base, uint lane, float sigma)
{
    const float n = float(pc.width);
    float mean = 0.0;
    if (RMS == 0) {
        vec4 sum = vec4(0.0);
        vec4 compensation = vec4(0.0);
        for (uint g = lane; g < pc.width4; g += LANES)
            add(sum, compensation, texelFetch(inputs, int(base + g)) * sigma);
        mean = rowReduce(total(sum), lane, false) / n;
    }
    vec4 sum = vec4(0.0);
    vec4 compensation = vec4(0.0);
    for (uint g = lane; g < pc.width4; g += LANES) {
        vec4 v = texelFetch(inputs, int(base + g)) * sigma - mean;
        // The padding's zeros minus the mean are no part of the row.
        const uvec4 column = 4 * g + uvec4(0, 1, 2, 3);
        v = mix(vec4(0.0), v, lessThan(column, uvec4(pc.width)));
        add(sum, compensation, v * v);
    }
    return vec2(mean, rowReduce(total(sum), lane, false) / n); // biased
}

void main()
{
    const uint lane = LANES == 1 ? 0 : gl_LocalInvocationID.x;
    const uint row = LANES == 1 ? gl_GlobalInvocationID.x : gl_WorkGroupID.x;
    if (row >= pc.rows) // uniform over the workgroup when LANES > 1
        return;
    const uint base = row * pc.width4;

    float sigma = 1.0;
    vec2 m = moments(base, lane, sigma);
    if (isinf(m.y) || isnan(m.y)) { // uniform: every lane has the reduced value
        float largest = 0.0;
        for (uint g = lane; g < pc.width4; g += LANES) {
            const vec4 a = abs(texelFetch(inputs, int(base + g)));
            largest = max(largest, max(max(a.x, a.y), max(a.z, a.w)));
        }
        largest = rowReduce(largest, lane, true);
        if (largest > 0.0 && !isinf(largest) && !isnan(largest)) {
            int exponent;
            frexp(largest, exponent);
            // No smaller than 2^-126, the smallest normal float: a denormal sigma may be flushed to 0.
            sigma = ldexp(1.0, -min(exponent, 126));
            m = moments(base, lane, sigma);
        }
    }
    const float mean = m.x;
    // sigma^2 (var + eps) = var(x sigma) + eps sigma^2; eps sigma^2 may round to 0 beside it.
    const float scale = 1.0 / sqrt(m.y + pc.eps * sigma * sigma);

    for (uint g = lane; g < pc.width4; g += LANES) {
        // As core: ((x - mean) * scale) rounded, then times g (and + b).
        vec4 y = (texelFetch(inputs, int(base + g)) * sigma - mean) * scale *
                 texelFetch(weights, int(pc.gainOffset + g));
        if (HAS_BIAS != 0)
            y += texelFetch(weights, int(pc.biasOffset + g));
        const uvec4 column = 4 * g + uvec4(0, 1, 2, 3);
        outputs[base + g] = mix(vec4(0.0), y, lessThan(column, uvec4(pc.width)));
    }
}
