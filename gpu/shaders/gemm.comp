#version 450
// C = A B (+ bias) for every matrix product of the pipeline: the projections, Q M (bilinear),
// the scores (B transposed: K's rows; unit rows for cosine), weights x V and H_h W_O,h. Batched over
// gl_WorkGroupID.z (heads) with per-batch offsets in push constants. A real model's block
// operations use it too (gpu/model): act(x W + b) and the logits x E^T (B transposed: the
// vocabulary's rows).
//
// Every operand is read 4 floats at a time through an RGBA32F texel buffer and C is written
// as vec4: the host pads d_model, d_k, d_v and the score rows to multiples of 4 with zeros, so
// every offset here is a multiple of 4 and the padding adds exact zeros. (On lavapipe a texel
// fetch is a vector gather, where a storage-buffer load is a branchy loop over the lanes: 2.5
// to 3.7x faster products, measured.)
//
// Two shapes, chosen by VARIANT (PERF.md):
//  0 (lavapipe and other CPU devices): no shared memory and no barrier; each invocation keeps
//    TM x 4 outputs in registers and reads A and B 4-deep along K.
//  1 (GPUs): 64 x 64 workgroup tiles staged through shared memory, 16 deep, 4 x 4 outputs per
//    invocation of 256.
#include "activation.glsl"
#include "common.glsl"

layout(constant_id = 0) const uint VARIANT = 0;
layout(local_size_x_id = 1) in;
layout(constant_id = 2) const uint B_TRANSPOSED = 0; // 1: B is stored N x K (the keys)
layout(constant_id = 3) const uint OP = 0;           // 0: dot (and cosine, of unit rows), 1: additive
layout(constant_id = 4) const uint HAS_BIAS = 0;     // + aux[offAux + z strideAux + column]
layout(constant_id = 5) const uint MASK_SKIP = 0;    // scores: skip cells masked by causal/window
layout(constant_id = 6) const uint K_RANGE = 0;      // weights x V: only keys that can weigh
layout(constant_id = 7) const uint TM = 8;           // variant 0: rows per invocation
layout(constant_id = 8) const uint THREADS_N = 8;    // variant 0: invocations along N
layout(constant_id = 9) const uint SHARED_FLOATS = 1; // variant 1: BK * 64 floats per tile
// Skip work whose inputs did not change (common.glsl's head bits): 0 never, 1 by column (the
// projections: a column belongs to one head's Q, K or V), 2 by batch (z is the head).
layout(constant_id = 10) const uint SKIP = 0;
layout(constant_id = 11) const uint ACTIVATION = 0; // activation.glsl's ACT_*, after the bias

const uint OP_DOT = 0;
const uint OP_ADDITIVE = 1;

layout(set = 0, binding = 1) uniform samplerBuffer bufferA;
layout(set = 0, binding = 2) uniform samplerBuffer bufferB;
// writeonly: lavapipe's products run about 5 % faster than with a readable C (measured).
layout(std430, set = 0, binding = 3) writeonly buffer BufferC { vec4 c[]; };
// The packed weights: biases and the additive score's w.
layout(set = 0, binding = 4) uniform samplerBuffer bufferAux;

// Offsets and leading dimensions in floats, all multiples of 4.
layout(push_constant) uniform Shape
{
    uint M, N, K;
    uint lda, ldb, ldc;
    uint offA, offB, offC, offAux;
    uint strideA, strideB, strideC, strideAux; // per batch (z)
    int rowBase; // query index of row 0, for the mask rules
    // SKIP = 1: column c is in head c / skipWidthA's Q (skipBitA) below skipSplit1, in head
    // (c - skipSplit1) / skipWidthA's K (skipBitB) below skipSplit2, else in head
    // (c - skipSplit2) / skipWidthB's V (skipBitC). SKIP = 2: batch z needs skipBitA.
    uint skipSplit1, skipSplit2, skipWidthA, skipWidthB, skipBitA, skipBitB, skipBitC;
    // Scores only: 1 for the scaled scores. As core computes them: (s q) . k for the dot-like
    // kinds (s applied to A as it is read), s (w . tanh(q + k)) for additive.
    uint scaled;
}
pc;

// The factor applied to A as it is read. Read from the uniform buffer once per invocation:
// a uniform-buffer load inside the K loop costs lavapipe 5-15x the whole product (measured).
float scaleOfA()
{
    return (OP == OP_DOT && pc.scaled != 0) ? params.scale : 1.0;
}

// False when the 4-column group at c has nothing to recompute.
bool columnsDirty(uint c)
{
    if (c < pc.skipSplit1)
        return (headFlags(c / pc.skipWidthA) & pc.skipBitA) != 0;
    if (c < pc.skipSplit2)
        return (headFlags((c - pc.skipSplit1) / pc.skipWidthA) & pc.skipBitB) != 0;
    return (headFlags((c - pc.skipSplit2) / pc.skipWidthB) & pc.skipBitC) != 0;
}

