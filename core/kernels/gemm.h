#pragma once

#include "core/matrix.h"

#include <span>
#include <string_view>

namespace attn::core {

// One group of columns of C = A B: `width` columns of B (K x width, row-major, bStride floats
// from one row to the next) and the same columns of C. A group is one matrix of B, or a part
// of one: the projections multiply X by every head's W_q, W_k and W_v without packing them
// side by side, each head's product written straight into its own Q, K or V.
struct GemmColumns
{
    const float* b = nullptr;
    Eigen::Index bStride = 0;
    float* c = nullptr;
    Eigen::Index cRowStride = 0; // C(i, j) is c[i * cRowStride + j * cColStride]
    Eigen::Index cColStride = 1; // 1: row-major C; otherwise C is written transposed
    const float* bias = nullptr; // width values added to every row, or null
    int width = 0;
};

struct GemmOptions
{
    // Added to every value of row i of C (rowBias[i]), or null: the logits' vocabulary bias
    // when C is written transposed.
    const float* rowBias = nullptr;
    // Applied in place to each finished run of `count` values of a row of C, after the bias
    // (fused bias and activation); only for row-major C.
    void (*activation)(float* values, int count, const void* context) = nullptr;
    const void* activationContext = nullptr;
    // On the calling thread alone: a product inside a job of the job runner (the attention
    // heads' scores and weights x V, whose blocks of rows are the jobs already).
    bool serial = false;
};

// C = A B + bias (then the activation) for every column group, A being M x K row-major with
// aStride floats from one row to the next. Tiles of C run on the job runner (parallel.h), each
// on one thread with the widest kernel this CPU has (AVX-512, else AVX2 + FMA, else Eigen).
//
// Each value of C is one fused multiply-add chain over k in order, then + bias (blocks of k's
// continue the chain from C's partial sums): the result does not depend on M, on the column
// grouping or on how the tiles are shared among threads. (The Eigen fallback sums in Eigen's
// order.)
void gemm(const float* a, Eigen::Index aStride, int m, int k, std::span<const GemmColumns> columns,
          const GemmOptions& options = {});

// C(i, j) = A_i . B_j + rowBias[i] (rowBias may be null): every row of A (M x K, row-major)
// against each of the n rows of B (n x K, bStride floats from one row to the next), written at
// c[i * cRowStride + j * cColStride]. For a few rows of B (the logits of one position or a few
// [MASK]s): A is read once as one sequential stream, each value a vector of partial sums along k
// added up at the end. With many rows of B, gemm() on B's transpose is faster.
void dotRows(const float* a, Eigen::Index aStride, int m, int k, const float* b,
             Eigen::Index bStride, int n, float* c, Eigen::Index cRowStride,
             Eigen::Index cColStride, const float* rowBias = nullptr);

// C = A B into a new matrix.
Matrix multiply(const Eigen::Ref<const Matrix>& a, const Eigen::Ref<const Matrix>& b,
                const GemmOptions& options = {});

// The instruction set the kernels use: "AVX-512", "AVX2+FMA" or "Eigen". ATTN_CPU_KERNELS=avx2
// or =eigen (read once) picks a narrower one, for tests and comparisons.
const char* gemmKernelName();

// Uses the kernels named "avx512", "avx2" or "eigen" from now on, where this CPU has them
// (tests, comparisons); false, and nothing changes, otherwise. Not while products run.
bool useGemmKernels(std::string_view name);

} // namespace attn::core
