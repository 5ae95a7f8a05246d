#include "projection_algebra.h"

#include "core/attention_result.h"
#include "core/error.h"

#include <Eigen/QR>

#include <algorithm>
#include <string>

namespace attn::core {
namespace {

void checkHead(const AttentionResult& result, int head)
{
    if (result.heads.empty() || !result.problem)
        throw Error("projections view: there is no result to show yet");
    if (head < 0 || head >= int(result.heads.size()))
        throw Error("head: " + std::to_string(head + 1) + " is not a head (1 to " +
                    std::to_string(result.heads.size()) + ")");
}

const Matrix& weightOf(const HeadWeights& w, Projection which)
{
    return which == Projection::Query ? w.Wq : which == Projection::Key ? w.Wk : w.Wv;
}

const RowVector& biasOf(const HeadWeights& w, Projection which)
{
    return which == Projection::Query ? w.bq : which == Projection::Key ? w.bk : w.bv;
}

const Matrix& computedOf(const HeadResult& h, Projection which)
{
    return which == Projection::Query ? h.Q : which == Projection::Key ? h.K : h.V;
}

MatrixD inputOf(const AttentionResult& result, Projection which)
{
    return (which == Projection::Query ? result.problem->queryInput() : result.problem->keyInput())
        .cast<double>();
}

double largestDifference(const MatrixD& a, const MatrixD& b)
{
    return a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
}

int rankOf(const MatrixD& m)
{
    // Relative to the largest entry, so that float weights' rounding is not a dimension.
    Eigen::ColPivHouseholderQR<MatrixD> qr(m);
    qr.setThreshold(1e-9);
    return m.size() == 0 ? 0 : int(qr.rank());
}

} // namespace

OneProjection oneProjection(const AttentionResult& result, Projection which)
{
    checkHead(result, 0);
    const ModelWeights& w = *result.problem->weights;
    OneProjection out;
    out.which = which;
    out.input = inputOf(result, which);
    out.width = which == Projection::Value ? w.dV : w.dK;
    const int h = w.headCount();
    out.weights.resize(w.dModel, Eigen::Index(h) * out.width);
    for (int i = 0; i < h; ++i)
        out.weights.middleCols(Eigen::Index(i) * out.width, out.width) =
            weightOf(w.heads[std::size_t(i)], which).cast<double>();
    out.product = out.input * out.weights;
    for (int i = 0; i < h; ++i) {
        out.separate.push_back(out.input * weightOf(w.heads[std::size_t(i)], which).cast<double>());
        out.largestDifference = std::max(
            out.largestDifference,
            largestDifference(out.product.middleCols(Eigen::Index(i) * out.width, out.width),
                              out.separate.back()));
    }
    return out;
}

HeadCircuits headCircuits(const AttentionResult& result, int head)
{
    checkHead(result, head);
    const Problem& problem = *result.problem;
    const ModelWeights& w = *problem.weights;
    const HeadWeights& hw = w.heads[std::size_t(head)];
    const MatrixD wo = w.Wo.cast<double>();
    const auto woOf = [&](int i) { return wo.middleRows(Eigen::Index(i) * w.dV, w.dV); };

    HeadCircuits out;
    out.head = head;
    out.qk = hw.Wq.cast<double>() * hw.Wk.cast<double>().transpose();
    out.ov = hw.Wv.cast<double>() * woOf(head);
    out.qkRank = rankOf(out.qk);
    out.ovRank = rankOf(out.ov);

    const MatrixD xq = problem.queryInput().cast<double>();
    const MatrixD xkv = problem.keyInput().cast<double>();
    MatrixD rebuilt = MatrixD::Zero(problem.queryCount(), w.dModel);
    for (int i = 0; i < w.headCount(); ++i) {
        const HeadWeights& other = w.heads[std::size_t(i)];
        if (!other.enabled) // zeros in the concatenation
            continue;
        const MatrixD a = result.heads[std::size_t(i)].weights.cast<double>();
        const MatrixD values = xkv * (other.Wv.cast<double>() * woOf(i));
        rebuilt += a * values;
        if (other.bv.size()) // A 1 b^V W^O: each row's weight sum times b^V W^O
            rebuilt += a.rowwise().sum() * (other.bv.cast<double>() * woOf(i));
    }
    if (w.bo.size())
        rebuilt.rowwise() += w.bo.cast<double>();
    out.outputDifference = largestDifference(rebuilt, result.output.cast<double>());

    const bool dot = problem.score == ScoreKind::Dot || problem.score == ScoreKind::ScaledDot;
    if (dot && !problem.rotary.enabled() && hw.bq.size() == 0 && hw.bk.size() == 0 &&
        result.intermediatesKept)
        out.scoreDifference =
            largestDifference(xq * out.qk * xkv.transpose(),
                              result.heads[std::size_t(head)].rawScores.cast<double>());
    return out;
}

AbsorbedBias absorbedBias(const AttentionResult& result, int head, Projection which)
{
    checkHead(result, head);
    const ModelWeights& w = *result.problem->weights;
    const HeadWeights& hw = w.heads[std::size_t(head)];
    const Matrix& weights = weightOf(hw, which);
    const RowVector& bias = biasOf(hw, which);
    const MatrixD x = inputOf(result, which);

    AbsorbedBias out;
    out.head = head;
    out.which = which;
    out.hasBias = bias.size() != 0;
    out.augmentedInput.resize(x.rows(), x.cols() + 1);
    out.augmentedInput << x, MatrixD::Ones(x.rows(), 1);
    out.augmentedWeights.resize(weights.rows() + 1, weights.cols());
    out.augmentedWeights.topRows(weights.rows()) = weights.cast<double>();
    out.augmentedWeights.bottomRows(1) =
        out.hasBias ? RowVectorD(bias.cast<double>()) : RowVectorD::Zero(weights.cols());
    out.product = out.augmentedInput * out.augmentedWeights;
    out.largestDifference = largestDifference(
        out.product, computedOf(result.heads[std::size_t(head)], which).cast<double>());
    return out;
}

} // namespace attn::core
