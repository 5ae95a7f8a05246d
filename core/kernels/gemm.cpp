#include "gemm.h"

#include "core/kernels/gemm_tile.h"
#include "core/parallel.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <vector>

namespace attn::core {
namespace {

// Widest first: a later one is narrower.
enum class Isa { Avx512, Avx2, Eigen };

bool supported(Isa wanted)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    // libgcc also checks that the OS saves the wider registers (XGETBV).
    switch (wanted) {
    case Isa::Avx512:
        return __builtin_cpu_supports("avx512f");
    case Isa::Avx2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::Eigen:
        return true;
    }
#endif
    return wanted == Isa::Eigen;
}

std::optional<Isa> isaNamed(std::string_view name)
{
    if (name == "avx512")
        return Isa::Avx512;
    if (name == "avx2")
        return Isa::Avx2;
    if (name == "eigen")
        return Isa::Eigen;
    return std::nullopt;
}

Isa detectIsa()
{
    // ATTN_CPU_KERNELS narrows the choice; it cannot pick a set the CPU lacks.
    const char* forced = std::getenv("ATTN_CPU_KERNELS");
    const std::optional<Isa> wanted = isaNamed(forced ? forced : "");
    for (Isa isa : {Isa::Avx512, Isa::Avx2})
        if (supported(isa) && (!wanted || isa >= *wanted))
            return isa;
    return Isa::Eigen;
}

std::atomic<Isa>& chosenIsa()
{
    static std::atomic<Isa> chosen{detectIsa()};
    return chosen;
}

Isa isa()
{
    return chosenIsa().load(std::memory_order_relaxed);
}

// Below this many FLOPs a product runs on the calling thread: waking the helper costs 10-50 us
// on these machines, about 2-4 MFLOP of one core's work.
constexpr double kParallelFlops = 4e6;
constexpr int kPieceAlign = 64; // column pieces: whole panels of either kernel

void tileEigen(const kernels::GemmTile& t)
{
    using Stride = Eigen::OuterStride<>;
    const Eigen::Map<const Matrix, 0, Stride> a(t.a, t.m, t.k, Stride(t.aStride));
    const Eigen::Map<const Matrix, 0, Stride> b(t.b, t.k, t.n, Stride(t.bStride));
    const Matrix product = a * b;
    for (int i = 0; i < t.m; ++i) {
        for (int j = 0; j < t.n; ++j) {
            float x = product(i, j);
            if (t.bias)
                x += t.bias[j];
            if (t.rowBias)
                x += t.rowBias[i];
            t.c[i * t.cRowStride + j * t.cColStride] = x;
        }
        if (t.activation)
            t.activation(t.c + i * t.cRowStride, t.n, t.activationContext);
    }
}

void runTile(const kernels::GemmTile& t)
{
    if (t.k == 0) { // an empty sum: the biases alone
        kernels::GemmTile empty = t;
        empty.k = 0;
        tileEigen(empty);
        return;
    }
    switch (isa()) {
    case Isa::Avx512:
        kernels::gemmTileAvx512(t);
        break;
    case Isa::Avx2:
        kernels::gemmTileAvx2(t);
        break;
    case Isa::Eigen:
        tileEigen(t);
        break;
    }
}

} // namespace

bool useGemmKernels(std::string_view name)
{
    const std::optional<Isa> wanted = isaNamed(name);
    if (!wanted || !supported(*wanted))
        return false;
    chosenIsa().store(*wanted);
    return true;
}

const char* gemmKernelName()
{
    switch (isa()) {
    case Isa::Avx512:
        return "AVX-512";
    case Isa::Avx2:
        return "AVX2+FMA";
    case Isa::Eigen:
        break;
    }
    return "Eigen";
}

