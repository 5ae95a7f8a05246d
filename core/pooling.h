#pragma once

#include "attention_settings.h"
#include "matrix.h"

#include <utility>

namespace attn::core {

// Block sizes that bring a rows x cols matrix within maxRows x maxCols:
// block = ceil(rows / maxRows). The grid is ceil(rows / block) x ceil(cols / block).
std::pair<int, int> poolBlocks(int rows, int cols, int maxRows, int maxCols);

// Mean or max over each rowBlock x colBlock block; edge blocks use the cells they have.
Matrix poolMatrix(const Matrix& matrix, int rowBlock, int colBlock, PoolMode mode);

} // namespace attn::core
