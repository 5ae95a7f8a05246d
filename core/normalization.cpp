#include "normalization.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace attn::core {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

using RowMap = Eigen::Map<Eigen::ArrayXf>;

// Softmax over the counted cells; excluded cells were set to -inf by the caller, and
// exp(-inf - max) is exactly 0.
void softmax(RowMap row, float max)
{
    row = (row - max).exp();
    row *= 1.0f / row.sum(); // one division per row, not one per cell
}

void relu(RowMap row, RowStatus& status)
{
    row = row.max(0.0f);
    const double sum = row.cast<double>().sum();
    if (sum == 0.0) {
        status.zeroSum = true;
        row.setZero();
        return;
    }
    row = (row.cast<double>() / sum).cast<float>();
}

// In double whatever the type of the cells: the float and the double rows agree.
template <typename T> void sparsemax(const T* scores, int count, T max, T* weights)
{
    constexpr T minusInf = -std::numeric_limits<T>::infinity();
    if (max == minusInf) {
        std::fill(weights, weights + count, T(0));
        return;
    }
    std::vector<double> sorted;
    sorted.reserve(std::size_t(count));
    for (int j = 0; j < count; ++j)
        if (scores[j] != minusInf)
            sorted.push_back(double(scores[j]) - double(max));
    std::sort(sorted.begin(), sorted.end(), std::greater<double>());
    double cumulative = 0.0;
    double tau = 0.0;
    for (std::size_t k = 0; k < sorted.size(); ++k) {
        cumulative += sorted[k];
        if (1.0 + double(k + 1) * sorted[k] > cumulative)
            tau = (cumulative - 1.0) / double(k + 1);
        else
            break; // the condition holds for a prefix of k only
    }
    for (int j = 0; j < count; ++j)
        weights[j] =
            scores[j] == minusInf ? T(0) : T(std::max(double(scores[j]) - double(max) - tau, 0.0));
}

} // namespace

RowStatus normalizeRow(float* scores, const std::uint8_t* masked, int count,
                       Normalization normalization, MaskFill fill)
{
    RowStatus status;
    RowMap row(scores, count);
    // Counted first (a vectorised loop): most rows have no masked cell inside their range.
    int maskedCount = 0;
    for (int j = 0; j < count; ++j)
        maskedCount += masked[j] != 0;
    if (maskedCount > 0) {
        const float fillValue = maskFillValue(fill);
        for (int j = 0; j < count; ++j)
            if (masked[j])
                scores[j] = fillValue;
    }
    status.fullyMasked = maskedCount == count;
    if (normalization == Normalization::None) {
        // No normalization (seed 004's (X X^T) V): the scaled scores are the weights as they
        // are, non-finite values included, and a masked cell weighs 0 under either fill (the
        // fill only means something to a normalization that compares cells).
        for (int j = 0; j < count; ++j) {
            if (masked[j])
                scores[j] = 0.0f;
            else if (!std::isfinite(scores[j]))
                status.nonFinite = true;
        }
        return status;
    }
    const bool excluding = fill == MaskFill::NegativeInfinity;
    if (excluding && status.fullyMasked) {
        row.setZero();
        return status;
    }

    // Fast path: every cell counts and is finite (x * 0 is NaN exactly when x is NaN or
    // infinite), so the scalar scan below has nothing to find.
    float max = -kInf;
    int plusInfinities = 0;
    int finiteOrMinusInf = 0;
    if ((maskedCount == 0 || !excluding) && !std::isnan((row * 0.0f).sum())) {
        max = row.maxCoeff();
    } else {
        // Scan the counted cells: NaN anywhere makes every counted cell NaN (excluded cells
        // still weigh 0); +inf cells share the row.
        for (int j = 0; j < count; ++j) {
            if (excluding && masked[j])
                continue;
            const float value = scores[j];
            if (std::isnan(value)) {
                status.nonFinite = true;
                for (int k = 0; k < count; ++k)
                    scores[k] =
                        excluding && masked[k] ? 0.0f : std::numeric_limits<float>::quiet_NaN();
                return status;
            }
            if (value == kInf)
                ++plusInfinities;
            else if (value == -kInf)
                status.nonFinite = true;
            ++finiteOrMinusInf;
            max = std::max(max, value);
        }
    }
    if (plusInfinities > 0 || max == -kInf) {
        // The limit of every normalisation here: the largest cells share the row equally.
        status.nonFinite = true;
        const int winners = plusInfinities > 0 ? plusInfinities : finiteOrMinusInf;
        for (int j = 0; j < count; ++j) {
            const bool counted = !(excluding && masked[j]);
            const bool winner = counted && (plusInfinities > 0 ? scores[j] == kInf : true);
            scores[j] = winner ? 1.0f / float(winners) : 0.0f;
        }
        if (normalization == Normalization::Hard) {
            // ...except hard attention, which keeps the first of them.
            const int first =
                int(std::find_if(scores, scores + count, [](float v) { return v > 0; }) - scores);
            row.setZero();
            scores[first] = 1.0f;
        }
        return status;
    }

    switch (normalization) {
    case Normalization::Softmax:
        softmax(row, max);
        // Eigen's vectorised exp clamps its argument near -88.7, so a -9e15 cell came out as
        // 3e-39 (the GPU gives 0): beside a real score it weighs exactly 0.
        if (!excluding && maskedCount > 0 && !status.fullyMasked)
            for (int j = 0; j < count; ++j)
                if (masked[j])
                    scores[j] = 0.0f;
        break;
    case Normalization::Hard: {
        // Seed 000: p_i = 1 at the argmax of the softmax, which is the argmax of the scores;
        // ties go to the lowest index.
        int best = -1;
        for (int j = 0; j < count; ++j)
            if (scores[j] == max && !(excluding && masked[j])) {
                best = j;
                break;
            }
        row.setZero();
        scores[best] = 1.0f;
        break;
    }
    case Normalization::Relu:
        relu(row, status);
        break;
    case Normalization::Sparsemax:
        sparsemax(scores, count, max, scores);
        break;
    case Normalization::None: // handled above
        break;
    }
    return status;
}

void sparsemaxRow(const float* scores, int count, float max, float* weights)
{
    sparsemax(scores, count, max, weights);
}

void sparsemaxRow(const double* scores, int count, double max, double* weights)
{
    sparsemax(scores, count, max, weights);
}

} // namespace attn::core