void gemm(const float* a, Eigen::Index aStride, int m, int k, std::span<const GemmColumns> columns,
          const GemmOptions& options)
{
    if (m <= 0 || columns.empty())
        return;
    double width = 0;
    for (const GemmColumns& group : columns)
        width += group.width;
    const double flops = 2.0 * m * double(k) * width;
    const int threads = parallelThreads();
    const bool parallel = !options.serial && threads > 1 && flops >= kParallelFlops;

    // Tiles: rows in chunks of at most kMaxTileRows (A's block stays in L2 while the panels
    // pass), each group's columns in pieces, enough of them for the threads to finish together.
    // A product with one panel of B (the logits of one position) reuses nothing of A: its rows
    // are shared out in a few large tiles instead.
    const int tileRows =
        width > kPieceAlign
            ? kernels::kMaxTileRows
            : std::max(kernels::kMaxTileRows,
                       (m / (parallel ? 4 * threads : 1) + kernels::kMaxTileRows - 1) /
                           kernels::kMaxTileRows * kernels::kMaxTileRows);
    const int rowChunks = (m + tileRows - 1) / tileRows;
    const double wantedPieces = parallel ? 4.0 * threads / rowChunks : 1.0;
    const int pieceWidth =
        std::max(kPieceAlign,
                 int(std::ceil(width / std::max(1.0, wantedPieces) / kPieceAlign)) * kPieceAlign);
    struct Job
    {
        const GemmColumns* group;
        int firstColumn;
        int columns;
        int firstRow;
        int rows;
    };
    std::vector<Job> jobs;
    for (int chunk = 0; chunk < rowChunks; ++chunk) {
        const int first = chunk * tileRows;
        const int rows = std::min(tileRows, m - first);
        for (const GemmColumns& group : columns)
            for (int j = 0; j < group.width; j += pieceWidth)
                jobs.push_back({&group, j, std::min(pieceWidth, group.width - j), first, rows});
    }
    auto run = [&](int index, int) {
        const Job& job = jobs[std::size_t(index)];
        const GemmColumns& g = *job.group;
        kernels::GemmTile t;
        t.a = a + job.firstRow * aStride;
        t.aStride = aStride;
        t.m = job.rows;
        t.k = k;
        t.b = g.b + job.firstColumn;
        t.bStride = g.bStride;
        t.n = job.columns;
        t.c = g.c + job.firstRow * g.cRowStride + job.firstColumn * g.cColStride;
        t.cRowStride = g.cRowStride;
        t.cColStride = g.cColStride;
        t.bias = g.bias ? g.bias + job.firstColumn : nullptr;
        t.rowBias = options.rowBias ? options.rowBias + job.firstRow : nullptr;
        t.activation = options.activation;
        t.activationContext = options.activationContext;
        runTile(t);
    };
    if (parallel && jobs.size() > 1)
        parallelFor(int(jobs.size()), run);
    else
        serialFor(int(jobs.size()), run);
}

void dotRows(const float* a, Eigen::Index aStride, int m, int k, const float* b,
             Eigen::Index bStride, int n, float* c, Eigen::Index cRowStride,
             Eigen::Index cColStride, const float* rowBias)
{
    if (m <= 0 || n <= 0)
        return;
    const int threads = parallelThreads();
    const bool parallel = threads > 1 && 2.0 * m * double(k) * n >= kParallelFlops;
    // Rows of A in a few large chunks (nothing of A is reused), multiples of 4 rows.
    const int chunks = parallel ? 4 * threads : 1;
    const int chunkRows = std::max(4, (m / chunks + 3) / 4 * 4);
    const int count = (m + chunkRows - 1) / chunkRows;
    auto run = [&](int index, int) {
        const int first = index * chunkRows;
        kernels::DotTile t{a + first * aStride,
                           aStride,
                           std::min(chunkRows, m - first),
                           k,
                           b,
                           bStride,
                           n,
                           c + first * cRowStride,
                           cRowStride,
                           cColStride,
                           rowBias ? rowBias + first : nullptr};
        switch (isa()) {
        case Isa::Avx512:
            kernels::dotTileAvx512(t);
            break;
        case Isa::Avx2:
            kernels::dotTileAvx2(t);
            break;
        case Isa::Eigen: {
            using Stride = Eigen::OuterStride<>;
            const Eigen::Map<const Matrix, 0, Stride> am(t.a, t.m, k, Stride(aStride));
            const Eigen::Map<const Matrix, 0, Stride> bm(b, n, k, Stride(bStride));
            const Matrix product = am * bm.transpose();
            for (int i = 0; i < t.m; ++i)
                for (int j = 0; j < n; ++j)
                    t.c[i * cRowStride + j * cColStride] =
                        product(i, j) + (t.rowBias ? t.rowBias[i] : 0.0f);
            break;
        }
        }
    };
    if (parallel && count > 1)
        parallelFor(count, run);
    else
        serialFor(count, run);
}

Matrix multiply(const Eigen::Ref<const Matrix>& a, const Eigen::Ref<const Matrix>& b,
                const GemmOptions& options)
{
    Matrix c(a.rows(), b.cols());
    if (c.size() == 0)
        return c;
    const GemmColumns columns{b.data(), b.outerStride(), c.data(),     c.cols(),
                              1,        nullptr,         int(b.cols())};
    gemm(a.data(), a.outerStride(), int(a.rows()), int(a.cols()), {&columns, 1}, options);
    return c;
}

} // namespace attn::core
