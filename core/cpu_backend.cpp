#include "cpu_backend.h"

#include "error.h"
#include "limits.h"
#include "normalization.h"
#include "pooling.h"

#include <chrono>
#include <cmath>
#include <vector>

namespace attn::core {
namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

enum RowFlag : std::uint8_t { FullyMasked = 1, ZeroSum = 2, NonFinite = 4 };

// Per head, what the score stage multiplies: the scaled score is (s * A) B^T for the
// dot-like kinds, so the GEMM stays on Eigen's fast path (scale Q, never the product).
struct ScoreOperands
{
    Matrix left;        // Tq x d_k: Q, Q M, or Q with unit rows (cosine)
    Matrix right;       // Tk x d_k: K, or K with unit rows (cosine)
    Matrix scaledLeft;  // s * left
};

Matrix unitRows(const Matrix& m)
{
    Matrix unit = m;
    for (Eigen::Index i = 0; i < unit.rows(); ++i) {
        const float norm = unit.row(i).norm();
        // Cosine similarity with a zero vector is defined here as 0.
        if (norm > 0.0f)
            unit.row(i) /= norm;
        else
            unit.row(i).setZero();
    }
    return unit;
}

struct HeadWork
{
    const HeadWeights* weights = nullptr;
    HeadResult* result = nullptr;
    ScoreOperands operands;
    std::vector<std::uint8_t> rowFlags;
    std::string nonFiniteWhere;
};

struct Job
{
    int head;
    int firstRow;
    int lastRow;
};

class Computation
{
public:
    Computation(const Problem& problem, const ComputeOptions& options, AttentionResult& result)
        : m_problem(problem), m_options(options), m_result(result), m_mask(problem.makeMask()),
          m_scale(problem.scoreScale()), m_tq(problem.queryCount()), m_tk(problem.keyCount())
    {
    }

    void run();

private:
    void project();
    void prepareScores(HeadWork& work) const;
    void computeBlock(HeadWork& work, int firstRow, int lastRow) const;
    std::pair<int, int> keyUnion(int firstRow, int lastRow) const;
    void scoreBlock(const HeadWork& work, int firstRow, int rows, int firstKey, int keys,
                    Matrix& raw, Matrix& scaled) const;
    void combineHeads();
    void collectDiagnostics();

