#include "learned_kernel.h"

#include "core/error.h"
#include "core/training/adam.h"

#include <cmath>
#include <limits>
#include <string>

namespace attn::core {
namespace {

void checkData(const RegressionData& data)
{
    if (data.x.size() < 2)
        throw Error("data: leaving one point out needs at least two points");
    if (data.y.size() != data.x.size())
        throw Error("data: " + std::to_string(data.y.size()) + " targets for " +
                    std::to_string(data.x.size()) + " points");
}

// Softmax of s_j = −(q − k_j)² / 2 over the keys, `skip` (if any) weight 0.
void weightsOf(double q, const std::vector<double>& keys, std::ptrdiff_t skip, double* w)
{
    double top = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < keys.size(); ++j)
        if (std::ptrdiff_t(j) != skip)
            top = std::max(top, -0.5 * (q - keys[j]) * (q - keys[j]));
    double sum = 0.0;
    for (std::size_t j = 0; j < keys.size(); ++j) {
        w[j] =
            std::ptrdiff_t(j) == skip ? 0.0 : std::exp(-0.5 * (q - keys[j]) * (q - keys[j]) - top);
        sum += w[j];
    }
    for (std::size_t j = 0; j < keys.size(); ++j)
        w[j] /= sum;
}

std::vector<double> mappedKeys(const RegressionData& data, const KernelMaps& maps)
{
    std::vector<double> keys;
    keys.reserve(data.x.size());
    for (double x : data.x)
        keys.push_back(maps.mapKey(x));
    return keys;
}

} // namespace

RegressionData RegressionData::chirp()
{
    constexpr int n = 40;
    RegressionData data;
    for (int i = 0; i < n; ++i) {
        const double x = 3.0 * i / (n - 1);
        data.x.push_back(x);
        data.y.push_back(chirpCurve(x) + 0.25 * std::sin(1.7 * i * i));
    }
    return data;
}

double RegressionData::chirpCurve(double x)
{
    return std::sin(x * x);
}

KernelMaps KernelMaps::fixedKernel(double bandwidth)
{
    if (!(bandwidth > 0.0) || !std::isfinite(bandwidth))
        throw Error("bandwidth: must be a positive finite number");
    KernelMaps maps;
    maps.query = {1.0 / bandwidth, 0.0};
    maps.key = maps.query;
    return maps;
}

double KernelMaps::mapQuery(double x) const
{
    return query[0] * x + query[1] * x * x;
}

double KernelMaps::mapKey(double x) const
{
    return key[0] * x + key[1] * x * x;
}

double KernelMaps::effectiveWidth(double x) const
{
    return 1.0 / std::abs(key[0] + 2.0 * key[1] * x);
}

MatrixD kernelWeights(const RegressionData& data, const std::vector<double>& queries,
                      const KernelMaps& maps, bool leaveOneOut)
{
    checkData(data);
    if (leaveOneOut && queries.size() != data.x.size())
        throw Error("queries: leaving one out takes the data's own points as the queries");
    const std::vector<double> keys = mappedKeys(data, maps);
    MatrixD w(Eigen::Index(queries.size()), Eigen::Index(keys.size()));
    std::vector<double> row(keys.size());
    for (std::size_t i = 0; i < queries.size(); ++i) {
        weightsOf(maps.mapQuery(queries[i]), keys, leaveOneOut ? std::ptrdiff_t(i) : -1,
                  row.data());
        for (std::size_t j = 0; j < keys.size(); ++j)
            w(Eigen::Index(i), Eigen::Index(j)) = row[j];
    }
    return w;
}

std::vector<double> kernelPredictions(const RegressionData& data,
                                      const std::vector<double>& queries, const KernelMaps& maps)
{
    const MatrixD w = kernelWeights(data, queries, maps, false);
    const Eigen::VectorXd f = w * Eigen::Map<const Eigen::VectorXd>(data.y.data(), w.cols());
    return {f.data(), f.data() + f.size()};
}

KernelLoss leaveOneOutLoss(const RegressionData& data, const KernelMaps& maps)
{
    checkData(data);
    const std::size_t n = data.x.size();
    const std::vector<double> keys = mappedKeys(data, maps);
    std::vector<double> w(n);
    KernelLoss out;
    for (std::size_t i = 0; i < n; ++i) {
        const double xi = data.x[i];
        const double q = maps.mapQuery(xi);
        weightsOf(q, keys, std::ptrdiff_t(i), w.data());
        double f = 0.0;
        for (std::size_t j = 0; j < n; ++j)
            f += w[j] * data.y[j];
        const double r = f - data.y[i];
        out.loss += r * r / double(n);
        // dL/ds_ij = (2/n) r_i w_ij (y_j − f_i), the softmax's Jacobian applied to y;
        // ds_ij/dq_i = −(q_i − k_j) and ds_ij/dk_j = q_i − k_j.
        for (std::size_t j = 0; j < n; ++j) {
            const double xj = data.x[j];
            const double ds = 2.0 / double(n) * r * w[j] * (data.y[j] - f);
            const double d = q - keys[j];
            out.gradient[0] -= ds * d * xi;
            out.gradient[1] -= ds * d * xi * xi;
            out.gradient[2] += ds * d * xj;
            out.gradient[3] += ds * d * xj * xj;
        }
    }
    return out;
}

BestBandwidth bestBandwidth(const RegressionData& data, double from, double to, int samples)
{
    if (!(from > 0.0) || !(from < to) || !std::isfinite(to) || samples < 2)
        throw Error("bandwidth range: expected 0 < from < to and at least two samples");
    BestBandwidth best{from, std::numeric_limits<double>::infinity()};
    for (int t = 0; t < samples; ++t) {
        const double h = from * std::pow(to / from, double(t) / double(samples - 1));
        const double loss = leaveOneOutLoss(data, KernelMaps::fixedKernel(h)).loss;
        if (loss < best.loss)
            best = {h, loss};
    }
    return best;
}

LearnedKernel learnKernelMaps(const RegressionData& data, const KernelMaps& start, int steps,
                              double learningRate)
{
    if (steps < 0)
        throw Error("steps: must be at least 0");
    AdamSettings settings;
    settings.learningRate = learningRate;
    settings.validate();
    LearnedKernel out;
    Eigen::ArrayXd theta(4);
    theta << start.query[0], start.query[1], start.key[0], start.key[1];
    Eigen::ArrayXd m = Eigen::ArrayXd::Zero(4);
    Eigen::ArrayXd v = Eigen::ArrayXd::Zero(4);
    const auto maps = [&] {
        KernelMaps k;
        k.query = {theta(0), theta(1)};
        k.key = {theta(2), theta(3)};
        return k;
    };
    for (int t = 1; t <= steps; ++t) {
        const KernelLoss l = leaveOneOutLoss(data, maps());
        out.losses.push_back(l.loss);
        adamUpdate(settings, t, Eigen::Map<Eigen::ArrayXd>(theta.data(), 4),
                   Eigen::Map<const Eigen::ArrayXd>(l.gradient.data(), 4),
                   Eigen::Map<Eigen::ArrayXd>(m.data(), 4),
                   Eigen::Map<Eigen::ArrayXd>(v.data(), 4));
    }
    out.maps = maps();
    out.losses.push_back(leaveOneOutLoss(data, out.maps).loss);
    return out;
}

} // namespace attn::core
