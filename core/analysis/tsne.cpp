#include "embedding_space.h"

#include "core/analysis/pca.h"
#include "core/error.h"

#include <cmath>

namespace attn::core {
namespace {

// Row i of P_{j|i} = exp(-beta d_ij) / sum_k exp(-beta d_ik), with beta found by bisection so
// that the row's entropy is log(perplexity) (van der Maaten & Hinton 2008, eq. 1 and 4).
void calibrateRow(const MatrixD& distances, int i, double perplexity, RowVectorD& row)
{
    const Eigen::Index n = distances.rows();
    const double target = std::log(perplexity);
    double beta = 1.0, lo = 0.0, hi = INFINITY;
    // Distances relative to the nearest other point keep exp() in range.
    double nearest = INFINITY;
    for (Eigen::Index j = 0; j < n; ++j)
        if (j != i)
            nearest = std::min(nearest, distances(i, j));
    for (int step = 0; step < 200; ++step) {
        double sum = 0.0, weighted = 0.0;
        for (Eigen::Index j = 0; j < n; ++j) {
            row(j) = j == i ? 0.0 : std::exp(-beta * (distances(i, j) - nearest));
            sum += row(j);
            weighted += row(j) * (distances(i, j) - nearest);
        }
        // H = log sum + beta <d>, with the shift undone inside the log-sum.
        const double entropy = std::log(sum) + beta * weighted / sum;
        row /= sum;
        if (std::abs(entropy - target) < 1e-7)
            break;
        if (entropy > target) { // too flat: sharpen
            lo = beta;
            beta = std::isinf(hi) ? beta * 2.0 : (beta + hi) / 2.0;
        } else {
            hi = beta;
            beta = (beta + lo) / 2.0;
        }
    }
}

} // namespace

void TsneSettings::validate() const
{
    if (!(perplexity > 0.0) || !std::isfinite(perplexity))
        throw Error("perplexity: must be a positive finite number");
    if (iterations < 1 || iterations > 100000)
        throw Error("iterations: must be from 1 to 100000");
    if (!(learningRate >= 0.0) || !std::isfinite(learningRate))
        throw Error(
            "learning_rate: must be a finite number >= 0 (0: chosen from the number of points)");
    if (!(exaggeration >= 1.0) || !std::isfinite(exaggeration))
        throw Error("exaggeration: must be a finite number >= 1");
    if (exaggerationIterations < 0)
        throw Error("exaggeration_iterations: must be >= 0");
}

MatrixD tsneAffinities(const MatrixD& x, double perplexity)
{
    const Eigen::Index n = x.rows();
    // Squared distances, then the symmetric P (eq. 1 and p_ij = (p_j|i + p_i|j) / 2n).
    const Eigen::VectorXd squares = x.rowwise().squaredNorm();
    MatrixD d = (-2.0 * x * x.transpose()).colwise() + squares;
    d.rowwise() += squares.transpose();
    d = d.cwiseMax(0.0);
    const double target = std::max(std::min(perplexity, double(n - 1) / 3.0), 1.0);
    MatrixD conditional(n, n);
    RowVectorD row(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        calibrateRow(d, int(i), target, row);
        conditional.row(i) = row;
    }
    // Into a new matrix: p + p^T assigned to p itself would read entries already overwritten
    // (Eigen's aliasing rule).
    MatrixD p = (conditional + conditional.transpose()) / (2.0 * double(n));
    p = p.cwiseMax(1e-12);
    p.diagonal().setZero();
    return p;
}

MatrixD tsne(const MatrixD& x, const TsneSettings& settings)
{
    settings.validate();
    const Eigen::Index n = x.rows();
    if (n == 0)
        throw Error("t-SNE: no points to map");
    if (!x.allFinite())
        throw Error("t-SNE: the vectors hold a NaN or an infinity");
    MatrixD y = MatrixD::Zero(n, 2);
    const PcaResult pca = principalComponents(x, 2);
    y.leftCols(pca.projected.cols()) = pca.projected;
    if (n < 4)
        return y; // too few points for a neighbourhood: the PCA map

    const MatrixD p = tsneAffinities(x, settings.perplexity);

    // The PCA start scaled to a standard deviation of 1e-4 on the first axis (openTSNE's
    // "pca" initialisation): deterministic and global structure kept.
    const double spread = std::sqrt((y.col(0).array() - y.col(0).mean()).square().mean());
    if (spread > 0.0)
        y *= 1e-4 / spread;

    const double rate =
        settings.learningRate > 0.0 ? settings.learningRate : std::max(double(n) / 12.0, 50.0);
    MatrixD update = MatrixD::Zero(n, 2);
    MatrixD gains = MatrixD::Ones(n, 2);
    MatrixD num(n, n);
    for (int it = 0; it < settings.iterations; ++it) {
        const bool early = it < settings.exaggerationIterations;
        const double exaggeration = early ? settings.exaggeration : 1.0;
        const double momentum = early ? 0.5 : 0.8;
        // q_ij = (1 + |y_i - y_j|^2)^-1 / Z (Student t, eq. 4).
        const Eigen::VectorXd ys = y.rowwise().squaredNorm();
        num = (-2.0 * y * y.transpose()).colwise() + ys;
        num.rowwise() += ys.transpose();
        num = (1.0 + num.array().max(0.0)).inverse().matrix();
        num.diagonal().setZero();
        const double z = num.sum();
        // dC/dy_i = 4 sum_j (p_ij - q_ij) (1 + |y_i - y_j|^2)^-1 (y_i - y_j)   (eq. 5)
        const MatrixD w = (exaggeration * p.array() - num.array() / z).matrix().cwiseProduct(num);
        const MatrixD grad = 4.0 * (w.rowwise().sum().asDiagonal() * y - w * y);
        // Delta-bar-delta gains and momentum, as the reference implementation.
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index c = 0; c < 2; ++c) {
                const bool same = (grad(i, c) > 0.0) == (update(i, c) > 0.0);
                gains(i, c) = std::max(same ? gains(i, c) * 0.8 : gains(i, c) + 0.2, 0.01);
            }
        update = momentum * update - rate * gains.cwiseProduct(grad);
        y += update;
        y.rowwise() -= y.colwise().mean();
    }
    return y;
}

} // namespace attn::core
