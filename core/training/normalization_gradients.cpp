#include "normalization_gradients.h"

#include "core/normalization.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace attn::core {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// What the normalization sees: the score, the fill in a masked cell (-inf: excluded).
double seen(const double* scores, const std::uint8_t* masked, MaskFill fill, int j)
{
    if (!masked[j])
        return scores[j];
    return fill == MaskFill::NegativeInfinity ? -kInf
                                              : double(maskFillValue(MaskFill::MinusNineE15));
}

void softmaxForward(const std::vector<double>& v, double* w)
{
    const double max = *std::max_element(v.begin(), v.end());
    const int n = int(v.size());
    if (max == -kInf) { // every cell excluded: a fully masked row is all zeros
        std::fill(w, w + n, 0.0);
        return;
    }
    double sum = 0.0;
    for (int j = 0; j < n; ++j)
        sum += (w[j] = std::exp(v[std::size_t(j)] - max)); // exp(-inf) is exactly 0
    for (int j = 0; j < n; ++j)
        w[j] /= sum;
}

} // namespace

void normalizeRowD(const double* scores, const std::uint8_t* masked, int count,
                   Normalization normalization, MaskFill fill, double* weights)
{
    std::vector<double> v(static_cast<std::size_t>(count));
    for (int j = 0; j < count; ++j)
        v[std::size_t(j)] = seen(scores, masked, fill, j);
    switch (normalization) {
    case Normalization::Softmax:
        softmaxForward(v, weights);
        return;
    case Normalization::Sparsemax:
        sparsemaxRow(v.data(), count, *std::max_element(v.begin(), v.end()), weights);
        return;
    case Normalization::Relu: {
        double sum = 0.0;
        for (int j = 0; j < count; ++j)
            sum += (weights[j] = std::max(v[std::size_t(j)], 0.0));
        for (int j = 0; j < count; ++j)
            weights[j] = sum > 0.0 ? weights[j] / sum : 0.0; // no positive score: all 0
        return;
    }
    case Normalization::Hard: {
        // Seed 000: one-hot at the argmax; ties go to the lowest index.
        std::fill(weights, weights + count, 0.0);
        const auto best = std::max_element(v.begin(), v.end());
        if (*best != -kInf)
            weights[best - v.begin()] = 1.0;
        return;
    }
    case Normalization::None:
        for (int j = 0; j < count; ++j)
            weights[j] = masked[j] ? 0.0 : scores[j];
        return;
    }
}

void normalizeRowBackward(const double* scores, const std::uint8_t* masked, int count,
                          Normalization normalization, MaskFill fill, const double* w,
                          const double* dw, double* ds)
{
    switch (normalization) {
    case Normalization::Softmax: {
        double inner = 0.0;
        for (int j = 0; j < count; ++j)
            inner += dw[j] * w[j];
        for (int j = 0; j < count; ++j)
            ds[j] = w[j] * (dw[j] - inner);
        break;
    }
    case Normalization::Relu: {
        double sum = 0.0; // sum of max(s, 0) over the row, recovered from the scores
        for (int j = 0; j < count; ++j)
            sum += std::max(seen(scores, masked, fill, j), 0.0);
        double inner = 0.0;
        for (int j = 0; j < count; ++j)
            inner += dw[j] * w[j];
        for (int j = 0; j < count; ++j)
            ds[j] = sum > 0.0 && seen(scores, masked, fill, j) > 0.0 ? (dw[j] - inner) / sum : 0.0;
        break;
    }
    case Normalization::Sparsemax: {
        double support = 0.0;
        double mean = 0.0;
        for (int j = 0; j < count; ++j)
            if (w[j] > 0.0) {
                support += 1.0;
                mean += dw[j];
            }
        mean = support > 0.0 ? mean / support : 0.0;
        for (int j = 0; j < count; ++j)
            ds[j] = w[j] > 0.0 ? dw[j] - mean : 0.0;
        break;
    }
    case Normalization::Hard:
        std::fill(ds, ds + count, 0.0);
        break;
    case Normalization::None:
        for (int j = 0; j < count; ++j)
            ds[j] = dw[j];
        break;
    }
    // A masked cell holds the fill, a constant: nothing flows back into its score.
    for (int j = 0; j < count; ++j)
        if (masked[j])
            ds[j] = 0.0;
}

MatrixD normalizationJacobian(const double* scores, const std::uint8_t* masked, int count,
                              Normalization normalization, MaskFill fill, const double* weights)
{
    // Row j of J is the backward of the unit vector e_j.
    MatrixD J(count, count);
    std::vector<double> unit(std::size_t(count), 0.0);
    for (int j = 0; j < count; ++j) {
        unit[std::size_t(j)] = 1.0;
        normalizeRowBackward(scores, masked, count, normalization, fill, weights, unit.data(),
                             J.row(j).data());
        unit[std::size_t(j)] = 0.0;
    }
    return J;
}

} // namespace attn::core
