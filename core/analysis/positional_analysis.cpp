#include "positional_analysis.h"

#include "core/error.h"
#include "core/scene.h"
#include "core/training/attention_layer.h"

#include <algorithm>
#include <cmath>

namespace attn::core {
namespace {

void checkRotary(const RotarySpec& spec, Eigen::Index width)
{
    if (width % 2 != 0 || std::size_t(width / 2) != spec.inverseFrequencies.size())
        throw Error("rotary: " + std::to_string(spec.inverseFrequencies.size()) +
                    " frequencies for a " + std::to_string(width) +
                    "-dimensional vector (needs d_k / 2, d_k even)");
}

} // namespace

PositionalView positionalView(const Scene& scene)
{
    const auto problem = resolveProblem(scene);
    PositionalView view;
    for (const Token& t : problem->queryTokens)
        view.tokens.push_back(t.text);
    view.embeddings = problem->queryEmbedding;
    view.positions = problem->queryPositionOrZeros();
    view.sum = problem->queryInput();
    view.similarity = positionSimilarity(view.positions);
    return view;
}

Matrix positionSimilarity(const Matrix& positions, bool cosine)
{
    const MatrixD p = positions.cast<double>();
    MatrixD s = p * p.transpose();
    if (cosine) {
        const Eigen::VectorXd norms = p.rowwise().norm();
        for (Eigen::Index i = 0; i < s.rows(); ++i)
            for (Eigen::Index j = 0; j < s.cols(); ++j)
                s(i, j) = norms(i) > 0 && norms(j) > 0 ? s(i, j) / (norms(i) * norms(j)) : 0.0;
    }
    return s.cast<float>();
}

PermutationCheck checkPermutation(const Scene& scene, const std::vector<int>& permutation)
{
    const auto problem = resolveProblem(scene);
    if (problem->cross)
        throw Error(
            "permutation: the order check permutes one sentence (self-attention); this scene has a "
            "source sentence");
    const int t = problem->queryCount();
    std::vector<int> sorted = permutation;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < int(sorted.size()); ++i)
        if (sorted[std::size_t(i)] != i || int(sorted.size()) != t)
            throw Error("permutation: expected each of 0 to " + std::to_string(t - 1) +
                        " once, for " + std::to_string(t) + " tokens");

    Problem permuted = *problem;
    std::vector<bool> padding(static_cast<std::size_t>(t));
    std::vector<Token> tokens(static_cast<std::size_t>(t));
    for (int i = 0; i < t; ++i) {
        const int from = permutation[std::size_t(i)];
        permuted.queryEmbedding.row(i) = problem->queryEmbedding.row(from);
        tokens[std::size_t(i)] = problem->queryTokens[std::size_t(from)];
        padding[std::size_t(i)] = problem->keyIsPadding[std::size_t(from)];
    }
    permuted.queryTokens = tokens;
    permuted.keyTokens = tokens;
    permuted.keyIsPadding = padding;

    const LayerParameters parameters = LayerParameters::fromWeights(*problem->weights);
    const LayerForward a = forwardLayer(parameters, LayerInputs::fromProblem(*problem));
    const LayerForward b = forwardLayer(parameters, LayerInputs::fromProblem(permuted));
    PermutationCheck check;
    check.permutation = permutation;
    for (int i = 0; i < t; ++i) {
        const int pi = permutation[std::size_t(i)];
        check.outputDeviation = std::max(
            check.outputDeviation, (b.output.row(i) - a.output.row(pi)).cwiseAbs().maxCoeff());
        for (std::size_t h = 0; h < a.heads.size(); ++h)
            for (int j = 0; j < t; ++j)
                check.weightDeviation =
                    std::max(check.weightDeviation,
                             std::abs(b.heads[h].weights(i, j) -
                                      a.heads[h].weights(pi, permutation[std::size_t(j)])));
    }
    const double size = std::max(1.0, a.output.cwiseAbs().maxCoeff());
    check.equivariant = check.outputDeviation <= 1e-9 * size && check.weightDeviation <= 1e-9;
    return check;
}

RotarySpec defaultRotary(int dK, double theta)
{
    if (dK < 2 || dK % 2 != 0)
        throw Error("d_k: rotary positions need an even d_k, got " + std::to_string(dK));
    if (!(theta > 1.0) || !std::isfinite(theta))
        throw Error("rope_theta: must be a finite number > 1");
    RotarySpec spec;
    for (int i = 0; i < dK / 2; ++i)
        spec.inverseFrequencies.push_back(float(std::pow(theta, -2.0 * double(i) / double(dK))));
    return spec;
}

RowVectorD rotateToPosition(const RowVectorD& v, const RotarySpec& spec, int position)
{
    checkRotary(spec, v.size());
    const Eigen::Index half = v.size() / 2;
    RowVectorD out(v.size());
    for (Eigen::Index i = 0; i < half; ++i) {
        // RotarySpec: q'_i = q_i cos - q_{i+d/2} sin, q'_{i+d/2} = q_{i+d/2} cos + q_i sin.
        const double angle = double(position) * double(spec.inverseFrequencies[std::size_t(i)]);
        const double c = std::cos(angle);
        const double s = std::sin(angle);
        out(i) = v(i) * c - v(i + half) * s;
        out(i + half) = v(i + half) * c + v(i) * s;
    }
    return out;
}

RotaryView rotaryView(const RowVectorD& q, const RowVectorD& k, const RotarySpec& spec,
                      int positions, int maxDistance)
{
    checkRotary(spec, q.size());
    if (k.size() != q.size())
        throw Error("rotary: q has " + std::to_string(q.size()) + " entries and k " +
                    std::to_string(k.size()));
    if (positions < 1 || maxDistance < 0)
        throw Error("rotary: positions must be >= 1 and the distance >= 0");
    const Eigen::Index half = q.size() / 2;
    RotaryView view;
    view.angles.resize(positions, half);
    view.rotated.resize(positions, q.size());
    for (int p = 0; p < positions; ++p) {
        const int position = spec.firstPosition + p;
        for (Eigen::Index i = 0; i < half; ++i)
            view.angles(p, i) =
                float(double(position) * double(spec.inverseFrequencies[std::size_t(i)]));
        view.rotated.row(p) = rotateToPosition(q, spec, position).cast<float>();
    }
    // The query at position m = maxDistance, the key at n = m - distance (both >= 0): the
    // score depends on m - n only (RoFormer, eq. 16), so any m gives the same curve.
    const int m = spec.firstPosition + maxDistance;
    const RowVectorD rq = rotateToPosition(q, spec, m);
    for (int distance = -maxDistance; distance <= maxDistance; ++distance) {
        view.distances.push_back(distance);
        view.scores.push_back(rq.dot(rotateToPosition(k, spec, m - distance)));
    }
    return view;
}

} // namespace attn::core
