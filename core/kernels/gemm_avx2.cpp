// The GEMM tile on AVX2 + FMA (compiled with -mavx2 -mfma; called only where the CPU has them).
#include "core/kernels/gemm_kernel.inc"

namespace attn::core::kernels {
namespace {

// 6 rows x 16 columns: 12 accumulators, 2 panel vectors and a broadcast of the 16 registers
// (BLIS's Haswell shape).
struct Avx2
{
    using V = __m256;
    static constexpr int W = 8;
    static constexpr int NV = 2;
    static constexpr int MR = 6;
    static V zero() { return _mm256_setzero_ps(); }
    static V load(const float* p) { return _mm256_loadu_ps(p); }
    static void store(float* p, V v) { _mm256_storeu_ps(p, v); }
    static V broadcast(const float* p) { return _mm256_broadcast_ss(p); }
    static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
    static V add(V a, V b) { return _mm256_add_ps(a, b); }
    static float sum(V a)
    {
        const __m128 half = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
        const __m128 quarter = _mm_add_ps(half, _mm_movehl_ps(half, half));
        return _mm_cvtss_f32(_mm_add_ss(quarter, _mm_movehdup_ps(quarter)));
    }
};
static_assert(kMaxTileRows % Avx2::MR == 0);

} // namespace

void gemmTileAvx2(const GemmTile& tile)
{
    gemmTile<Avx2>(tile);
}

void dotTileAvx2(const DotTile& tile)
{
    dotTile<Avx2>(tile);
}

} // namespace attn::core::kernels
