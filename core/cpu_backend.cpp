#include "cpu_backend.h"

#include "diagnostics.h"
#include "error.h"
#include "kernels/gemm.h"
#include "normalization.h"
#include "parallel.h"
#include "pooling.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

namespace attn::core {

Matrix rotateHalf(const Matrix& m, const RotarySpec& rotary)
{
    const Eigen::Index half = m.cols() / 2;
    Matrix out(m.rows(), m.cols());
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        const double position = double(rotary.firstPosition + i);
        for (Eigen::Index j = 0; j < half; ++j) {
            const double angle = position * double(rotary.inverseFrequencies[std::size_t(j)]);
            const float c = float(std::cos(angle));
            const float s = float(std::sin(angle));
            const float a = m(i, j);
            const float b = m(i, j + half);
            out(i, j) = a * c - b * s;
            out(i, j + half) = b * c + a * s;
        }
    }
    return out;
}

namespace {

using Clock = std::chrono::steady_clock;

// Below about this many cells of per-head work (T x d_head x heads) the heads are prepared on
// the calling thread: a hand-off to the helper costs 10-50 us.
constexpr std::int64_t kParallelCells = 64 * 1024;

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

int ceilDiv(int a, int b)
{
    return (a + b - 1) / b;
}

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

// Per head, what the score stage multiplies: the scaled score is (s A) B^T for the dot-like
// kinds, so the GEMM stays on Eigen's fast path (scale Q, never the product).
struct HeadWork
{
    const HeadWeights* weights = nullptr;
    HeadResult* result = nullptr;
    int head = 0;
    const Matrix* left = nullptr;  // Tq x d_k: Q, Q M, or Q with unit rows (cosine)
    const Matrix* right = nullptr; // Tk x d_k: K, or K with unit rows (cosine)
    Matrix ownLeft;                // Q M or unit rows, when left is not Q itself
    Matrix ownRight;
    Matrix rightTransposed; // d_k x Tk: the scores' GEMM reads keys as columns
    Matrix scaledLeft;      // s * left
};

// Rows [firstRow, lastRow) of one head, and the keys [firstKey, lastKey) that can weigh.
struct Job
{
    int head;
    int firstRow;
    int lastRow;
    int firstKey;
    int lastKey;
};

// The parts of a job, timed per thread: they run interleaved in one parallel loop.
enum Part { ScoresPart, WeightsVPart, PoolPart, kParts };
using Busy = std::array<double, kParts>;

class Computation
{
public:
    Computation(const Problem& problem, const ComputeOptions& options, AttentionResult& result)
        : m_problem(problem), m_options(options), m_result(result), m_mask(problem.makeMask()),
          m_scale(problem.scoreScale()), m_tq(problem.queryCount()), m_tk(problem.keyCount()),
          m_excluding(problem.fill == MaskFill::NegativeInfinity)
    {
        const bool padding = problem.mask.padding &&
                             std::find(problem.keyIsPadding.begin(), problem.keyIsPadding.end(),
                                       true) != problem.keyIsPadding.end();
        m_rangeOnly = !padding && !m_mask.hasCustomCells();
    }

    void run();

private:
    void project();
    void prepareScores(HeadWork& work) const;
    std::vector<Job> makeJobs(int blockRows) const;
    void computeBlock(HeadWork& work, const Job& job, Busy& busy);
    void scoreBlock(const HeadWork& work, int firstRow, int rows, int firstKey, int keys,
                    bool scaled, Eigen::Ref<Matrix> scores) const;
    void addScoreBias(const HeadWork& work, int firstRow, int rows, int firstKey, int keys,
                      bool scaled, Eigen::Ref<Matrix> scores) const;
    void maskRow(int query, std::uint8_t* masked) const;
    void combineHeads();
    void throwIfCancelled() const
    {
        if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))
            throw Cancelled();
    }

    const Problem& m_problem;
    const ComputeOptions& m_options;
    AttentionResult& m_result;
    const Mask m_mask;
    const float m_scale;
    const int m_tq;
    const int m_tk;
    const bool m_excluding; // the -inf fill: masked cells take no part in normalisation
    bool m_rangeOnly;       // no padding or custom cell: the causal/window range is the mask
    bool m_keep = true;
    int m_rowBlock = 1; // pooling blocks
    int m_colBlock = 1;
    std::vector<HeadWork> m_work;
    std::vector<std::uint32_t> m_rowFlags; // [head][query row], diagnostics.h's kRow* bits
};

