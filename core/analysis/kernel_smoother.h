#pragma once

#include "core/attention_settings.h"
#include "core/matrix.h"

#include <QString>
#include <vector>

namespace attn::core {

struct AttentionResult;

// Seed 004's kernel-machine view of attention in one dimension: keys k_j are points on an
// axis, values v_j their targets, and a query q gets
//     f(q) = sum_j w_j(q) v_j,    w(q) = normalize(s(q))
// With softmax and the distance score this is the Nadaraya-Watson estimate with a Gaussian
// kernel whose bandwidth h is the temperature: softmax(-(q - k)^2 / 2 / T) with T = h^2.
enum class SmootherScore {
    // s_j = 1 - (q - k_j)^2 / (2 h^2). Softmax: Gaussian kernel, bandwidth h (the 1 cancels).
    // ReLU: Epanechnikov kernel max(0, 1 - (q - k)^2 / (2 h^2)), support |q - k| < h sqrt 2.
    // Sparsemax: a truncated quadratic whose support adapts to the keys.
    // Hard: the nearest key (nearest neighbour; ties to the lower index).
    Distance,
    // s_j = q k_j / h: what the dot product does on a line. Not local: for q > 0 the weight
    // runs to the largest key, for q < 0 to the smallest.
    Dot,
};

struct KernelSmootherSettings
{
    Normalization normalization = Normalization::Softmax;
    SmootherScore score = SmootherScore::Distance;
    double bandwidth = 1.0; // h > 0

    void validate() const; // throws Error naming the field
};

// s(q), w(q) and f(q) for one query. Keys and values must have the same, non-zero size.
// A row whose weights are all 0 (ReLU with every key out of reach) estimates 0.
std::vector<double> smootherScores(const std::vector<double>& keys, double query,
                                   const KernelSmootherSettings& settings);
std::vector<double> smootherWeights(const std::vector<double>& keys, double query,
                                    const KernelSmootherSettings& settings);
double smootherEstimate(const std::vector<double>& keys, const std::vector<double>& values,
                        double query, const KernelSmootherSettings& settings);

// f swept over [from, to] at `samples` evenly spaced queries (from and to included): the
// curve beside the draggable points.
struct SmootherCurve
{
    std::vector<double> queries;
    std::vector<double> estimates;
    Matrix weights; // samples x keys
};
SmootherCurve sweepSmoother(const std::vector<double>& keys, const std::vector<double>& values,
                            double from, double to, int samples,
                            const KernelSmootherSettings& settings);

// The 2-D variant: one head's queries and keys (rotated, where the problem has rotary
// positions) on the first two principal components of their rows taken together, with the
// head's weights to draw each query's pull towards the keys.
struct QueryKeyMap
{
    Matrix queries;                // Tq x 2
    Matrix keys;                   // Tk x 2
    Matrix weights;                // Tq x Tk, the head's
    std::vector<double> explained; // the two components' share of the variance
    std::vector<QString> queryTokens;
    std::vector<QString> keyTokens;
};
// Throws Error for a pooled result or a head out of range.
QueryKeyMap projectQueriesAndKeys(const AttentionResult& result, int head);

} // namespace attn::core