bool clean(uint z, uint c0, uint c1)
{
    if (SKIP == 2)
        return (headFlags(z) & pc.skipBitA) == 0;
    if (SKIP == 1) {
        for (uint c = c0; c < c1; c += 4)
            if (columnsDirty(c))
                return false;
        return true;
    }
    return false;
}

vec4 fetch4(samplerBuffer b, uint floatOffset)
{
    return texelFetch(b, int(floatOffset >> 2));
}

// Keys [first, last) that rows [r0, r1) of this product may need, 4-aligned (all of K
// without K_RANGE). Cells outside hold exact zeros in A, so skipping them changes nothing.
uvec2 keyWindow(uint r0, uint r1)
{
    const uint kEnd = (pc.K + 3) & ~3u;
    if (K_RANGE == 0 || params.fillExcludes == 0)
        return uvec2(0, kEnd);
    const int first = keyRange(pc.rowBase + int(r0)).x;
    const int last = keyRange(pc.rowBase + int(r1) - 1).y;
    return uvec2(uint(first) & ~3u, min(kEnd, (uint(max(first, last)) + 3) & ~3u));
}

// True when every cell of rows [r0, r1) x columns [c0, c1) is masked by the causal/window rules.
bool tileMasked(uint r0, uint r1, uint c0, uint c1)
{
    if (MASK_SKIP == 0)
        return false;
    const int first = keyRange(pc.rowBase + int(r0)).x;
    const int last = keyRange(pc.rowBase + int(r1) - 1).y;
    return int(c1) <= first || int(c0) >= last;
}

float combine(float acc, float x, float y, float w)
{
    if (OP == OP_ADDITIVE)
        return acc + w * tanh(x + y); // Bahdanau-style w^T tanh(q + k), seed 001
    return acc + x * y;
}

// What is stored: scaled (additive scores), + bias, activated.
vec4 finish(vec4 acc, uint z, uint col0, float scale)
{
    if (OP == OP_ADDITIVE && pc.scaled != 0)
        acc *= scale;
    if (HAS_BIAS != 0)
        acc += fetch4(bufferAux, pc.offAux + z * pc.strideAux + col0);
    if (ACTIVATION != ACT_NONE)
        acc = activate(acc, ACTIVATION);
    return acc;
}

// ---- Variant 0: registers only ----------------------------------------------------------------

void gemmRegisters()
{
    const uint z = gl_WorkGroupID.z;
    const uint t = gl_LocalInvocationID.x;
    const uint threadsM = gl_WorkGroupSize.x / THREADS_N;
    const uint tileRows = threadsM * TM;
    const uint tileCols = THREADS_N * 4;
    // lavapipe hands each thread a contiguous run of workgroups: pairing row tile y with the
    // one from the other end balances causal masks, whose late rows cost the most.
    const uint wy = gl_WorkGroupID.y;
    const uint ny = gl_NumWorkGroups.y;
    const uint tileY = (wy % 2 == 0) ? wy / 2 : ny - 1 - wy / 2;
    const uint row0 = tileY * tileRows + (t / THREADS_N) * TM;
    const uint col0 = gl_WorkGroupID.x * tileCols + (t % THREADS_N) * 4;
    if (row0 >= pc.M || col0 >= pc.N)
        return;
    const uint rowEnd = min(row0 + TM, pc.M);
    if (tileMasked(row0, rowEnd, col0, min(col0 + 4, pc.N)) || clean(z, col0, col0 + 4))
        return;

    const uint baseA = pc.offA + z * pc.strideA;
    const uint baseB = pc.offB + z * pc.strideB;
    const uint baseW = pc.offAux + z * pc.strideAux;
    const float sA = scaleOfA(); // x 1.0 is exact
    uint rowA[TM];
    for (uint r = 0; r < TM; ++r)
        rowA[r] = baseA + min(row0 + r, pc.M - 1) * pc.lda; // clamped rows are computed, not stored
    uint rowB[4];
    for (uint j = 0; j < 4; ++j)
        rowB[j] = baseB + min(col0 + j, pc.N - 1) * pc.ldb; // B transposed: one key per column

    vec4 acc[TM];
    for (uint r = 0; r < TM; ++r)
        acc[r] = vec4(0.0);

    const uvec2 kw = keyWindow(row0, rowEnd);
    for (uint k = kw.x; k < kw.y; k += 4) {
        vec4 av[TM];
        for (uint r = 0; r < TM; ++r)
            av[r] = fetch4(bufferA, rowA[r] + k) * sA;
        if (B_TRANSPOSED != 0) {
            vec4 bv[4]; // bv[j]: key col0 + j at depths k..k+3
            for (uint j = 0; j < 4; ++j)
                bv[j] = fetch4(bufferB, rowB[j] + k);
            if (OP == OP_ADDITIVE) {
                const vec4 w = fetch4(bufferAux, baseW + k);
                for (uint r = 0; r < TM; ++r)
                    for (uint j = 0; j < 4; ++j)
                        acc[r][j] += dot(w, tanh(av[r] + bv[j]));
            } else {
                for (uint r = 0; r < TM; ++r)
                    for (uint j = 0; j < 4; ++j)
                        acc[r][j] += dot(av[r], bv[j]);
            }
        } else {
            vec4 bv[4]; // bv[d]: columns col0..col0+3 at depth k + d
            for (uint d = 0; d < 4; ++d)
                bv[d] = fetch4(bufferB, baseB + (k + d) * pc.ldb + col0);
            for (uint r = 0; r < TM; ++r)
                acc[r] += av[r].x * bv[0] + av[r].y * bv[1] + av[r].z * bv[2] + av[r].w * bv[3];
        }
    }

    const uint baseC = pc.offC + z * pc.strideC;
    const float scale = params.scale;
    for (uint r = 0; r < TM; ++r) {
        const uint row = row0 + r;
        if (row >= rowEnd)
            break;
        c[(baseC + row * pc.ldc + col0) >> 2] = finish(acc[r], z, col0, scale);
    }
}

