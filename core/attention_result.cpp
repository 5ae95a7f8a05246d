#include "attention_result.h"

namespace attn::core {

float meanOfEnabledHeads(const AttentionResult& result, int row, int column)
{
    double sum = 0.0;
    int enabled = 0;
    for (const HeadResult& head : result.heads)
        if (head.enabled) {
            sum += double(head.weights(row, column));
            ++enabled;
        }
    return enabled > 0 ? float(sum / enabled) : 0.0f;
}

// The same sums in the same order as the one-cell form, a head at a time.
Matrix meanOfEnabledHeads(const AttentionResult& result)
{
    if (result.heads.empty())
        return {};
    const Matrix& first = result.heads.front().weights;
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> sum =
        Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>::Zero(first.rows(),
                                                                                     first.cols());
    int enabled = 0;
    for (const HeadResult& head : result.heads)
        if (head.enabled) {
            sum += head.weights.cast<double>();
            ++enabled;
        }
    if (enabled == 0)
        return Matrix::Zero(first.rows(), first.cols());
    return (sum / double(enabled)).cast<float>();
}

} // namespace attn::core