    const Problem& m_problem;
    const ComputeOptions& m_options;
    AttentionResult& m_result;
    const Mask m_mask;
    const float m_scale;
    const int m_tq;
    const int m_tk;
    bool m_keep = true;
    int m_rowBlock = 1; // pooling blocks
    int m_colBlock = 1;
    std::vector<HeadWork> m_work;
};

void Computation::run()
{
    m_keep = m_options.keepIntermediates;
    std::tie(m_rowBlock, m_colBlock) = poolBlocks(m_tq, m_tk, m_options.viewRows, m_options.viewCols);
    m_result.pooling.pooled = m_rowBlock > 1 || m_colBlock > 1;
    m_result.pooling.rowBlock = m_rowBlock;
    m_result.pooling.colBlock = m_colBlock;
    m_result.pooling.mode = m_options.pool;
    m_result.intermediatesKept = m_keep;

    auto stageStart = Clock::now();
    project();
    m_result.diagnostics.stages.push_back({"embed + project", millisecondsSince(stageStart)});

    // Row blocks: a multiple of the pooling block so each pooled row is made in one job.
    stageStart = Clock::now();
    const int blockRows = m_rowBlock * std::max(1, 128 / m_rowBlock);
    std::vector<Job> jobs;
    for (int h = 0; h < int(m_work.size()); ++h) {
        prepareScores(m_work[std::size_t(h)]);
        for (int r = 0; r < m_tq; r += blockRows)
            jobs.push_back({h, r, std::min(m_tq, r + blockRows)});
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (std::size_t j = 0; j < jobs.size(); ++j)
        computeBlock(m_work[std::size_t(jobs[j].head)], jobs[j].firstRow, jobs[j].lastRow);
    m_result.diagnostics.stages.push_back({"scores + mask + normalize + weights x V", millisecondsSince(stageStart)});

    stageStart = Clock::now();
    combineHeads();
    m_result.diagnostics.stages.push_back({"concat + W_O", millisecondsSince(stageStart)});
    collectDiagnostics();
}

void Computation::project()
{
    const Problem& p = m_problem;
    m_result.queryInput = p.queryEmbedding + p.queryPosition;
    m_result.keyInput = p.cross ? Matrix(p.keyEmbedding + p.keyPosition) : m_result.queryInput;

    // One GEMM per projection for all heads at once: X [W_1 .. W_h] is far faster than h
    // thin products, and the same numbers.
    const ModelWeights& w = p.weights;
    const int h = w.headCount();
    Matrix wq(w.dModel, h * w.dK), wk(w.dModel, h * w.dK), wv(w.dModel, h * w.dV);
    for (int i = 0; i < h; ++i) {
        const HeadWeights& head = w.heads[std::size_t(i)];
        wq.middleCols(i * w.dK, w.dK) = head.Wq;
        wk.middleCols(i * w.dK, w.dK) = head.Wk;
        wv.middleCols(i * w.dV, w.dV) = head.Wv;
    }
    const Matrix q = m_result.queryInput * wq;
    const Matrix k = m_result.keyInput * wk;
    const Matrix v = m_result.keyInput * wv;

    m_result.heads.resize(std::size_t(h));
    m_work.resize(std::size_t(h));
    for (int i = 0; i < h; ++i) {
        const HeadWeights& head = w.heads[std::size_t(i)];
        HeadResult& out = m_result.heads[std::size_t(i)];
        out.enabled = head.enabled;
        out.Q = q.middleCols(i * w.dK, w.dK);
        out.K = k.middleCols(i * w.dK, w.dK);
        out.V = v.middleCols(i * w.dV, w.dV);
        if (head.bq.size())
            out.Q.rowwise() += head.bq;
        if (head.bk.size())
            out.K.rowwise() += head.bk;
        if (head.bv.size())
            out.V.rowwise() += head.bv;
        HeadWork& work = m_work[std::size_t(i)];
        work.weights = &head;
        work.result = &out;
        work.rowFlags.assign(std::size_t(m_tq), 0);
        if (!out.Q.allFinite() || !out.K.allFinite() || !out.V.allFinite())
            work.nonFiniteWhere = "head " + std::to_string(i) + " Q, K or V";
    }
}

void Computation::prepareScores(HeadWork& work) const
{
    HeadResult& out = *work.result;
    ScoreOperands& ops = work.operands;
    switch (m_problem.score) {
    case ScoreKind::Dot:
    case ScoreKind::ScaledDot:
    case ScoreKind::Additive:
        ops.left = out.Q;
        ops.right = out.K;
        break;
    case ScoreKind::Bilinear:
        ops.left = out.Q * work.weights->bilinear; // q_i^T M k_j = (Q M)_i . k_j
        ops.right = out.K;
        break;
    case ScoreKind::Cosine:
        ops.left = unitRows(out.Q);
        ops.right = unitRows(out.K);
        break;
    }
    if (m_problem.score != ScoreKind::Additive)
        ops.scaledLeft = ops.left * m_scale;

    const int poolRows = (m_tq + m_rowBlock - 1) / m_rowBlock;
    const int poolCols = (m_tk + m_colBlock - 1) / m_colBlock;
    const bool pooled = m_rowBlock > 1 || m_colBlock > 1;
    out.weights.resize(pooled ? poolRows : m_tq, pooled ? poolCols : m_tk);
    out.output.resize(m_tq, out.V.cols());
    if (m_keep) {
        out.rawScores.resize(m_tq, m_tk);
        out.scaledScores.resize(m_tq, m_tk);
        out.maskedScores.resize(m_tq, m_tk);
    }
}

// The smallest key range holding every unmasked key of rows [firstRow, lastRow).
std::pair<int, int> Computation::keyUnion(int firstRow, int lastRow) const
{
    int first = m_tk;
    int last = 0;
    for (int i = firstRow; i < lastRow; ++i) {
        const auto [a, b] = m_mask.keyRange(i);
        if (a < b) {
            first = std::min(first, a);
            last = std::max(last, b);
        }
    }
    return first < last ? std::pair{first, last} : std::pair{0, 0};
}

// Raw and scaled scores for rows [firstRow, firstRow + rows) and keys [firstKey, firstKey + keys).
void Computation::scoreBlock(const HeadWork& work, int firstRow, int rows, int firstKey, int keys,
                             Matrix& raw, Matrix& scaled) const
{
    const ScoreOperands& ops = work.operands;
    const auto right = ops.right.middleRows(firstKey, keys);
    if (m_problem.score == ScoreKind::Additive) {
        // Seed 001: e_ij = w . tanh(q_i + k_j), with a per-head w in R^{d_k}.
        const Eigen::VectorXf w = work.weights->wAdditive.transpose();
        raw.resize(rows, keys);
        for (int i = 0; i < rows; ++i) {
            const RowVector q = ops.left.row(firstRow + i);
            raw.row(i) = ((right.rowwise() + q).array().tanh().matrix() * w).transpose();
        }
        scaled = raw * m_scale;
        return;
    }
    scaled.resize(rows, keys);
    scaled.noalias() = ops.scaledLeft.middleRows(firstRow, rows) * right.transpose();
    if (m_keep) {
        raw.resize(rows, keys);
        raw.noalias() = ops.left.middleRows(firstRow, rows) * right.transpose();
    }
}

void Computation::computeBlock(HeadWork& work, int firstRow, int lastRow) const
{
    HeadResult& out = *work.result;
    const int rows = lastRow - firstRow;

    // Columns that can hold a non-zero weight: with the -inf fill only the causal/window
    // range counts, so the work above the diagonal of a causal mask is skipped. The
    // -9e15 fill makes every column count. Kept intermediates need scores everywhere, but
    // the weights are made from the same cells either way, so they are bit-identical.
    const bool excluding = m_problem.fill == MaskFill::NegativeInfinity;
    auto [firstKey, lastKey] = excluding ? keyUnion(firstRow, lastRow) : std::pair{0, m_tk};
    const int keys = lastKey - firstKey;

    // The weights always come from the same product over [firstKey, lastKey), so they are
    // bit-identical whether or not the intermediates are kept (Eigen's summation order
    // depends on the product's shape).
    Matrix raw, scaled;
    if (keys > 0)
        scoreBlock(work, firstRow, rows, firstKey, keys, raw, scaled);
    int scoreFirst = firstKey;
    if (m_keep && keys < m_tk) {
        Matrix allRaw, allScaled;
        scoreBlock(work, firstRow, rows, 0, m_tk, allRaw, allScaled);
        if (keys > 0) {
            allRaw.middleCols(firstKey, keys) = raw;
            allScaled.middleCols(firstKey, keys) = scaled;
        }
        raw = std::move(allRaw);
        scaled = std::move(allScaled);
        scoreFirst = 0;
    }

    // Weights of this block, full key width: the result rows themselves, or a scratch block
    // that is pooled afterwards.
    const bool pooled = m_rowBlock > 1 || m_colBlock > 1;
    Matrix scratch;
    if (pooled)
        scratch.resize(rows, m_tk);
    auto weightsRow = [&](int i) -> float* {
        return pooled ? scratch.row(i).data() : out.weights.row(firstRow + i).data();
    };

    std::vector<std::uint8_t> masked(static_cast<std::size_t>(m_tk));
    for (int i = 0; i < rows; ++i) {
        const int query = firstRow + i;
        m_mask.fillRow(query, masked.data());
        float* row = weightsRow(i);
        std::fill(row, row + m_tk, 0.0f);
        if (m_keep) {
            out.rawScores.row(query) = raw.row(i);
            out.scaledScores.row(query) = scaled.row(i);
            auto maskedRow = out.maskedScores.row(query);
            maskedRow = scaled.row(i);
            const float fill = maskFillValue(m_problem.fill);
            for (int j = 0; j < m_tk; ++j)
                if (masked[std::size_t(j)])
                    maskedRow(j) = fill;
        }
        // Normalise over the row's own range: keys outside it are masked (excluded with -inf).
        const auto [first, last] = excluding ? m_mask.keyRange(query) : std::pair{0, m_tk};
        RowStatus status;
        if (last > first) {
            Eigen::Map<RowVector>(row + first, last - first) = scaled.row(i).segment(first - scoreFirst, last - first);
            status = normalizeRow(row + first, masked.data() + first, last - first,
                                  m_problem.normalization, m_problem.fill);
        }
        status.fullyMasked = std::all_of(masked.begin(), masked.end(), [](auto m) { return m != 0; });
        work.rowFlags[std::size_t(query)] = std::uint8_t((status.fullyMasked ? FullyMasked : 0) |
                                                         (status.zeroSum ? ZeroSum : 0) |
                                                         (status.nonFinite ? NonFinite : 0));
    }

    // b_i = sum_j alpha_ij v_j (seed 001), for the block's rows at once.
    if (pooled) {
        out.output.middleRows(firstRow, rows).noalias() =
            scratch.middleCols(firstKey, keys) * out.V.middleRows(firstKey, keys);
        const Matrix grid = poolMatrix(scratch, m_rowBlock, m_colBlock, m_options.pool);
        out.weights.middleRows(firstRow / m_rowBlock, grid.rows()) = grid;
    } else {
        out.output.middleRows(firstRow, rows).noalias() =
            out.weights.block(firstRow, firstKey, rows, keys) * out.V.middleRows(firstKey, keys);
    }
}

void Computation::combineHeads()
{
    const ModelWeights& w = m_problem.weights;
    // A disabled head contributes zeros to the concatenation (its own output is still shown).
    m_result.concat = Matrix::Zero(m_tq, Eigen::Index(w.headCount()) * w.dV);
    for (int h = 0; h < w.headCount(); ++h)
        if (m_result.heads[std::size_t(h)].enabled)
            m_result.concat.middleCols(h * w.dV, w.dV) = m_result.heads[std::size_t(h)].output;
    // Seed 004: Z = Cat[H_1 .. H_h] W^O.
    m_result.output = m_result.concat * w.Wo;
    if (w.bo.size())
        m_result.output.rowwise() += w.bo;
}

void Computation::collectDiagnostics()
{
    Diagnostics& d = m_result.diagnostics;
    for (int i = 0; i < m_tq; ++i) {
        std::uint8_t any = 0;
        for (const HeadWork& work : m_work)
            any |= work.rowFlags[std::size_t(i)];
        if (any & FullyMasked)
            d.fullyMaskedRows.push_back(i);
        if (any & ZeroSum)
            d.zeroSumRows.push_back(i);
    }
    for (std::size_t h = 0; h < m_work.size() && d.nonFiniteWhere.empty(); ++h) {
        const HeadWork& work = m_work[h];
        if (!work.nonFiniteWhere.empty()) {
            d.nonFiniteWhere = work.nonFiniteWhere;
            break;
        }
        for (int i = 0; i < m_tq; ++i)
            if (work.rowFlags[std::size_t(i)] & NonFinite) {
                d.nonFiniteWhere = "head " + std::to_string(h) + " scores, query row " + std::to_string(i);
                break;
            }
    }
    if (d.nonFiniteWhere.empty() && !m_result.output.allFinite())
        d.nonFiniteWhere = "output";
    d.nonFinite = !d.nonFiniteWhere.empty();

    if (!d.fullyMaskedRows.empty())
        d.warnings.push_back(std::to_string(d.fullyMaskedRows.size()) +
                             (d.fullyMaskedRows.size() == 1 ? " query row has" : " query rows have") +
                             " every key masked: " +
                             (m_problem.fill == MaskFill::NegativeInfinity
                                  ? "its weights are all 0"
                                  : "with fill -9e15 softmax spreads it uniformly, as PyTorch does"));
    if (!d.zeroSumRows.empty())
        d.warnings.push_back(std::to_string(d.zeroSumRows.size()) +
                             " query row(s) have no positive score under ReLU: their weights are all 0");
    if (d.nonFinite)
        d.warnings.push_back("non-finite values (NaN or infinity) in " + d.nonFiniteWhere +
                             ": the weights are too large for float32");
}

// Refuses results that would not fit in memory, and drops the optional intermediates
// (with a warning) before that point.
ComputeOptions checkMemory(const Problem& problem, ComputeOptions options, Diagnostics& diagnostics)
{
    const std::int64_t heads = problem.weights.headCount();
    const std::int64_t cells = std::int64_t(problem.queryCount()) * problem.keyCount();
    const auto [rowBlock, colBlock] = poolBlocks(problem.queryCount(), problem.keyCount(),
                                                 options.viewRows, options.viewCols);
    const std::int64_t weightCells = heads * cells / (std::int64_t(rowBlock) * colBlock);
    if (weightCells > kMaxResultCells)
        throw Error("the weights of " + std::to_string(heads) + " heads at " +
                    std::to_string(problem.queryCount()) + "x" + std::to_string(problem.keyCount()) +
                    " tokens need " + std::to_string(weightCells * 4 >> 20) +
                    " MiB; pool them to the view's resolution or use fewer tokens");
    if (options.keepIntermediates && 3 * heads * cells > kMaxResultCells) {
        options.keepIntermediates = false;
        diagnostics.warnings.push_back("raw, scaled and masked scores were not kept: at " +
                                       std::to_string(problem.queryCount()) +
                                       " tokens they would not fit in memory");
    }
    return options;
}

} // namespace

std::shared_ptr<const AttentionResult> CpuBackend::compute(std::shared_ptr<const Problem> problem,
                                                           const ComputeOptions& requested)
{
    problem->validate();
    const auto start = Clock::now();
    auto result = std::make_shared<AttentionResult>();
    result->problem = problem;
    result->backend = name();
    result->device = deviceName();
    const ComputeOptions options = checkMemory(*problem, requested, result->diagnostics);
    Computation(*problem, options, *result).run();
    result->diagnostics.computeMilliseconds = millisecondsSince(start);
    return result;
}

} // namespace attn::core
