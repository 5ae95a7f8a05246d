#include "kernel_smoother.h"

#include "core/analysis/pca.h"
#include "core/attention_result.h"
#include "core/error.h"
#include "core/training/normalization_gradients.h"

#include <cmath>

namespace attn::core {
namespace {

void checkKeys(const std::vector<double>& keys, const std::vector<double>* values)
{
    if (keys.empty())
        throw Error("keys: the smoother needs at least one key");
    if (values && values->size() != keys.size())
        throw Error("values: " + std::to_string(values->size()) + " values for " +
                    std::to_string(keys.size()) + " keys");
}

} // namespace

void KernelSmootherSettings::validate() const
{
    if (!(bandwidth > 0.0) || !std::isfinite(bandwidth))
        throw Error("bandwidth: must be a positive finite number");
}

std::vector<double> smootherScores(const std::vector<double>& keys, double query,
                                   const KernelSmootherSettings& settings)
{
    settings.validate();
    checkKeys(keys, nullptr);
    std::vector<double> s;
    s.reserve(keys.size());
    const double h = settings.bandwidth;
    for (double k : keys)
        s.push_back(settings.score == SmootherScore::Distance
                        ? 1.0 - (query - k) * (query - k) / (2.0 * h * h)
                        : query * k / h);
    return s;
}

std::vector<double> smootherWeights(const std::vector<double>& keys, double query,
                                    const KernelSmootherSettings& settings)
{
    const std::vector<double> s = smootherScores(keys, query, settings);
    const std::vector<std::uint8_t> masked(s.size(), 0);
    std::vector<double> w(s.size());
    normalizeRowD(s.data(), masked.data(), int(s.size()), settings.normalization,
                  MaskFill::NegativeInfinity, w.data());
    return w;
}

double smootherEstimate(const std::vector<double>& keys, const std::vector<double>& values,
                        double query, const KernelSmootherSettings& settings)
{
    checkKeys(keys, &values);
    const std::vector<double> w = smootherWeights(keys, query, settings);
    double f = 0.0;
    for (std::size_t j = 0; j < w.size(); ++j)
        f += w[j] * values[j];
    return f;
}

SmootherCurve sweepSmoother(const std::vector<double>& keys, const std::vector<double>& values,
                            double from, double to, int samples,
                            const KernelSmootherSettings& settings)
{
    checkKeys(keys, &values);
    if (samples < 2)
        throw Error("samples: must be at least 2");
    if (!(from < to) || !std::isfinite(from) || !std::isfinite(to))
        throw Error("range: expected from < to, both finite");
    SmootherCurve curve;
    curve.weights.resize(samples, Eigen::Index(keys.size()));
    for (int n = 0; n < samples; ++n) {
        const double q = from + (to - from) * double(n) / double(samples - 1);
        const std::vector<double> w = smootherWeights(keys, q, settings);
        double f = 0.0;
        for (std::size_t j = 0; j < w.size(); ++j) {
            f += w[j] * values[j];
            curve.weights(n, Eigen::Index(j)) = float(w[j]);
        }
        curve.queries.push_back(q);
        curve.estimates.push_back(f);
    }
    return curve;
}

QueryKeyMap projectQueriesAndKeys(const AttentionResult& result, int head)
{
    if (head < 0 || head >= int(result.heads.size()))
        throw Error("head: " + std::to_string(head + 1) + " is not a head (1 to " +
                    std::to_string(result.heads.size()) + ")");
    if (result.pooling.pooled)
        throw Error(
            "kernel view: the weights were pooled for a long input; compute without pooling");
    const HeadResult& h = result.heads[std::size_t(head)];
    const Matrix& q = h.rotatedQ.size() ? h.rotatedQ : h.Q;
    const Matrix& k = h.rotatedK.size() ? h.rotatedK : h.K;
    MatrixD both(q.rows() + k.rows(), q.cols());
    both.topRows(q.rows()) = q.cast<double>();
    both.bottomRows(k.rows()) = k.cast<double>();
    const PcaResult pca = principalComponents(both, 2);
    MatrixD plane = MatrixD::Zero(both.rows(), 2); // d_k = 1 leaves the second axis at 0
    plane.leftCols(pca.projected.cols()) = pca.projected;
    QueryKeyMap map;
    map.queries = plane.topRows(q.rows()).cast<float>();
    map.keys = plane.bottomRows(k.rows()).cast<float>();
    map.weights = h.weights;
    map.explained = pca.explained;
    map.explained.resize(2, 0.0);
    for (const Token& t : result.problem->queryTokens)
        map.queryTokens.push_back(t.text);
    for (const Token& t : result.problem->keyTokens)
        map.keyTokens.push_back(t.text);
    return map;
}

} // namespace attn::core
