#pragma once

#include <Eigen/Core>

namespace attn::core {

// Row-major, like the GPU buffers: row i is token i.
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic>;

} // namespace attn::core
