// The GEMM tile on AVX-512 (compiled with -mavx512f; called only where the CPU has it).
#include "core/kernels/gemm_kernel.inc"

namespace attn::core::kernels {
namespace {

// NV vectors of 16 columns by MR rows: NV x MR accumulators, NV panel vectors and a broadcast
// within the 32 registers.
template <int Vectors, int Rows> struct Avx512
{
    using V = __m512;
    static constexpr int W = 16;
    static constexpr int NV = Vectors;
    static constexpr int MR = Rows;
    static V zero() { return _mm512_setzero_ps(); }
    static V load(const float* p) { return _mm512_loadu_ps(p); }
    static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
    static V broadcast(const float* p) { return _mm512_set1_ps(*p); }
    static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
    static V add(V a, V b) { return _mm512_add_ps(a, b); }
    static float sum(V a)
    {
        // Through memory: GCC 12's _mm512_reduce_add_ps and 256-bit casts of a 512-bit
        // register warn (-Wuninitialized) inside its own header. Once per dot product.
        alignas(64) float lanes[16];
        _mm512_store_ps(lanes, a);
        float total = 0.0f;
        for (float lane : lanes)
            total += lane;
        return total;
    }
};
// 8 rows x 48 columns in general: one core, GPT-2's layer weights, 76 GFLOP/s at 32 rows and 98
// at 128, against 61 and 91 for 6 x 64. But a head's W_q, W_k or W_v is 64 wide: 48 + 16 left
// a third of each head to a narrow kernel, so 64-wide groups take 6 x 64 panels.
using Panel48 = Avx512<3, 8>;
using Panel64 = Avx512<4, 6>;
static_assert(kMaxTileRows % Panel48::MR == 0 && kMaxTileRows % Panel64::MR == 0);

} // namespace

void gemmTileAvx512(const GemmTile& tile)
{
    if (tile.n % 64 == 0 && tile.n % 48 != 0)
        gemmTile<Panel64>(tile);
    else
        gemmTile<Panel48>(tile);
}

void dotTileAvx512(const DotTile& tile)
{
    dotTile<Panel48>(tile);
}

} // namespace attn::core::kernels