void Computation::run()
{
    m_keep = m_options.keepIntermediates;
    std::tie(m_rowBlock, m_colBlock) =
        poolBlocks(m_tq, m_tk, m_options.viewRows, m_options.viewCols);
    const bool pooled = m_rowBlock > 1 || m_colBlock > 1;
    m_result.pooling.pooled = pooled;
    m_result.pooling.rowBlock = m_rowBlock;
    m_result.pooling.colBlock = m_colBlock;
    m_result.pooling.mode = m_options.pool;
    m_result.intermediatesKept = m_keep;
    std::vector<StageTime>& stages = m_result.diagnostics.stages;

    auto stageStart = Clock::now();
    project();
    stages.push_back({"embed + project", millisecondsSince(stageStart)});

    // Row blocks of 128 rows, a multiple of the pooling block so each pooled row is made in
    // one job.
    stageStart = Clock::now();
    const int blockRows = m_rowBlock * std::max(1, 128 / m_rowBlock);
    const std::vector<Job> jobs = makeJobs(blockRows);

    std::vector<Busy> busy(std::size_t(parallelThreads()), Busy{});
    auto block = [&](int j, int thread) {
        const Job& job = jobs[std::size_t(j)];
        computeBlock(m_work[std::size_t(job.head)], job, busy[std::size_t(thread)]);
    };
    // About the multiply-adds of the scores and of weights x V (all of them, masked or not).
    const std::int64_t work = std::int64_t(m_tq) * m_tk *
                              (m_problem.weights->dK + m_problem.weights->dV) *
                              m_problem.weights->headCount();
    if (jobs.size() > 1 &&
        (work >= kParallelCells * 16 || m_keep || m_rowBlock > 1 || m_colBlock > 1))
        parallelFor(int(jobs.size()), block);
    else
        serialFor(int(jobs.size()), block);
    // The stage's wall time, split in proportion to the thread time of each part.
    Busy total{};
    for (const Busy& b : busy)
        for (int part = 0; part < kParts; ++part)
            total[part] += b[part];
    const double wall = millisecondsSince(stageStart);
    const double sum = std::max(total[ScoresPart] + total[WeightsVPart] + total[PoolPart], 1e-12);
    stages.push_back({"scores + mask + normalize", wall * total[ScoresPart] / sum});
    stages.push_back({"weights x V", wall * total[WeightsVPart] / sum});
    if (pooled)
        stages.push_back({"pool", wall * total[PoolPart] / sum});

    stageStart = Clock::now();
    combineHeads();
    stages.push_back({"concat + W_O", millisecondsSince(stageStart)});
    summarizeDiagnostics(m_result, m_rowFlags);
}

