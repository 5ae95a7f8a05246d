#include "pca.h"

#include "core/error.h"

#include <Eigen/SVD>
#include <algorithm>

namespace attn::core {

PcaResult principalComponents(const MatrixD& rows, int components)
{
    const Eigen::Index n = rows.rows();
    const Eigen::Index d = rows.cols();
    if (n == 0 || d == 0)
        throw Error("pca: no points to project");
    if (!rows.allFinite())
        throw Error("pca: the vectors hold a NaN or an infinity");
    PcaResult out;
    out.mean = rows.colwise().mean();
    const MatrixD centred = rows.rowwise() - out.mean;
    const Eigen::Index k = std::min<Eigen::Index>({Eigen::Index(std::max(components, 0)), d, n});

    Eigen::BDCSVD<Eigen::MatrixXd> svd(centred, Eigen::ComputeThinV);
    const Eigen::VectorXd& sigma = svd.singularValues(); // descending
    const double denominator = n > 1 ? double(n - 1) : 1.0;
    const double total = sigma.squaredNorm() / denominator;
    out.components.resize(k, d);
    for (Eigen::Index c = 0; c < k; ++c) {
        RowVectorD axis = svd.matrixV().col(c).transpose();
        Eigen::Index largest = 0;
        axis.cwiseAbs().maxCoeff(&largest);
        if (axis(largest) < 0)
            axis = -axis;
        out.components.row(c) = axis;
        const double variance = sigma(c) * sigma(c) / denominator;
        out.variances.push_back(variance);
        out.explained.push_back(total > 0.0 ? variance / total : 0.0);
    }
    out.projected = centred * out.components.transpose();
    return out;
}

} // namespace attn::core
