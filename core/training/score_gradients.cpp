#include "score_gradients.h"

#include <cmath>

namespace attn::core {
namespace {

// Rows scaled to unit length; a zero row stays zero (cosine with it is 0). Also the norms.
MatrixD unitRows(const MatrixD& m, Eigen::VectorXd& norms)
{
    MatrixD unit = m;
    norms.resize(m.rows());
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        norms(i) = m.row(i).norm();
        if (norms(i) > 0.0)
            unit.row(i) /= norms(i);
        else
            unit.row(i).setZero();
    }
    return unit;
}

// d(x/|x|) is (I - u u^T)/|x|: the part of the gradient along u is removed.
MatrixD unitRowsBackward(const MatrixD& dUnit, const MatrixD& unit, const Eigen::VectorXd& norms)
{
    MatrixD d(dUnit.rows(), dUnit.cols());
    for (Eigen::Index i = 0; i < d.rows(); ++i) {
        if (norms(i) > 0.0)
            d.row(i) = (dUnit.row(i) - unit.row(i) * unit.row(i).dot(dUnit.row(i))) / norms(i);
        else
            d.row(i).setZero(); // cosine is held at 0 around a zero vector
    }
    return d;
}

} // namespace

MatrixD scoreForward(ScoreKind kind, const MatrixD& Q, const MatrixD& K, const HeadParameters& head)
{
    switch (kind) {
    case ScoreKind::Dot:
    case ScoreKind::ScaledDot:
        return Q * K.transpose();
    case ScoreKind::Bilinear:
        return (Q * head.bilinear) * K.transpose();
    case ScoreKind::Cosine: {
        Eigen::VectorXd qn, kn;
        return unitRows(Q, qn) * unitRows(K, kn).transpose();
    }
    case ScoreKind::Additive: {
        MatrixD e(Q.rows(), K.rows());
        const Eigen::VectorXd w = head.wAdditive.transpose();
        for (Eigen::Index i = 0; i < Q.rows(); ++i)
            e.row(i) = ((K.rowwise() + Q.row(i)).array().tanh().matrix() * w).transpose();
        return e;
    }
    }
    return MatrixD();
}

ScoreGradients scoreBackward(ScoreKind kind, const MatrixD& G, const MatrixD& Q, const MatrixD& K,
                             const HeadParameters& head)
{
    ScoreGradients g;
    switch (kind) {
    case ScoreKind::Dot:
    case ScoreKind::ScaledDot:
        g.dQ = G * K;
        g.dK = G.transpose() * Q;
        break;
    case ScoreKind::Bilinear: {
        const MatrixD& M = head.bilinear;
        const MatrixD KM = K * M.transpose(); // rows (M k_j)^T
        g.dQ = G * KM;
        g.dK = G.transpose() * (Q * M);
        g.dBilinear = Q.transpose() * G * K;
        break;
    }
    case ScoreKind::Cosine: {
        Eigen::VectorXd qn, kn;
        const MatrixD U = unitRows(Q, qn);
        const MatrixD C = unitRows(K, kn);
        g.dQ = unitRowsBackward(G * C, U, qn);
        g.dK = unitRowsBackward(G.transpose() * U, C, kn);
        break;
    }
    case ScoreKind::Additive: {
        const Eigen::Index dk = Q.cols();
        g.dQ = MatrixD::Zero(Q.rows(), dk);
        g.dK = MatrixD::Zero(K.rows(), dk);
        g.dwAdditive = RowVectorD::Zero(dk);
        const Eigen::ArrayXXd w = head.wAdditive.array().replicate(K.rows(), 1);
        for (Eigen::Index i = 0; i < Q.rows(); ++i) {
            // t (Tk x d_k) = tanh(q_i + k_j) for every key j of this query.
            const Eigen::ArrayXXd t = (K.rowwise() + Q.row(i)).array().tanh();
            const Eigen::ArrayXd gi = G.row(i).transpose().array(); // Tk
            // d e_ij / d(q_i + k_j) = w (1 - t^2), times G_ij.
            const Eigen::ArrayXXd inner = (w * (1.0 - t.square())).colwise() * gi;
            g.dQ.row(i) = inner.colwise().sum().matrix();
            g.dK += inner.matrix();
            g.dwAdditive += (t.colwise() * gi).colwise().sum().matrix();
        }
        break;
    }
    }
    return g;
}

} // namespace attn::core
