#pragma once

#include "core/training/layer_parameters.h"

#include <vector>

namespace attn::core {

// Principal components of the rows of a matrix (n points in d dimensions), for 2-D maps of
// embeddings and of a head's queries and keys.
struct PcaResult
{
    RowVectorD mean;               // 1 x d, subtracted before projecting
    MatrixD components;            // k x d: unit principal directions, largest variance first
    std::vector<double> variances; // k eigenvalues of the covariance (divided by n - 1)
    std::vector<double> explained; // k fractions of the total variance
    MatrixD projected;             // n x k: (rows - mean) components^T
};

// The first `components` principal components (fewer when n or d is smaller), from the
// singular value decomposition of the centred rows: the right singular vectors are the
// eigenvectors of the covariance X_c^T X_c / (n - 1), its eigenvalues sigma^2 / (n - 1).
// Signs are fixed so that each direction's largest-magnitude entry is positive, so the same
// data always gives the same picture. Throws Error for no rows or non-finite values.
PcaResult principalComponents(const MatrixD& rows, int components = 2);

} // namespace attn::core