void Computation::project()
{
    const Problem& p = m_problem;
    if (p.hasPositions())
        m_result.storedQueryInput = p.queryInput();
    if (p.cross)
        m_result.storedKeyInput = p.keyInput();

    // Every head's Q, K and V from its own W_q, W_k and W_v in one product (gemm.h's column
    // groups), each written straight into the head's result with its bias: a head's weights
    // (d_model x d_head, contiguous) are read where they are, never copied side by side.
    const ModelWeights& w = *p.weights;
    const int h = w.headCount();
    const int d = w.dModel;
    m_result.heads.resize(std::size_t(h));
    m_work.resize(std::size_t(h));
    m_rowFlags.assign(std::size_t(h) * std::size_t(m_tq), 0);
    std::vector<GemmColumns> fromQueries;
    std::vector<GemmColumns> fromKeys;
    auto group = [](const Matrix& weights, const RowVector& bias, Matrix& out) {
        return GemmColumns{weights.data(),
                           weights.cols(),
                           out.data(),
                           out.cols(),
                           1,
                           bias.size() ? bias.data() : nullptr,
                           int(weights.cols())};
    };
    for (int i = 0; i < h; ++i) {
        const HeadWeights& head = w.heads[std::size_t(i)];
        HeadResult& out = m_result.heads[std::size_t(i)];
        out.enabled = head.enabled;
        out.Q.resize(m_tq, w.dK);
        out.K.resize(m_tk, w.dK);
        out.V.resize(m_tk, w.dV);
        std::vector<GemmColumns>& keyGroups = p.cross ? fromKeys : fromQueries;
        fromQueries.push_back(group(head.Wq, head.bq, out.Q));
        keyGroups.push_back(group(head.Wk, head.bk, out.K));
        keyGroups.push_back(group(head.Wv, head.bv, out.V));
    }
    // Self-attention multiplies X once; cross-attention takes Q from the queries, K and V from
    // the keys.
    gemm(m_result.queryInput().data(), d, m_tq, d, fromQueries);
    if (p.cross)
        gemm(m_result.keyInput().data(), d, m_tk, d, fromKeys);

    auto prepare = [&](int i, int) {
        HeadResult& out = m_result.heads[std::size_t(i)];
        if (p.rotary.enabled()) {
            out.rotatedQ = rotateHalf(out.Q, p.rotary);
            out.rotatedK = rotateHalf(out.K, p.rotary);
        }
        HeadWork& work = m_work[std::size_t(i)];
        work.weights = &w.heads[std::size_t(i)];
        work.result = &out;
        work.head = i;
        prepareScores(work);
    };
    // Small problems stay on this thread: a hand-off costs more than the work.
    if (p.rotary.enabled() || std::int64_t(m_tq) * w.dK * h >= kParallelCells)
        parallelFor(h, prepare);
    else
        serialFor(h, prepare);
}

void Computation::prepareScores(HeadWork& work) const
{
    throwIfCancelled();
    HeadResult& out = *work.result;
    // With rotary positions every score reads the rotated vectors.
    const Matrix& q = out.rotatedQ.size() ? out.rotatedQ : out.Q;
    const Matrix& k = out.rotatedK.size() ? out.rotatedK : out.K;
    work.left = &q;
    work.right = &k;
    if (m_problem.score == ScoreKind::Bilinear) {
        work.ownLeft = q * work.weights->bilinear; // q_i^T M k_j = (Q M)_i . k_j
        work.left = &work.ownLeft;
    } else if (m_problem.score == ScoreKind::Cosine) {
        work.ownLeft = unitRows(q);
        work.ownRight = unitRows(k);
        work.left = &work.ownLeft;
        work.right = &work.ownRight;
    }
    if (m_problem.score != ScoreKind::Additive) {
        work.scaledLeft = *work.left * m_scale;
        work.rightTransposed = work.right->transpose();
    }

    const int poolRows = ceilDiv(m_tq, m_rowBlock);
    const int poolCols = ceilDiv(m_tk, m_colBlock);
    const bool pooled = m_rowBlock > 1 || m_colBlock > 1;
    out.weights.resize(pooled ? poolRows : m_tq, pooled ? poolCols : m_tk);
    out.output.resize(m_tq, out.V.cols());
    if (m_keep) {
        out.rawScores.resize(m_tq, m_tk);
        out.scaledScores.resize(m_tq, m_tk);
        out.maskedScores.resize(m_tq, m_tk);
    }
}

// Every head's row blocks, each with the smallest key range holding every key that can weigh
// in it (with the -9e15 fill every key counts), largest first so the threads finish together.
std::vector<Job> Computation::makeJobs(int blockRows) const
{
    std::vector<Job> jobs;
    for (int r = 0; r < m_tq; r += blockRows) {
        const int lastRow = std::min(m_tq, r + blockRows);
        int firstKey = 0;
        int lastKey = m_tk;
        if (m_excluding) {
            firstKey = m_tk;
            lastKey = 0;
            for (int i = r; i < lastRow; ++i) {
                const auto [a, b] = m_mask.keyRange(i);
                if (a < b) {
                    firstKey = std::min(firstKey, a);
                    lastKey = std::max(lastKey, b);
                }
            }
            if (firstKey >= lastKey)
                firstKey = lastKey = 0;
        }
        for (int h = 0; h < int(m_work.size()); ++h)
            jobs.push_back({h, r, lastRow, firstKey, lastKey});
    }
    std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
        return std::int64_t(a.lastRow - a.firstRow) * (a.lastKey - a.firstKey) >
               std::int64_t(b.lastRow - b.firstRow) * (b.lastKey - b.firstKey);
    });
    return jobs;
}

