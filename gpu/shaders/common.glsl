// Shared by every attention shader: the per-edit parameters and the mask rules.

#ifndef ATTN_COMMON_GLSL
#define ATTN_COMMON_GLSL

// Per-edit parameters, written into a persistently mapped uniform buffer before each submit
// (changing the temperature or the mask re-records nothing). Mirrors VulkanBackend's Params.
layout(std140, set = 0, binding = 0) uniform Params
{
    float scale;      // Problem::scoreScale(): 1/sqrt(d_k) for scaled dot, times 1/temperature
    float fillValue;  // maskFillValue(fill): -inf or -9e15
    int fillExcludes; // 1 with the -inf fill: masked cells are left out of the normalisation
    int causal;       // MaskSpec::causal
    int window;       // MaskSpec::window, -1 = off
    int windowCausal; // MaskSpec::windowCausal
    int usePadding;   // MaskSpec::padding (flags per key in the mask buffer)
    int useCustom;    // custom cells present (bitmask rows in the mask buffer)
    int queries;      // Tq
    int keys;         // Tk
    int inputsChanged; // X = E + P must be recomputed
    int reserved;
    // Per head (4 to a uvec4): which of its stages must run this time (HEAD_* bits). A stage
    // whose inputs did not change since the last compute of this shape keeps its results.
    uvec4 headBits[64];
}
params;

const uint HEAD_Q = 1;       // Q = X W_q + b_q
const uint HEAD_K = 2;       // K = X W_k + b_k
const uint HEAD_V = 4;       // V = X W_v + b_v
const uint HEAD_QM = 8;      // Q M (bilinear)
const uint HEAD_SCORES = 16; // scores, mask, normalisation, pooling
const uint HEAD_OUTPUT = 32; // weights x V
const uint HEAD_PARTIAL = 64; // H_h W_O,h
const uint HEAD_ENABLED = 128; // the head counts in the concatenation

uint headFlags(uint head)
{
    return params.headBits[head / 4][head % 4];
}

const float INF = 1.0 / 0.0;

// core::Mask::keyRange: [first, last) of the keys that the causal and window rules leave
// unmasked for query i. Both ends only grow with i, so a block of rows [a, b) can only see
// keys in [keyRange(a).x, keyRange(b - 1).y).
ivec2 keyRange(int i)
{
    int first = 0;
    int last = params.keys;
    if (params.causal != 0)
        last = min(last, i + 1);
    if (params.window >= 0) {
        first = max(first, i - params.window);
        last = min(last, params.windowCausal != 0 ? i + 1 : i + params.window + 1);
    }
    first = clamp(first, 0, params.keys);
    last = clamp(last, first, params.keys);
    return ivec2(first, last);
}

#endif