// ---- Variant 1: shared-memory tiles ---------------------------------------------------------

const uint BM = 64;
const uint BN = 64;
const uint BK = 16;
shared float tileA[SHARED_FLOATS]; // [BK][BM]
shared float tileB[SHARED_FLOATS]; // [BK][BN]

void gemmShared()
{
    const uint z = gl_WorkGroupID.z;
    const uint t = gl_LocalInvocationID.x; // 256 invocations: 16 x 16, 4 x 4 outputs each
    const uint tx = t % 16;
    const uint ty = t / 16;
    const uint row0 = gl_WorkGroupID.y * BM;
    const uint col0 = gl_WorkGroupID.x * BN;
    const uint rowEnd = min(row0 + BM, pc.M);
    const uint colEnd = min(col0 + BN, pc.N);
    // Uniform over the workgroup, so returning here cannot strand a barrier.
    if (tileMasked(row0, rowEnd, col0, colEnd) || clean(z, col0, colEnd))
        return;

    const uint baseA = pc.offA + z * pc.strideA;
    const uint baseB = pc.offB + z * pc.strideB;
    const uint baseW = pc.offAux + z * pc.strideAux;
    const float sA = scaleOfA(); // x 1.0 is exact
    vec4 acc[4];
    for (uint i = 0; i < 4; ++i)
        acc[i] = vec4(0.0);

    const uvec2 kw = keyWindow(row0, rowEnd);
    for (uint k0 = kw.x; k0 < kw.y; k0 += BK) {
        {
            // A: 64 rows x 16 depths = 256 texels, one per invocation.
            const uint rr = t / 4;
            const uint kq = (t % 4) * 4;
            const bool inside = row0 + rr < pc.M && k0 + kq < kw.y;
            const vec4 v = inside ? fetch4(bufferA, baseA + (row0 + rr) * pc.lda + k0 + kq) * sA : vec4(0.0);
            for (uint i = 0; i < 4; ++i)
                tileA[(kq + i) * BM + rr] = v[i];
        }
        if (B_TRANSPOSED != 0) {
            const uint cc = t / 4;
            const uint kq = (t % 4) * 4;
            const bool inside = col0 + cc < pc.N && k0 + kq < kw.y;
            const vec4 v = inside ? fetch4(bufferB, baseB + (col0 + cc) * pc.ldb + k0 + kq) : vec4(0.0);
            for (uint i = 0; i < 4; ++i)
                tileB[(kq + i) * BN + cc] = v[i];
        } else {
            const uint kk = t / 16;
            const uint cq = (t % 16) * 4;
            const bool inside = col0 + cq < pc.N && k0 + kk < kw.y;
            const vec4 v = inside ? fetch4(bufferB, baseB + (k0 + kk) * pc.ldb + col0 + cq) : vec4(0.0);
            for (uint i = 0; i < 4; ++i)
                tileB[kk * BN + cq + i] = v[i];
        }
        barrier();
        const uint depth = min(BK, kw.y - k0);
        for (uint kk = 0; kk < depth; ++kk) {
            const float w = OP == OP_ADDITIVE ? fetch4(bufferAux, baseW + ((k0 + kk) & ~3u))[(k0 + kk) & 3u] : 0.0;
            vec4 x;
            vec4 y;
            for (uint i = 0; i < 4; ++i) {
                x[i] = tileA[kk * BM + ty * 4 + i];
                y[i] = tileB[kk * BN + tx * 4 + i];
            }
            for (uint i = 0; i < 4; ++i)
                for (uint j = 0; j < 4; ++j)
                    acc[i][j] = combine(acc[i][j], x[i], y[j], w);
        }
        barrier();
    }

    const uint baseC = pc.offC + z * pc.strideC;
    const float scale = params.scale;
    const uint column = col0 + tx * 4;
    if (column >= colEnd)
        return;
    for (uint i = 0; i < 4; ++i) {
        const uint row = row0 + ty * 4 + i;
        if (row >= rowEnd)
            break;
        c[(baseC + row * pc.ldc + column) >> 2] = finish(acc[i], z, column, scale);
    }
}

void main()
{
    if (VARIANT == 0)
        gemmRegisters();
    else
        gemmShared();
}