// Raw or scaled scores of rows [firstRow, firstRow + rows) and keys [firstKey, firstKey + keys).
void Computation::scoreBlock(const HeadWork& work, int firstRow, int rows, int firstKey, int keys,
                             bool scaled, Eigen::Ref<Matrix> scores) const
{
    const auto right = work.right->middleRows(firstKey, keys);
    if (m_problem.score == ScoreKind::Additive) {
        // Seed 001: e_ij = w . tanh(q_i + k_j), with a per-head w in R^{d_k}.
        const Eigen::VectorXf w = work.weights->wAdditive.transpose();
        for (int i = 0; i < rows; ++i) {
            const RowVector q = work.left->row(firstRow + i);
            scores.row(i) = ((right.rowwise() + q).array().tanh().matrix() * w).transpose();
        }
        if (scaled)
            scores *= m_scale;
        addScoreBias(work, firstRow, rows, firstKey, keys, scaled, scores);
        return;
    }
    // S = L R^T on the dispatched GEMM kernels (core/kernels), serially: this block of rows is
    // one job of the runner already. Each score is one FMA chain over d_k whatever the block's
    // shape, so a score computed for the weights equals the same score kept for display.
    const Matrix& left = scaled ? work.scaledLeft : *work.left;
    const Matrix& rightT = work.rightTransposed;
    const GemmColumns columns{rightT.data() + firstKey,
                              rightT.cols(),
                              scores.data(),
                              scores.outerStride(),
                              1,
                              nullptr,
                              keys};
    GemmOptions options;
    options.serial = true;
    gemm(left.row(firstRow).data(), left.cols(), rows, int(left.cols()), {&columns, 1}, options);
    addScoreBias(work, firstRow, rows, firstKey, keys, scaled, scores);
}

// The problem's per-head bias is part of the raw score (q.k + b), so the scaled score gets it
// times the scale: s q.k + s b. Nothing to do without one.
void Computation::addScoreBias(const HeadWork& work, int firstRow, int rows, int firstKey, int keys,
                               bool scaled, Eigen::Ref<Matrix> scores) const
{
    if (!m_problem.scoreBias)
        return;
    const auto bias =
        m_problem.scoreBias->block(Eigen::Index(work.head) * m_tq + firstRow, firstKey, rows, keys);
    if (scaled && m_scale != 1.0f)
        scores.leftCols(keys) += bias * m_scale;
    else
        scores.leftCols(keys) += bias;
}

// masked[j] = 1 for every masked key j of this query row.
void Computation::maskRow(int query, std::uint8_t* masked) const
{
    if (!m_rangeOnly) {
        m_mask.fillRow(query, masked);
        return;
    }
    const auto [first, last] = m_mask.keyRange(query);
    std::memset(masked, 1, std::size_t(first));
    std::memset(masked + first, 0, std::size_t(last - first));
    std::memset(masked + last, 1, std::size_t(m_tk - last));
}

