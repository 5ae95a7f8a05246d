#include "pooling.h"

#include <algorithm>
#include <limits>

namespace attn::core {
namespace {
int ceilDiv(int a, int b)
{
    return (a + b - 1) / b;
}
} // namespace

std::pair<int, int> poolBlocks(int rows, int cols, int maxRows, int maxCols)
{
    const int rowBlock = maxRows > 0 && rows > maxRows ? ceilDiv(rows, maxRows) : 1;
    const int colBlock = maxCols > 0 && cols > maxCols ? ceilDiv(cols, maxCols) : 1;
    return {rowBlock, colBlock};
}

Matrix poolMatrix(const Matrix& matrix, int rowBlock, int colBlock, PoolMode mode)
{
    const int rows = int(matrix.rows());
    const int cols = int(matrix.cols());
    Matrix pooled(ceilDiv(rows, rowBlock), ceilDiv(cols, colBlock));
    for (int bi = 0; bi < pooled.rows(); ++bi) {
        const int r0 = bi * rowBlock;
        const int nr = std::min(rowBlock, rows - r0);
        for (int bj = 0; bj < pooled.cols(); ++bj) {
            const int c0 = bj * colBlock;
            const int nc = std::min(colBlock, cols - c0);
            const auto block = matrix.block(r0, c0, nr, nc);
            pooled(bi, bj) =
                mode == PoolMode::Max ? block.maxCoeff() : block.sum() / float(nr * nc);
        }
    }
    return pooled;
}

} // namespace attn::core
