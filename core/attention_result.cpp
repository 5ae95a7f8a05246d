#include "attention_result.h"

namespace attn::core {

const Matrix& AttentionResult::queryInput() const
{
    if (storedQueryInput.size() != 0 || !problem || problem->hasPositions())
        return storedQueryInput;
    return problem->queryEmbedding;
}

Matrix AttentionResult::concat() const
{
    if (heads.empty())
        return {};
    const Eigen::Index rows = heads.front().output.rows();
    const Eigen::Index dv = heads.front().output.cols();
    Matrix cat = Matrix::Zero(rows, Eigen::Index(heads.size()) * dv);
    for (std::size_t h = 0; h < heads.size(); ++h)
        if (heads[h].enabled) // a disabled head's own output is still shown; it adds nothing here
            cat.middleCols(Eigen::Index(h) * dv, dv) = heads[h].output;
    return cat;
}

const Matrix& AttentionResult::keyInput() const
{
    if (storedKeyInput.size() != 0 || !problem || problem->cross)
        return storedKeyInput;
    return queryInput();
}

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
