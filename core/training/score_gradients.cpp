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

// tanh(q_i + k_j) for every pair, row i * Tk + j. tanh x = 1 - 2 / (exp(2x) + 1) runs on
// Eigen's vectorised exp (std::tanh on doubles is scalar): the additive score was most of a
// training step.
MatrixD pairTanh(const MatrixD& Q, const MatrixD& K)
{
    const Eigen::Index tk = K.rows();
    MatrixD t(Q.rows() * tk, Q.cols());
    for (Eigen::Index i = 0; i < Q.rows(); ++i)
        t.middleRows(i * tk, tk) = K.rowwise() + Q.row(i);
    t = 1.0 - 2.0 / ((2.0 * t.array()).exp() + 1.0);
    return t;
}

} // namespace

MatrixD scoreForward(ScoreKind kind, const MatrixD& Q, const MatrixD& K, const HeadParameters& head,
                     MatrixD* tanhCache)
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
        MatrixD t = pairTanh(Q, K);
        const Eigen::VectorXd flat = t * head.wAdditive.transpose(); // e_ij = w . t_ij
        MatrixD e = Eigen::Map<const MatrixD>(flat.data(), Q.rows(), K.rows());
        if (tanhCache)
            *tanhCache = std::move(t);
        return e;
    }
    }
    return MatrixD();
}

ScoreGradients scoreBackward(ScoreKind kind, const MatrixD& G, const MatrixD& Q, const MatrixD& K,
                             const HeadParameters& head, const MatrixD* tanhCache)
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
        const Eigen::Index tq = Q.rows();
        const Eigen::Index tk = K.rows();
        MatrixD own;
        if (!tanhCache || tanhCache->rows() != tq * tk)
            own = pairTanh(Q, K);
        const MatrixD& t = own.size() ? own : *tanhCache;
        // g_ij = G_ij per pair (row i * Tk + j), then d e_ij / d(q_i + k_j) = w * (1 - t^2).
        const Eigen::Map<const Eigen::VectorXd> gFlat(G.data(), tq * tk);
        g.dwAdditive = gFlat.transpose() * t; // dw_d = sum_ij G_ij t_ijd
        const MatrixD inner =
            ((1.0 - t.array().square()).rowwise() * head.wAdditive.array()).colwise() *
            gFlat.array();
        g.dQ.resize(tq, Q.cols());
        g.dK = MatrixD::Zero(tk, K.cols());
        for (Eigen::Index i = 0; i < tq; ++i) {
            const auto block = inner.middleRows(i * tk, tk);
            g.dQ.row(i) = block.colwise().sum();
            g.dK += block;
        }
        break;
    }
    }
    return g;
}

} // namespace attn::core
