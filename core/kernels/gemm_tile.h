#pragma once

// The single-threaded tile routine behind gemm() (gemm.h), one per instruction set, each in a
// translation unit of its own compiled with that set's flags (gemm_avx512.cpp, gemm_avx2.cpp).
// This header is plain C++ with no inline code, so that nothing compiled for AVX-512 can be
// picked by the linker for a caller on another CPU.

#include <cstddef>

namespace attn::core::kernels {

// C[0:m, 0:n] = A[0:m, 0:k] B[0:k, 0:n] + bias + rowBias, then the activation on each row.
struct GemmTile
{
    const float* a;
    std::ptrdiff_t aStride;
    int m;
    int k;
    const float* b;
    std::ptrdiff_t bStride;
    int n;
    float* c;
    std::ptrdiff_t cRowStride;
    std::ptrdiff_t cColStride;
    const float* bias;    // n values or null
    const float* rowBias; // m values or null
    void (*activation)(float*, int, const void*);
    const void* activationContext;
};

// The most rows of A one tile takes (a multiple of every kernel's rows): A's block, at most
// 192 x 768 floats, stays in L2 while the panels of B pass.
constexpr int kMaxTileRows = 192;

void gemmTileAvx512(const GemmTile& tile);
void gemmTileAvx2(const GemmTile& tile);

// C(i, j) = A_i . B_j + rowBias[i] for rows i < m of A and j < n of B (B given by its rows).
struct DotTile
{
    const float* a;
    std::ptrdiff_t aStride;
    int m;
    int k;
    const float* b;
    std::ptrdiff_t bStride;
    int n;
    float* c;
    std::ptrdiff_t cRowStride;
    std::ptrdiff_t cColStride;
    const float* rowBias; // m values or null
};

void dotTileAvx512(const DotTile& tile);
void dotTileAvx2(const DotTile& tile);

} // namespace attn::core::kernels
