#include "diagnostics.h"

#include "error.h"
#include "limits.h"
#include "pooling.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attn::core {

bool allFinite(const Eigen::Ref<const Matrix>& m)
{
    // x * 0 is NaN exactly when x is NaN or infinite, and the vectorised sum keeps it.
    return !std::isnan((m.array() * 0.0f).sum());
}

std::uint32_t rowFlags(const RowStatus& status)
{
    return (status.fullyMasked ? kRowFullyMasked : 0) | (status.zeroSum ? kRowZeroSum : 0) |
           (status.nonFinite ? kRowNonFinite : 0);
}

ComputeOptions checkMemory(const Problem& problem, ComputeOptions options, Diagnostics& diagnostics)
{
    const std::int64_t heads = problem.weights->headCount();
    const std::int64_t cells = std::int64_t(problem.queryCount()) * problem.keyCount();
    const auto [rowBlock, colBlock] =
        poolBlocks(problem.queryCount(), problem.keyCount(), options.viewRows, options.viewCols);
    const std::int64_t weightCells = heads * cells / (std::int64_t(rowBlock) * colBlock);
    if (weightCells > kMaxResultCells)
        throw Error("the weights of " + std::to_string(heads) + " heads at " +
                    std::to_string(problem.queryCount()) + "x" +
                    std::to_string(problem.keyCount()) + " tokens need " +
                    std::to_string(weightCells * 4 >> 20) +
                    " MiB; pool them to the view's resolution or use fewer tokens");
    if (options.keepIntermediates && 3 * heads * cells > kMaxResultCells) {
        options.keepIntermediates = false;
        diagnostics.warnings.push_back("raw, scaled and masked scores were not kept: at " +
                                       std::to_string(problem.queryCount()) +
                                       " tokens they would not fit in memory");
    }
    return options;
}

void summarizeDiagnostics(AttentionResult& result, std::span<const std::uint32_t> rowFlags)
{
    Diagnostics& d = result.diagnostics;
    const std::size_t tq = std::size_t(result.problem->queryCount());
    const std::size_t heads = result.heads.size();
    for (std::size_t i = 0; i < tq; ++i) {
        std::uint32_t any = 0;
        for (std::size_t h = 0; h < heads; ++h)
            any |= rowFlags[h * tq + i];
        if (any & kRowFullyMasked)
            d.fullyMaskedRows.push_back(int(i));
        if (any & kRowZeroSum)
            d.zeroSumRows.push_back(int(i));
    }
    for (std::size_t h = 0; h < heads && d.nonFiniteWhere.empty(); ++h) {
        const HeadResult& head = result.heads[h];
        if (!allFinite(head.Q) || !allFinite(head.K) || !allFinite(head.V)) {
            d.nonFiniteWhere = "head " + std::to_string(h) + " Q, K or V";
            break;
        }
        for (std::size_t i = 0; i < tq; ++i)
            if (rowFlags[h * tq + i] & kRowNonFinite) {
                d.nonFiniteWhere =
                    "head " + std::to_string(h) + " scores, query row " + std::to_string(i);
                break;
            }
    }
    if (d.nonFiniteWhere.empty() && !allFinite(result.output))
        d.nonFiniteWhere = "output";
    d.nonFinite = !d.nonFiniteWhere.empty();

    if (!d.fullyMaskedRows.empty())
        d.warnings.push_back(
            std::to_string(d.fullyMaskedRows.size()) +
            (d.fullyMaskedRows.size() == 1 ? " query row has" : " query rows have") +
            " every key masked: " +
            (result.problem->fill == MaskFill::NegativeInfinity ||
                     result.problem->normalization == Normalization::None
                 ? "its weights are all 0"
                 : "with fill -9e15 softmax spreads it uniformly, as PyTorch does"));
    if (!d.zeroSumRows.empty())
        d.warnings.push_back(std::to_string(d.zeroSumRows.size()) +
                             (d.zeroSumRows.size() == 1 ? " query row has" : " query rows have") +
                             " no positive score under ReLU: their weights are all 0");
    if (std::none_of(result.heads.begin(), result.heads.end(),
                     [](const HeadResult& h) { return h.enabled; }))
        d.warnings.push_back(
            "every head is switched off: the output is all zeros and the mean of the "
            "heads has no head to average");
    if (d.nonFinite)
        d.warnings.push_back(nonFiniteWarning(d.nonFiniteWhere));
}

std::string nonFiniteWarning(const std::string& where)
{
    return "non-finite values (NaN or infinity) in " + where +
           ": the weights are too large for float32";
}

} // namespace attn::core
