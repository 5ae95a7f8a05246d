#pragma once

#include "core/training/layer_parameters.h"

#include <array>
#include <vector>

namespace attn::core {

// Seed 004: "in kernel machines we adjust the kernel and fix the embedding of query and keys;
// in attention we fix the kernel and learn the embedding". Both on one 1-D regression: the
// points (x_j, y_j) are the keys and values, and each point's target is predicted from the
// others (leave one out, as in Zhang et al., Dive into Deep Learning, the Nadaraya-Watson
// section), so that no width wins by copying the point itself.
//   fixed kernel     w_ij = softmax_j(−(x_i − x_j)² / 2h²), h tuned
//   learned maps     w_ij = softmax_j(−(φ_q(x_i) − φ_k(x_j))² / 2),
//                    φ_q(x) = w_q · (x, x²), φ_k(x) = w_k · (x, x²), learned
// The kernel of the second is fixed (a Gaussian of width 1); w_q = w_k = (1/h, 0) is the first.
struct RegressionData
{
    std::vector<double> x;
    std::vector<double> y;

    // 40 points x_i = 3 i / 39 of the chirp sin(x²), whose wiggles get faster to the right,
    // plus the fixed noise 0.25 sin(1.7 i²): one width cannot suit both ends.
    static RegressionData chirp();
    static double chirpCurve(double x); // sin(x²), the curve without the noise
};

struct KernelMaps
{
    std::array<double, 2> query{1.0, 0.0}; // w_q: φ_q(x) = w_q[0] x + w_q[1] x²
    std::array<double, 2> key{1.0, 0.0};   // w_k

    static KernelMaps fixedKernel(double bandwidth); // w_q = w_k = (1/h, 0)
    double mapQuery(double x) const;
    double mapKey(double x) const;
    // The kernel's width in x around a key at x: 1 / |φ_k'(x)| (h for the fixed kernel).
    double effectiveWidth(double x) const;
};

// w_ij for queries at `queries` over the data's keys (rows: queries). With `leaveOneOut`,
// the queries are the data's own x and each row's own key gets weight 0.
MatrixD kernelWeights(const RegressionData& data, const std::vector<double>& queries,
                      const KernelMaps& maps, bool leaveOneOut);
// f(q) = Σ_j w_j(q) y_j over all the data's keys.
std::vector<double> kernelPredictions(const RegressionData& data,
                                      const std::vector<double>& queries, const KernelMaps& maps);

// The leave-one-out mean squared error (1/n) Σ_i (f_{−i}(x_i) − y_i)² and its gradient with
// respect to (w_q[0], w_q[1], w_k[0], w_k[1]), by the chain rule through the softmax.
struct KernelLoss
{
    double loss = 0.0;
    std::array<double, 4> gradient{0.0, 0.0, 0.0, 0.0};
};
KernelLoss leaveOneOutLoss(const RegressionData& data, const KernelMaps& maps);

// The fixed kernel's best width on `samples` log-spaced h in [from, to] (both included).
struct BestBandwidth
{
    double bandwidth = 0.0;
    double loss = 0.0;
};
inline constexpr int kBandwidthSamples = 401;
BestBandwidth bestBandwidth(const RegressionData& data, double from = 0.02, double to = 2.0,
                            int samples = kBandwidthSamples);

// Adam (Kingma & Ba 2015) on the leave-one-out loss from `start` for `steps` steps; `losses`
// holds the loss before each step and after the last (steps + 1 values).
struct LearnedKernel
{
    KernelMaps maps;
    std::vector<double> losses;
};
inline constexpr int kLearnedKernelSteps = 300;
inline constexpr double kLearnedKernelRate = 0.1;
LearnedKernel learnKernelMaps(const RegressionData& data, const KernelMaps& start = KernelMaps{},
                              int steps = kLearnedKernelSteps,
                              double learningRate = kLearnedKernelRate);

} // namespace attn::core
