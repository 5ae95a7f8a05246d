// The activations of a transformer's feed-forward network, as core::activate computes them
// (core/model/cpu_block_ops.cpp), four values at a time.

#ifndef ATTN_ACTIVATION_GLSL
#define ATTN_ACTIVATION_GLSL

// Numbered as the host's constants (gpu/model/op_linear.h): 0 is none.
const uint ACT_NONE = 0;
const uint ACT_GELU_TANH = 1;
const uint ACT_GELU_ERF = 2;
const uint ACT_SILU = 3;
const uint ACT_RELU = 4;

// tanh x = sign(x) (1 - e^(-2|x|)) / (1 + e^(-2|x|)), from exp alone: no overflow for any x,
// and within a few float32 ulps of 1 in absolute terms, which is what 1 + tanh(...) needs.
// (GLSL's tanh is only specified as sinh / cosh; GPUs may map it to a hardware approximation
// good to about 2^-11.)
vec4 tanhFromExp(vec4 x)
{
    const vec4 e = exp(-2.0 * abs(x));
    return sign(x) * (1.0 - e) / (1.0 + e);
}

// GELU with erf (BERT): 0.5 x (1 + erf(x / sqrt 2)), with erf from Abramowitz & Stegun,
// Handbook of Mathematical Functions (1964), 7.1.26:
//   erf z = 1 - (a1 t + a2 t^2 + a3 t^3 + a4 t^4 + a5 t^5) e^(-z^2),  t = 1 / (1 + p z),  z >= 0,
// |error| <= 1.5e-7 (GLSL has no erf). For x < 0, 1 + erf(z) = (poly) e^(-z^2) is taken as it
// stands instead of as 1 - (1 - ...), which would cancel.
vec4 geluErf(vec4 x)
{
    const float p = 0.3275911;
    const float a1 = 0.254829592;
    const float a2 = -0.284496736;
    const float a3 = 1.421413741;
    const float a4 = -1.453152027;
    const float a5 = 1.061405429;
    const vec4 z = abs(x) * 0.70710678118654752;
    const vec4 t = 1.0 / (1.0 + p * z);
    const vec4 tail = t * (a1 + t * (a2 + t * (a3 + t * (a4 + t * a5)))) * exp(-z * z); // 1 - erf z
    return 0.5 * x * mix(2.0 - tail, tail, lessThan(x, vec4(0.0)));
}

vec4 activate(vec4 x, uint kind)
{
    if (kind == ACT_GELU_TANH) {
        // Hendrycks & Gimpel 2016, sec. 2's tanh approximation (GPT-2's gelu_new).
        const float c = 0.79788456080286536; // sqrt(2 / pi)
        return 0.5 * x * (1.0 + tanhFromExp(c * (x + 0.044715 * x * x * x)));
    }
    if (kind == ACT_GELU_ERF)
        return geluErf(x);
    if (kind == ACT_SILU)
        return x / (1.0 + exp(-x)); // x sigmoid(x) (Elfwing et al. 2018); -inf / inf is not met:
                                    // exp(-x) = inf gives x / inf = -0
    if (kind == ACT_RELU)
        return max(x, vec4(0.0));
    return x;
}

#endif
