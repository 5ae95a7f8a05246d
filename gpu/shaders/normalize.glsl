// Scale, mask and normalise one row of scores: the GPU form of core::normalizeRow
// (core/normalization.cpp), which defines every rule here. The including shader decides how
// many invocations share a row (LANES) and provides the row-wide reductions:
//   float reduceMax(float), float reduceSum(float), uvec4 reduceAdd(uvec4), uint reduceMin(uint).
// With one lane they are the identity (no barrier: PERF.md's fast lavapipe shape).
//
// Rows are processed 4 keys at a time (the row stride is padded to a multiple of 4); the scaled
// scores (the scores GEMM applied s as core does) are read through an RGBA32F texel buffer and
// nothing written here is read back in this dispatch (each pass starts again from the scaled
// scores), so the weights may be computed in place over them.

#include "common.glsl"

const uint SOFTMAX = 0;
const uint HARD = 1;
const uint RELU = 2;
const uint SPARSEMAX = 3;
const uint NONE = 4;

// Row status bits, as core/diagnostics.h's kRow* constants.
const uint FLAG_FULLY_MASKED = 1;
const uint FLAG_ZERO_SUM = 2;
const uint FLAG_NON_FINITE = 4;

layout(set = 0, binding = 1) uniform samplerBuffer scaledScores;
layout(std430, set = 0, binding = 2) writeonly buffer MaskedScores { vec4 maskedOut[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Weights { vec4 weights[]; };
// R32_UINT: padding bits per key (paddingOffset), then custom cells as bit rows (customOffset).
layout(set = 0, binding = 4) uniform usamplerBuffer maskBits;
layout(std430, set = 0, binding = 5) writeonly buffer Status { uint status[]; };

layout(push_constant) uniform Shape
{
    uint rows;          // rows in this chunk
    int rowBase;        // query index of the chunk's row 0
    uint headStride;    // floats between heads in the chunk buffers
    uint rowStride;     // floats between rows (keys rounded up to 4)
    uint paddingOffset; // into maskBits (words)
    uint customOffset;
    uint customWords;   // words per custom bit row
}
pc;

// One group of 4 keys j..j+3 of query row i, as normalisation sees it.
struct Cells
{
    vec4 value;     // the fill for masked cells, else the scaled score
    bvec4 masked;   // by any rule (keys beyond Tk count as neither masked nor present)
    bvec4 counted;  // takes part in the normalisation
};

// The uniform-buffer fields the inner loops need, read once per row: a uniform-buffer load
// inside a loop is far slower on lavapipe than the loop's own work (measured in gemm.comp).
struct Rules
{
    int keys;
    bool padding;
    bool custom;
    bool excluding;
    float fill;
};

Rules readRules()
{
    Rules rules;
    rules.keys = params.keys;
    rules.padding = params.usePadding != 0;
    rules.custom = params.useCustom != 0;
    rules.excluding = params.fillExcludes != 0;
    rules.fill = params.fillValue;
    return rules;
}

bvec4 bitsOf(uint word, uint shift)
{
    return notEqual((uvec4(word) >> (uvec4(0, 1, 2, 3) + shift)) & 1u, uvec4(0));
}

Cells cellsAt(int i, uint j4, ivec2 range, uint base, Rules rules)
{
    const uint j = j4 * 4;
    const ivec4 key = ivec4(j) + ivec4(0, 1, 2, 3);
    const bvec4 present = lessThan(key, ivec4(rules.keys));
    bvec4 masked = bvec4(uvec4(lessThan(key, ivec4(range.x))) | uvec4(greaterThanEqual(key, ivec4(range.y))));
    if (rules.padding)
        masked = bvec4(uvec4(masked) | uvec4(bitsOf(texelFetch(maskBits, int(pc.paddingOffset + j / 32)).x, j % 32)));
    if (rules.custom) {
        const uint word = texelFetch(maskBits, int(pc.customOffset + uint(i) * pc.customWords + j / 32)).x;
        masked = bvec4(uvec4(masked) | uvec4(bitsOf(word, j % 32)));
    }
    masked = bvec4(uvec4(masked) & uvec4(present));
    Cells cells;
    // A select, so that whatever sits in a masked cell (the scores of masked tiles are never
    // computed) cannot leak through.
    cells.value = mix(texelFetch(scaledScores, int((base + j) >> 2)), vec4(rules.fill), masked);
    cells.masked = masked;
    cells.counted = rules.excluding ? bvec4(uvec4(present) & uvec4(not(masked))) : present;
    return cells;
}

void normalizeRow(uint row, uint head, uint lane)
{
    if ((headFlags(head) & HEAD_SCORES) == 0)
        return; // unchanged since the last compute: weights and status stand
    const int i = pc.rowBase + int(row);
    const Rules rules = readRules();
    const uint keys = uint(rules.keys);
    const uint groups = pc.rowStride / 4; // vec4s per row
    const ivec2 range = keyRange(i);
    const uint base = head * pc.headStride + row * pc.rowStride;
    const uint base4 = base >> 2;
    const bool excluding = rules.excluding;

    if (KEEP != 0) {
        // Kept intermediates: masked = the scaled scores with the fill in masked cells.
        for (uint g = lane; g < groups; g += LANES)
            maskedOut[base4 + g] = cellsAt(i, g, range, base, rules).value;
    }

    // Groups that can hold a counted cell: with -inf fill only the causal/window range, with
    // -9e15 every key (masked cells hold the fill as an ordinary number).
    const uint gBegin = excluding ? uint(range.x) / 4 : 0;
    const uint gEnd = excluding ? (uint(range.y) + 3) / 4 : (keys + 3) / 4;

    float maxValue = -INF;
    uvec4 counts = uvec4(0); // masked (inside the groups), NaN, +inf, -inf
    uint counted = 0;
    for (uint g = gBegin + lane; g < gEnd; g += LANES) {
        const Cells cells = cellsAt(i, g, range, base, rules);
        counts.x += uint(dot(vec4(cells.masked), vec4(1.0)));
        for (uint e = 0; e < 4; ++e) {
            if (!cells.counted[e])
                continue;
            const float v = cells.value[e];
            ++counted;
            if (isnan(v)) {
                ++counts.y;
                continue;
            }
            if (isinf(v)) {
                if (v > 0.0)
                    ++counts.z;
                else
                    ++counts.w;
            }
            maxValue = max(maxValue, v);
        }
    }
    maxValue = reduceMax(maxValue);
    counts = reduceAdd(counts);
    counted = reduceAdd(uvec4(counted, 0, 0, 0)).x;

    // Keys outside the scanned groups are masked by the causal/window rules.
    const uint scannedKeys = min(gEnd * 4, keys) - min(gBegin * 4, keys);
    const bool fullyMasked = counts.x + (keys - scannedKeys) == keys;
    uint flags = fullyMasked ? FLAG_FULLY_MASKED : 0;
    if (counts.w > 0)
        flags |= FLAG_NON_FINITE;

    // Groups outside [gBegin, gEnd) weigh 0.
    for (uint g = lane; g < gBegin; g += LANES)
        weights[base4 + g] = vec4(0.0);
    for (uint g = gEnd + lane; g < groups; g += LANES)
        weights[base4 + g] = vec4(0.0);

    if (NORMALIZATION == NONE) {
        // No normalization (seed 004's (X X^T) V): the scaled scores are the weights as they
        // are, non-finite ones included; a masked cell weighs 0 under either fill (core's rule).
        if (counts.y + counts.z > 0)
            flags |= FLAG_NON_FINITE;
        for (uint g = gBegin + lane; g < gEnd; g += LANES) {
            const Cells cells = cellsAt(i, g, range, base, rules);
            weights[base4 + g] = mix(vec4(0.0), cells.value, bvec4(uvec4(cells.counted) & uvec4(not(cells.masked))));
        }
    } else if (excluding && fullyMasked) {
        for (uint g = gBegin + lane; g < gEnd; g += LANES)
            weights[base4 + g] = vec4(0.0);
    } else if (counts.y > 0) {
        // A NaN score makes every counted cell NaN; excluded cells still weigh 0 (core's rule).
        flags |= FLAG_NON_FINITE;
        for (uint g = gBegin + lane; g < gEnd; g += LANES) {
            const Cells cells = cellsAt(i, g, range, base, rules);
            weights[base4 + g] = mix(vec4(0.0), vec4(0.0 / 0.0), cells.counted);
        }
    } else if (counts.z > 0 || maxValue == -INF) {
        // The limit of every normalisation: the largest cells share the row equally (+inf
        // cells when there are any, else every counted -inf cell); hard keeps the first.
        flags |= FLAG_NON_FINITE;
        const uint winners = counts.z > 0 ? counts.z : counted;
        uint first = 0xffffffffu;
        for (uint g = gBegin + lane; g < gEnd; g += LANES) {
            const Cells cells = cellsAt(i, g, range, base, rules);
            bvec4 winner = cells.counted;
            if (counts.z > 0)
                winner = bvec4(uvec4(winner) & uvec4(equal(cells.value, vec4(INF))));
            for (uint e = 0; e < 4; ++e)
                if (winner[e])
                    first = min(first, g * 4 + e);
            weights[base4 + g] = mix(vec4(0.0), vec4(1.0 / float(winners)), winner);
        }
        if (NORMALIZATION == HARD) {
            first = reduceMin(first);
            for (uint g = gBegin + lane; g < gEnd; g += LANES)
                weights[base4 + g] = vec4(equal(ivec4(g * 4) + ivec4(0, 1, 2, 3), ivec4(first)));
        }
    } else if (NORMALIZATION == SOFTMAX) {
        // exp(s - max) / sum: the row max subtracted first (Vaswani et al. eq. 1).
        float sum = 0.0;
        for (uint g = gBegin + lane; g < gEnd; g += LANES) {
            const Cells cells = cellsAt(i, g, range, base, rules);
            sum += dot(mix(vec4(0.0), exp(cells.value - maxValue), cells.counted), vec4(1.0));
        }
        sum = reduceSum(sum);
        for (uint g = gBegin + lane; g < gEnd; g += LANES) {
            const Cells cells = cellsAt(i, g, range, base, rules);
            weights[base4 + g] = mix(vec4(0.0), exp(cells.value - maxValue) / sum, cells.counted);
        }
    } else if (NORMALIZATION == HARD) {
        // Seed 000: one-hot at the argmax; ties go to the lowest index.
        uint best = 0xffffffffu;
        for (uint g = gBegin + lane; g < gEnd && best == 0xffffffffu; g += LANES) {
            const Cells cells = cellsAt(i, g, range, base, rules);
            for (uint e = 0; e < 4; ++e)
                if (cells.counted[e] && cells.value[e] == maxValue) {
                    best = g * 4 + e;
                    break;
                }
        }
        best = reduceMin(best);
        for (uint g = gBegin + lane; g < gEnd; g += LANES)
            weights[base4 + g] = vec4(equal(ivec4(g * 4) + ivec4(0, 1, 2, 3), ivec4(best)));
    } else if (NORMALIZATION == RELU) {
        // max(s, 0) / sum; a row with no positive score is all zeros and reported.
        float sum = 0.0;
        for (uint g = gBegin + lane; g < gEnd; g += LANES) {
            const Cells cells = cellsAt(i, g, range, base, rules);
            sum += dot(mix(vec4(0.0), max(cells.value, 0.0), cells.counted), vec4(1.0));
        }
        sum = reduceSum(sum);
        if (sum == 0.0)
            flags |= FLAG_ZERO_SUM;
        for (uint g = gBegin + lane; g < gEnd; g += LANES) {
            const Cells cells = cellsAt(i, g, range, base, rules);
            weights[base4 + g] = sum == 0.0 ? vec4(0.0) : mix(vec4(0.0), max(cells.value, 0.0) / sum, cells.counted);
        }
    } else {
        // Sparsemax (Martins & Astudillo 2016): p = max(z - tau, 0) with tau solving
        // sum_j max(z_j - tau, 0) = 1, z = s - max. Michelot's fixed point instead of a sort:
        // tau = (sum of the z above the previous tau - 1) / their count, until the set holds
        // still. Each step only drops cells, so it ends after at most `counted` steps.
        float tau = -INF;
        uint previous = 0xffffffffu;
        for (uint step = 0; step <= keys; ++step) {
            float sum = 0.0;
            uint n = 0;
            for (uint g = gBegin + lane; g < gEnd; g += LANES) {
                const Cells cells = cellsAt(i, g, range, base, rules);
                const vec4 zv = cells.value - maxValue;
                const bvec4 above = bvec4(uvec4(cells.counted) & uvec4(greaterThan(zv, vec4(tau))));
                sum += dot(mix(vec4(0.0), zv, above), vec4(1.0));
                n += uint(dot(vec4(above), vec4(1.0)));
            }
            sum = reduceSum(sum);
            n = reduceAdd(uvec4(n, 0, 0, 0)).x;
            if (n == 0 || n >= previous)
                break;
            previous = n;
            tau = (sum - 1.0) / float(n);
        }
        for (uint g = gBegin + lane; g < gEnd; g += LANES) {
            const Cells cells = cellsAt(i, g, range, base, rules);
            weights[base4 + g] = mix(vec4(0.0), max(cells.value - maxValue - tau, 0.0), cells.counted);
        }
    }
    if (lane == 0)
        status[head * uint(params.queries) + uint(i)] = flags;
}