void Computation::computeBlock(HeadWork& work, const Job& job, Busy& busy)
{
    throwIfCancelled();
    auto start = Clock::now();
    auto lap = [&start, &busy](Part part) {
        const auto now = Clock::now();
        busy[part] += std::chrono::duration<double>(now - start).count();
        start = now;
    };
    HeadResult& out = *work.result;
    const int rows = job.lastRow - job.firstRow;
    const int firstKey = job.firstKey;
    const int keys = job.lastKey - job.firstKey;

    // This block's weights over keys [c0, c1): the result rows themselves (every key), or
    // scratch that is pooled afterwards, covering only the pooling blocks that can hold a
    // weight (with a causal mask about half the row: the rest of the grid is 0).
    const bool pooled = m_rowBlock > 1 || m_colBlock > 1;
    const int c0 = pooled ? firstKey / m_colBlock * m_colBlock : 0;
    const int c1 = pooled ? std::min(m_tk, ceilDiv(job.lastKey, m_colBlock) * m_colBlock) : m_tk;
    Matrix scratch;
    if (pooled)
        scratch.resize(rows, std::max(0, c1 - c0));
    Eigen::Map<Matrix> weights(pooled ? scratch.data() : out.weights.row(job.firstRow).data(), rows,
                               std::max(0, c1 - c0));

    // The scaled scores that become weights always come from the same product over the job's
    // key range, so the weights are bit-identical whether or not the intermediates are kept
    // (Eigen's summation order depends on the product's shape).
    if (keys > 0)
        scoreBlock(work, job.firstRow, rows, firstKey, keys, true,
                   weights.middleCols(firstKey - c0, keys));
    if (m_keep) {
        auto scaled = out.scaledScores.middleRows(job.firstRow, rows);
        scoreBlock(work, job.firstRow, rows, 0, m_tk, false,
                   out.rawScores.middleRows(job.firstRow, rows));
        if (keys < m_tk)
            scoreBlock(work, job.firstRow, rows, 0, m_tk, true, scaled);
        if (keys > 0)
            scaled.middleCols(firstKey, keys) = weights.middleCols(firstKey - c0, keys);
    }

    // With the -inf fill and only causal/window rules, the keys inside a row's range are all
    // unmasked: the zeros stay and nothing else of `masked` is read.
    std::vector<std::uint8_t> masked(std::size_t(m_tk), 0);
    const bool needMask = !m_rangeOnly || !m_excluding || m_keep;
    const float fill = maskFillValue(m_problem.fill);
    for (int i = 0; i < rows; ++i) {
        const int query = job.firstRow + i;
        if (needMask)
            maskRow(query, masked.data());
        if (m_keep) {
            auto maskedRow = out.maskedScores.row(query);
            maskedRow = out.scaledScores.row(query);
            for (int j = 0; j < m_tk; ++j)
                if (masked[std::size_t(j)])
                    maskedRow(j) = fill;
        }
        // Normalise over the row's own range [a, b): with the -inf fill keys outside it are
        // masked, excluded, and weigh 0. A non-empty range lies within [c0, c1).
        const auto [first, last] = m_excluding ? m_mask.keyRange(query) : std::pair{0, m_tk};
        const int a = std::clamp(first, c0, c1);
        const int b = std::clamp(last, a, c1);
        float* row = weights.row(i).data();
        std::fill(row, row + (a - c0), 0.0f);
        std::fill(row + (b - c0), row + (c1 - c0), 0.0f);
        RowStatus status;
        status.fullyMasked = true;
        if (b > a)
            status = normalizeRow(row + (a - c0), masked.data() + a, b - a, m_problem.normalization,
                                  m_problem.fill);
        m_rowFlags[std::size_t(job.head) * std::size_t(m_tq) + std::size_t(query)] =
            rowFlags(status);
    }
    lap(ScoresPart);

    // b_i = sum_j alpha_ij v_j (seed 001), for the block's rows at once.
    auto output = out.output.middleRows(job.firstRow, rows);
    if (keys > 0) {
        const GemmColumns columns{out.V.row(firstKey).data(),
                                  out.V.cols(),
                                  output.data(),
                                  output.outerStride(),
                                  1,
                                  nullptr,
                                  int(out.V.cols())};
        GemmOptions options;
        options.serial = true; // this block of rows is one job of the runner already
        gemm(weights.data() + (firstKey - c0), weights.outerStride(), rows, keys, {&columns, 1},
             options);
    } else {
        output.setZero();
    }
    lap(WeightsVPart);

    if (pooled) {
        auto gridRows =
            out.weights.middleRows(job.firstRow / m_rowBlock, ceilDiv(rows, m_rowBlock));
        gridRows.setZero();
        if (c1 > c0) {
            const Matrix grid = poolMatrix(scratch, m_rowBlock, m_colBlock, m_options.pool);
            gridRows.middleCols(c0 / m_colBlock, grid.cols()) = grid;
        }
        lap(PoolPart);
    }
}

void Computation::combineHeads()
{
    const ModelWeights& w = *m_problem.weights;
    const Matrix concat = m_result.concat();
    // Seed 004: Z = Cat[H_1 .. H_h] W^O + b_O.
    m_result.output.resize(m_tq, w.dModel);
    const GemmColumns columns{w.Wo.data(),
                              w.Wo.cols(),
                              m_result.output.data(),
                              m_result.output.cols(),
                              1,
                              w.bo.size() ? w.bo.data() : nullptr,
                              w.dModel};
    gemm(concat.data(), concat.cols(), m_tq, int(concat.cols()), {&columns, 1});
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
