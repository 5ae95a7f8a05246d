#include "softmax_sensitivity.h"

#include "core/attention_result.h"
#include "core/error.h"
#include "core/training/normalization_gradients.h"

#include <cmath>

namespace attn::core {
namespace {

void checkRequest(const AttentionResult& result, int head, int query)
{
    if (result.pooling.pooled)
        throw Error(
            "gradient view: the weights were pooled for a long input; compute without pooling");
    if (!result.intermediatesKept)
        throw Error("gradient view: the result has no scores; compute with the intermediates kept");
    if (head < 0 || head >= int(result.heads.size()))
        throw Error("head: " + std::to_string(head + 1) + " is not a head (1 to " +
                    std::to_string(result.heads.size()) + ")");
    const int tq = result.problem->queryCount();
    if (query < 0 || query >= tq)
        throw Error("query: " + std::to_string(query) + " is not a query row (0 to " +
                    std::to_string(tq - 1) + ")");
}

// One query of one head, from its raw scores times `scale`.
SoftmaxSensitivity sensitivity(const AttentionResult& result, int head, int query, double scale,
                               int bins)
{
    const Problem& problem = *result.problem;
    const HeadResult& h = result.heads[std::size_t(head)];
    const int tq = problem.queryCount();
    const int tk = problem.keyCount();
    const Mask mask = problem.makeMask();
    SoftmaxSensitivity out;
    out.head = head;
    out.query = query;
    out.normalization = problem.normalization;
    out.scale = scale;

    std::vector<std::uint8_t> masked(static_cast<std::size_t>(tk));
    std::vector<double> all;
    all.reserve(std::size_t(tq) * std::size_t(tk));
    for (int i = 0; i < tq; ++i) {
        mask.fillRow(i, masked.data());
        for (int j = 0; j < tk; ++j)
            if (!masked[std::size_t(j)])
                all.push_back(double(h.rawScores(i, j)) * scale);
    }
    out.histogram = makeHistogram(all, bins);

    mask.fillRow(query, masked.data());
    out.scores.resize(std::size_t(tk));
    out.masked.resize(std::size_t(tk));
    for (int j = 0; j < tk; ++j) {
        out.scores[std::size_t(j)] = double(h.rawScores(query, j)) * scale;
        out.masked[std::size_t(j)] = masked[std::size_t(j)] != 0;
    }
    out.weights.resize(std::size_t(tk));
    normalizeRowD(out.scores.data(), masked.data(), tk, problem.normalization, problem.fill,
                  out.weights.data());
    const MatrixD J =
        normalizationJacobian(out.scores.data(), masked.data(), tk, problem.normalization,
                              problem.fill, out.weights.data());
    const MatrixD outputJ = h.V.cast<double>().transpose() * J; // d o / ds = V^T J
    out.jacobian = J.cast<float>();
    out.outputJacobian = outputJ.cast<float>();
    out.jacobianNorm = J.norm();
    out.outputJacobianNorm = outputJ.norm();
    for (double w : out.weights) {
        out.maxWeight = std::max(out.maxWeight, w);
        if (w > 0.0)
            out.entropy -= w * std::log(w);
    }
    return out;
}

} // namespace

SoftmaxSensitivity softmaxSensitivity(const AttentionResult& result, int head, int query, int bins)
{
    checkRequest(result, head, query);
    return sensitivity(result, head, query, double(result.problem->scoreScale()), bins);
}

ScalingComparison compareScaling(const AttentionResult& result, int head, int query, int bins)
{
    checkRequest(result, head, query);
    const Problem& problem = *result.problem;
    const double temperature = double(problem.temperature);
    const double dk = double(problem.weights->dK);
    return {sensitivity(result, head, query, 1.0 / temperature, bins),
            sensitivity(result, head, query, 1.0 / (std::sqrt(dk) * temperature), bins)};
}

} // namespace attn::core
