// The Vulkan backend against the CPU reference (core::CpuBackend), with the Khronos validation
// layer on: any validation message fails the suite. Runs on lavapipe in CI; a machine without
// a Vulkan device skips, except under CI=true where that is a failure.

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/pooling.h"
#include "gpu/backend_factory.h"
#include "gpu/fallback_backend.h"
#include "gpu/instance.h"
#include "gpu/model/weight_cache.h"
#include "gpu/vulkan_backend.h"
#include "support/problems.h"

#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <functional>

using namespace attn;
using core::MaskFill;
using core::Normalization;
using core::ScoreKind;

namespace {

enum class MaskCase { None, Causal, Padding, Window, WindowCausal, Custom, CausalPadding };

const char* maskName(MaskCase m)
{
    switch (m) {
    case MaskCase::None:
        return "none";
    case MaskCase::Causal:
        return "causal";
    case MaskCase::Padding:
        return "padding";
    case MaskCase::Window:
        return "window";
    case MaskCase::WindowCausal:
        return "window-causal";
    case MaskCase::Custom:
        return "custom";
    case MaskCase::CausalPadding:
        return "causal+padding";
    }
    return "?";
}

constexpr ScoreKind kScores[] = {ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::Additive,
                                 ScoreKind::Bilinear, ScoreKind::Cosine};
constexpr Normalization kNorms[] = {Normalization::Softmax, Normalization::Hard,
                                    Normalization::Relu, Normalization::Sparsemax,
                                    Normalization::None};
constexpr MaskCase kMasks[] = {MaskCase::None,         MaskCase::Causal,       MaskCase::Padding,
                               MaskCase::Window,       MaskCase::WindowCausal, MaskCase::Custom,
                               MaskCase::CausalPadding};

struct Case
{
    int tq = 4;
    int tk = 4;
    int heads = 1;
    bool cross = false;
    ScoreKind score = ScoreKind::ScaledDot;
    Normalization normalization = Normalization::Softmax;
    MaskCase mask = MaskCase::None;
    MaskFill fill = MaskFill::NegativeInfinity;
    float temperature = 1.0f;
    bool disableHead = false;
    bool keep = true;
    std::uint64_t seed = 7;
    int dk = 0;          // 0: d_model / heads
    bool rotary = false; // Llama-style rotary positions on Q and K
};

// What a compute reads back: every intermediate or only the weights and outputs, and the
// weights pooled to a view x view grid (0: full size).
core::ComputeOptions readBack(bool keepIntermediates, int view = 0)
{
    core::ComputeOptions options;
    options.keepIntermediates = keepIntermediates;
    options.viewRows = view;
    options.viewCols = view;
    return options;
}

// A bias vector uniform in +-sqrt(6 / (1 + size)), from the stream keyed by (seed, name).
core::RowVector seededBias(int size, std::uint64_t seed, const std::string& name)
{
    core::Matrix m(1, size);
    core::initialiseMatrix(m, core::WeightInit::Xavier, seed, name);
    return m.row(0);
}

std::shared_ptr<core::Problem> makeProblem(const Case& c)
{
    const int dModel = c.heads == 3 ? 24 : (c.heads == 8 ? 64 : 16);
    auto p = test::randomProblem(c.tq, c.cross ? c.tk : c.tq, dModel, c.heads, c.seed, c.cross);
    if (c.dk > 0)
        p->weights = std::make_shared<const core::ModelWeights>(
            core::makeWeights(dModel, c.heads, c.dk, c.dk, core::WeightInit::Xavier, c.seed));
    if (c.rotary) {
        // Llama's frequencies theta^(-2j/d_k) with theta = 10^4, and a first position other
        // than 0 on odd seeds (a later window of a longer text).
        const int dk = p->weights->dK;
        for (int j = 0; j < dk / 2; ++j)
            p->rotary.inverseFrequencies.push_back(float(std::pow(1e4, -2.0 * j / dk)));
        p->rotary.firstPosition = int(c.seed % 2) * 5;
    }
    p->score = c.score;
    p->normalization = c.normalization;
    p->fill = c.fill;
    p->temperature = c.temperature;
    p->mask = core::MaskSpec{};
    p->mask.padding = false;
    const int tk = p->keyCount();
    // Every third key from 0 is padding: with a causal mask query 0 has no key left.
    for (int j = 0; j < tk; ++j)
        p->keyIsPadding[std::size_t(j)] = j % 3 == 0;
    switch (c.mask) {
    case MaskCase::None:
        break;
    case MaskCase::Causal:
        p->mask.causal = true;
        break;
    case MaskCase::Padding:
        p->mask.padding = true;
        break;
    case MaskCase::Window:
        p->mask.window = 2;
        break;
    case MaskCase::WindowCausal:
        p->mask.window = 2;
        p->mask.windowCausal = true;
        break;
    case MaskCase::Custom:
        for (int i = 0; i < p->queryCount(); ++i)
            p->mask.customCells.push_back({i, (i * 7 + 3) % tk});
        // A whole row masked by hand, to cover fully masked rows without other rules.
        if (p->queryCount() > 1)
            for (int j = 0; j < tk; ++j)
                p->mask.customCells.push_back({1, j});
        break;
    case MaskCase::CausalPadding:
        p->mask.causal = true;
        p->mask.padding = true;
        break;
    }
    if (c.disableHead && c.heads > 1)
        p->editWeights().heads[1].enabled = false;
    // All four biases on (b_q, b_k, b_v, b_O; seeded, not constant, so that a bias added in
    // the wrong place or to the wrong head changes the numbers), except with one head, which
    // keeps the path without biases covered.
    if (c.heads != 1) {
        core::ModelWeights& w = p->editWeights();
        for (std::size_t h = 0; h < w.heads.size(); ++h) {
            auto& head = w.heads[h];
            const std::string name = "heads[" + std::to_string(h) + "].";
            head.bq = seededBias(w.dK, c.seed, name + "b_q");
            head.bk = seededBias(w.dK, c.seed, name + "b_k");
            head.bv = seededBias(w.dV, c.seed, name + "b_v");
        }
        w.bo = seededBias(w.dModel, c.seed, "b_o");
    }
    // A bilinear M that is not the identity.
    core::ModelWeights& w = p->editWeights();
    for (auto& head : w.heads)
        head.bilinear += core::Matrix::Constant(w.dK, w.dK, 0.01f);
    p->validate();
    return p;
}

// The worst cell of (|gpu - cpu| - allowance) / scale, with scale 1 (absolute) or max(1, |cpu|)
// (per cell relative); infinities and NaNs must match exactly. *where names the cell. The
// allowance (none when null) is what an earlier stage's accepted difference carries into this
// one (see compareResults).
//
// Why per cell with a floor of 1: a float32 product over n terms of size ~1 is off by about
// sqrt(n) * 6e-8 whatever its result, so a cell that cancels to near 0 (a score or an output
// component crossing zero) carries that absolute error and a pure relative bound would fail on
// rounding alone. Every matrix compared here is built from O(1) values (unit-scale embeddings,
// Xavier weights), so 1 is the operands' scale; above it each cell is held to its own size.
// The old bound, relative to the matrix's largest |value|, let a small cell be wrong by 100 %
// whenever another cell of the same matrix was 10^4 times larger.
float worstError(const core::Matrix& gpu, const core::Matrix& cpu, bool perCell, QString* where,
                 const core::Matrix* allowance = nullptr)
{
    if (gpu.rows() != cpu.rows() || gpu.cols() != cpu.cols()) {
        *where = QStringLiteral("shape %1x%2 vs %3x%4")
                     .arg(gpu.rows())
                     .arg(gpu.cols())
                     .arg(cpu.rows())
                     .arg(cpu.cols());
        return INFINITY;
    }
    float worst = 0.0f;
    for (Eigen::Index i = 0; i < gpu.rows(); ++i)
        for (Eigen::Index j = 0; j < gpu.cols(); ++j) {
            const float x = gpu(i, j);
            const float y = cpu(i, j);
            float d;
            if (std::isnan(x) || std::isnan(y))
                d = (std::isnan(x) && std::isnan(y)) ? 0.0f : INFINITY;
            else if (std::isinf(x) || std::isinf(y))
                d = x == y ? 0.0f : INFINITY;
            else
                d = std::max(0.0f, std::abs(x - y) - (allowance ? (*allowance)(i, j) : 0.0f)) /
                    (perCell ? std::max(1.0f, std::abs(y)) : 1.0f);
            if (d > worst) {
                worst = d;
                *where = QStringLiteral("(%1, %2): gpu %3 cpu %4")
                             .arg(i)
                             .arg(j)
                             .arg(double(x), 0, 'g', 9)
                             .arg(double(y), 0, 'g', 9);
            }
        }
    return worst;
}

#define EXPECT_WITHIN(gpuM, cpuM, tolerance, perCell, allowance, what)                             \
    do {                                                                                           \
        QString where_;                                                                            \
        const float d_ = worstError(gpuM, cpuM, perCell, &where_, allowance);                      \
        if (!(d_ <= (tolerance)))                                                                  \
            QFAIL(qPrintable(QStringLiteral("%1: error %2 > %3 at %4")                             \
                                 .arg(what)                                                        \
                                 .arg(double(d_))                                                  \
                                 .arg(double(tolerance))                                           \
                                 .arg(where_)));                                                   \
    } while (0)
// |gpu - cpu| <= tolerance in every cell.
#define EXPECT_ABS(gpuM, cpuM, tolerance, what)                                                    \
    EXPECT_WITHIN(gpuM, cpuM, tolerance, false, nullptr, what)
// |gpu - cpu| <= tolerance * max(1, |cpu|) in every cell.
#define EXPECT_REL(gpuM, cpuM, tolerance, what)                                                    \
    EXPECT_WITHIN(gpuM, cpuM, tolerance, true, nullptr, what)

// Hard attention: each GPU row is one-hot at the CPU's index (ties go to the lowest index on
// both), or all zero where the CPU's is (a fully masked row under -inf).
void expectSameHardIndex(const core::Matrix& gpu, const core::Matrix& cpu, const QString& what)
{
    QCOMPARE(gpu.rows(), cpu.rows());
    for (Eigen::Index i = 0; i < cpu.rows(); ++i) {
        Eigen::Index cpuIndex = -1;
        Eigen::Index gpuIndex = -1;
        const float cpuMax = cpu.row(i).maxCoeff(&cpuIndex);
        const float gpuMax = gpu.row(i).maxCoeff(&gpuIndex);
        if (cpuMax == 0.0f)
            cpuIndex = -1;
        if (gpuMax == 0.0f)
            gpuIndex = -1;
        if (gpuIndex != cpuIndex || (gpuIndex >= 0 && (gpuMax != 1.0f || gpu.row(i).sum() != 1.0f)))
            QFAIL(qPrintable(QStringLiteral("%1 row %2: gpu picks %3, cpu %4")
                                 .arg(what)
                                 .arg(i)
                                 .arg(gpuIndex)
                                 .arg(cpuIndex)));
    }
}

using MatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// One head's weights in double precision from the problem's float32 inputs (the value both
// backends round), and per row the bound that float32 rounding allows around it:
//   max(1e-5, C u kappa sigma),  u = 2^-24,
// sigma the row's largest |scaled score| (at least 1): the scores carry the rounding of two
// products whose terms are about that large, and the normalisation passes a score's error on
// to the weights (sparsemax weights are differences of scores, s_j - tau); kappa = 1/S for ReLU
// rows whose positive scores sum to S < 1 (the division amplifies every error by 1/S), else 1.
// C is twice the largest error either backend shows over the product below, in units of
// u kappa sigma: softmax 17 -> 32, ReLU 36 -> 64, sparsemax 47 -> 96; none (the scores
// themselves) 32.
// Softmax, ReLU, sparsemax and none only (hard weights are exact); a row with every key masked is
// NaN (its weights are exact zeros or uniform: nothing to round).
MatrixD exactWeights(const core::Problem& p, std::size_t h, std::vector<double>* tolerance)
{
    const core::HeadWeights& w = p.weights->heads[h];
    auto project = [](const core::Matrix& x, const core::Matrix& wm, const core::RowVector& b) {
        MatrixD m = x.cast<double>() * wm.cast<double>();
        if (b.size() > 0)
            m.rowwise() += b.cast<double>();
        return m;
    };
    // RotarySpec's rotate-half turn of row i by (firstPosition + i) theta_j, in double.
    auto rotate = [&p](MatrixD m) {
        const Eigen::Index half = m.cols() / 2;
        for (Eigen::Index i = 0; i < m.rows() && p.rotary.enabled(); ++i)
            for (Eigen::Index j = 0; j < half; ++j) {
                const double angle = double(p.rotary.firstPosition + i) *
                                     double(p.rotary.inverseFrequencies[std::size_t(j)]);
                const double a = m(i, j);
                const double b = m(i, j + half);
                m(i, j) = a * std::cos(angle) - b * std::sin(angle);
                m(i, j + half) = b * std::cos(angle) + a * std::sin(angle);
            }
        return m;
    };
    const MatrixD q = rotate(project(p.queryInput(), w.Wq, w.bq));
    const MatrixD k = rotate(project(p.keyInput(), w.Wk, w.bk));
    const core::Mask mask = p.makeMask();
    MatrixD out = MatrixD::Zero(q.rows(), k.rows());
    tolerance->assign(std::size_t(q.rows()), 1e-5);
    std::vector<double> s(std::size_t(k.rows()));
    for (Eigen::Index i = 0; i < q.rows(); ++i) {
        std::vector<Eigen::Index> live;
        double sigma = 1.0;
        for (Eigen::Index j = 0; j < k.rows(); ++j) {
            if (mask.isMasked(int(i), int(j)))
                continue; // weighs 0 beside any live key, with either fill
            live.push_back(j);
            double e = 0.0;
            switch (p.score) {
            case ScoreKind::Dot:
            case ScoreKind::ScaledDot:
                e = q.row(i).dot(k.row(j));
                break;
            case ScoreKind::Bilinear:
                e = (q.row(i) * w.bilinear.cast<double>()).dot(k.row(j));
                break;
            case ScoreKind::Cosine: {
                const double norms = q.row(i).norm() * k.row(j).norm();
                e = norms > 0.0 ? q.row(i).dot(k.row(j)) / norms : 0.0;
                break;
            }
            case ScoreKind::Additive:
                for (Eigen::Index d = 0; d < q.cols(); ++d)
                    e += double(w.wAdditive(d)) * std::tanh(q(i, d) + k(j, d));
                break;
            }
            s[std::size_t(j)] = e * double(p.scoreScale());
            sigma = std::max(sigma, std::abs(s[std::size_t(j)]));
            if (p.normalization == Normalization::None) {
                // The weight is the score itself: its rounding is that of the products' terms,
                // which can be far larger than a score that cancels (|q . k| <= |q| |k|).
                double terms = 1.0;
                switch (p.score) {
                case ScoreKind::Dot:
                case ScoreKind::ScaledDot:
                    terms = q.row(i).norm() * k.row(j).norm();
                    break;
                case ScoreKind::Bilinear:
                    terms = q.row(i).norm() * w.bilinear.cast<double>().norm() * k.row(j).norm();
                    break;
                case ScoreKind::Additive:
                    terms = w.wAdditive.cast<double>().cwiseAbs().sum();
                    break;
                case ScoreKind::Cosine:
                    terms = 1.0;
                    break;
                }
                sigma = std::max(sigma, terms * std::abs(double(p.scoreScale())));
            }
        }
        if (live.empty() || p.normalization == Normalization::Hard) {
            out.row(i).setConstant(NAN);
            continue;
        }
        double kappa = 1.0;
        double sum = 0.0;
        double units = 32.0; // C, in units of u kappa sigma
        switch (p.normalization) {
        case Normalization::Softmax: {
            double max = -INFINITY;
            for (Eigen::Index j : live)
                max = std::max(max, s[std::size_t(j)]);
            for (Eigen::Index j : live)
                sum += out(i, j) = std::exp(s[std::size_t(j)] - max);
            break;
        }
        case Normalization::Relu:
            for (Eigen::Index j : live)
                sum += out(i, j) = std::max(0.0, s[std::size_t(j)]);
            kappa = sum > 0.0 ? std::max(1.0, 1.0 / sum) : 1.0;
            units = 64.0;
            sum = sum > 0.0 ? sum : 1.0; // no positive score: all zeros
            break;
        case Normalization::Sparsemax: {
            // Martins & Astudillo 2016: tau from the largest k scores with 1 + k z_k > their sum.
            std::vector<double> z;
            for (Eigen::Index j : live)
                z.push_back(s[std::size_t(j)]);
            std::sort(z.begin(), z.end(), std::greater<>());
            double prefix = 0.0;
            double tau = 0.0;
            for (std::size_t r = 0; r < z.size(); ++r) {
                prefix += z[r];
                if (1.0 + double(r + 1) * z[r] > prefix)
                    tau = (prefix - 1.0) / double(r + 1);
            }
            for (Eigen::Index j : live)
                out(i, j) = std::max(0.0, s[std::size_t(j)] - tau);
            sum = 1.0;
            units = 96.0;
            break;
        }
        case Normalization::None:
            // The scaled scores themselves (seed 004's (X X^T) V): their own rounding only.
            for (Eigen::Index j : live)
                out(i, j) = s[std::size_t(j)];
            sum = 1.0;
            break;
        case Normalization::Hard:
            break;
        }
        out.row(i) /= sum;
        (*tolerance)[std::size_t(i)] = std::max(1e-5, units * std::ldexp(1.0, -24) * kappa * sigma);
    }
    return out;
}

// GPU weights within 1e-5 of the CPU's in every cell. float32 cannot always meet
// that: on some rows of the full product the CPU reference itself is off the exact weights by
// up to 2e-5 (sparsemax at scores near 50, whose float32 spacing is 4e-6; ReLU rows whose
// positive scores sum to 0.02). On a row where the two differ by more than 1e-5, both must be
// within the rounding bound of exactWeights instead; a wrong result still fails. Those rows go
// to *roundingRows.
void expectWeightsMatch(const core::Matrix& gpu, const core::Matrix& cpu,
                        const core::AttentionResult& cpuResult, std::size_t head,
                        const QString& what, std::vector<Eigen::Index>* roundingRows)
{
    QString where;
    if (worstError(gpu, cpu, false, &where) <= 1e-5f)
        return;
    const core::Problem& p = *cpuResult.problem;
    if (cpuResult.pooling.pooled || p.normalization == Normalization::Hard ||
        cpuResult.diagnostics.nonFinite)
        QFAIL(qPrintable(QStringLiteral("%1: |gpu - cpu| > 1e-5 at %2").arg(what, where)));
    std::vector<double> tolerance;
    const MatrixD exact = exactWeights(p, head, &tolerance);
    for (Eigen::Index i = 0; i < cpu.rows(); ++i) {
        const double rowDiff = (gpu.row(i) - cpu.row(i)).cwiseAbs().maxCoeff();
        if (rowDiff <= 1e-5)
            continue;
        const double gpuError = (gpu.row(i).cast<double>() - exact.row(i)).cwiseAbs().maxCoeff();
        const double cpuError = (cpu.row(i).cast<double>() - exact.row(i)).cwiseAbs().maxCoeff();
        const double bound = tolerance[std::size_t(i)];
        roundingRows->push_back(i);
        if (!(gpuError <= bound && cpuError <= bound))
            QFAIL(qPrintable(QStringLiteral("%1 row %2: |gpu - cpu| = %3; off the exact weights "
                                            "by %4 (gpu), %5 (cpu), rounding allows %6")
                                 .arg(what)
                                 .arg(i)
                                 .arg(rowDiff)
                                 .arg(gpuError)
                                 .arg(cpuError)
                                 .arg(bound)));
    }
}

// Outputs: 1e-4 relative per cell. On the rows whose weights were judged by the
// rounding bound (expectWeightsMatch), the outputs also carry that accepted difference:
// b_i = sum_j w_ij v_j moves by up to sum_j |dw_ij| |v_j|, and the final row by
// |d concat_i| |W_O|; that much is allowed on those rows on top of 1e-4, nowhere else.
void compareResults(const core::AttentionResult& gpu, const core::AttentionResult& cpu)
{
    QCOMPARE(gpu.backend, std::string("Vulkan"));
    QCOMPARE(gpu.heads.size(), cpu.heads.size());
    QCOMPARE(gpu.intermediatesKept, cpu.intermediatesKept);
    QCOMPARE(gpu.pooling.pooled, cpu.pooling.pooled);
    QCOMPARE(gpu.pooling.rowBlock, cpu.pooling.rowBlock);
    QCOMPARE(gpu.pooling.colBlock, cpu.pooling.colBlock);
    EXPECT_REL(gpu.queryInput(), cpu.queryInput(), 1e-6f, "X_q");
    EXPECT_REL(gpu.keyInput(), cpu.keyInput(), 1e-6f, "X_kv");
    std::vector<Eigen::Index> anyHeadRows; // rows judged by the rounding bound in some head
    for (std::size_t h = 0; h < cpu.heads.size(); ++h) {
        const core::HeadResult& g = gpu.heads[h];
        const core::HeadResult& c = cpu.heads[h];
        const QString head = QStringLiteral("head %1 ").arg(h);
        QCOMPARE(g.enabled, c.enabled);
        EXPECT_REL(g.Q, c.Q, 1e-5f, head + "Q");
        EXPECT_REL(g.K, c.K, 1e-5f, head + "K");
        EXPECT_REL(g.V, c.V, 1e-5f, head + "V");
        if (c.rotatedQ.size() && cpu.intermediatesKept) {
            // The same float products of the same cos and sin (tabled in double by both).
            EXPECT_REL(g.rotatedQ, c.rotatedQ, 1e-5f, head + "rotated Q");
            EXPECT_REL(g.rotatedK, c.rotatedK, 1e-5f, head + "rotated K");
        } else {
            // Without rotary, or not kept (the Vulkan backend reads them back with the other
            // intermediates only; the CPU has them at no cost).
            QVERIFY(g.rotatedQ.size() == 0 && g.rotatedK.size() == 0);
        }
        std::vector<Eigen::Index> rows;
        expectWeightsMatch(g.weights, c.weights, cpu, h, head + "weights", &rows);
        if (cpu.problem->normalization == Normalization::Hard && !cpu.pooling.pooled)
            expectSameHardIndex(g.weights, c.weights, head + "hard weights");
        // Without normalization the weights do not sum to 1: every row carries its accepted
        // weight differences (T of them, each up to the scores' rounding) into the output.
        if (cpu.problem->normalization == Normalization::None && !cpu.pooling.pooled) {
            rows.clear();
            for (Eigen::Index i = 0; i < c.weights.rows(); ++i)
                rows.push_back(i);
        }
        core::Matrix carried = core::Matrix::Zero(c.output.rows(), c.output.cols());
        for (Eigen::Index i : rows)
            carried.row(i) = (g.weights.row(i) - c.weights.row(i)).cwiseAbs() * c.V.cwiseAbs();
        if (cpu.problem->normalization == Normalization::None && !cpu.pooling.pooled) {
            // ...and the product's own rounding, sqrt(T) u sum_j |w_ij| |v_j|: with weights that
            // sum to 1 the floor of 1 in the relative bound covers it, with scores it does not.
            const float u = std::ldexp(1.0f, -24);
            carried += (2.0f * std::sqrt(float(c.weights.cols())) * u) *
                       (c.weights.cwiseAbs() * c.V.cwiseAbs());
        }
        EXPECT_WITHIN(g.output, c.output, 1e-4f, true, &carried, head + "output");
        anyHeadRows.insert(anyHeadRows.end(), rows.begin(), rows.end());
        if (cpu.intermediatesKept) {
            // Scores near 0 come from cancellation (seen: 3e-9 on a score of 4e-5 at T = 1):
            // the floor of 1 in EXPECT_REL covers them.
            EXPECT_REL(g.rawScores, c.rawScores, 1e-4f, head + "raw scores");
            EXPECT_REL(g.scaledScores, c.scaledScores, 1e-4f, head + "scaled scores");
            EXPECT_REL(g.maskedScores, c.maskedScores, 1e-4f, head + "masked scores");
        } else {
            QVERIFY(g.rawScores.size() == 0 && g.scaledScores.size() == 0 &&
                    g.maskedScores.size() == 0);
        }
    }
    // concat holds the head outputs checked above (zeros for disabled heads), exactly.
    for (std::size_t h = 0; h < cpu.heads.size(); ++h) {
        const Eigen::Index dv = cpu.heads[h].output.cols();
        const core::Matrix expected =
            gpu.heads[h].enabled ? gpu.heads[h].output
                                 : core::Matrix(core::Matrix::Zero(gpu.concat().rows(), dv));
        EXPECT_ABS(core::Matrix(gpu.concat().middleCols(Eigen::Index(h) * dv, dv)), expected, 0.0f,
                   QStringLiteral("concat of head %1").arg(h));
    }
    core::Matrix carried = core::Matrix::Zero(cpu.output.rows(), cpu.output.cols());
    for (Eigen::Index i : anyHeadRows)
        carried.row(i) = (gpu.concat().row(i) - cpu.concat().row(i)).cwiseAbs() *
                         cpu.problem->weights->Wo.cwiseAbs();
    EXPECT_WITHIN(gpu.output, cpu.output, 1e-4f, true, &carried, "output");
    QCOMPARE(gpu.diagnostics.fullyMaskedRows, cpu.diagnostics.fullyMaskedRows);
    QCOMPARE(gpu.diagnostics.zeroSumRows, cpu.diagnostics.zeroSumRows);
    QCOMPARE(gpu.diagnostics.nonFinite, cpu.diagnostics.nonFinite);
    QVERIFY(gpu.diagnostics.warnings == cpu.diagnostics.warnings);
}

template <typename F> bool throwsError(F f)
{
    try {
        f();
    } catch (const core::Error&) {
        return true;
    } catch (...) {
        return false;
    }
    return false;
}

QString caseName(const Case& c)
{
    return QStringLiteral("T%1x%2 h%3 %4 %5 %6 %7 %8%9%10%11")
        .arg(c.tq)
        .arg(c.tk)
        .arg(c.heads)
        .arg(c.cross ? "cross" : "self")
        .arg(QString::fromUtf8(core::toString(c.score).data()))
        .arg(QString::fromUtf8(core::toString(c.normalization).data()))
        .arg(maskName(c.mask))
        .arg(QString::fromUtf8(core::toString(c.fill).data()))
        .arg(c.disableHead ? " off1" : "")
        .arg(c.keep ? "" : " nokeep")
        .arg(c.rotary ? QStringLiteral(" rotary dk%1").arg(c.dk) : QString());
}

} // namespace

Q_DECLARE_METATYPE(Case)

class TestVulkanBackend : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void cleanupTestCase();

    void matchesCpuShortInputs_data();
    void matchesCpuShortInputs();
    void matchesCpuAt64_data();
    void matchesCpuAt64();
    void matchesCpuAt257_data();
    void matchesCpuAt257();
    void sharedMemoryVariantMatchesCpu_data();
    void sharedMemoryVariantMatchesCpu();
    void rotaryMatchesCpu_data();
    void rotaryMatchesCpu();
    void stagingPathMatchesCpu();
    void biasesMatchCpu_data();
    void biasesMatchCpu();
    void scoreBiasMatchesCpu_data();
    void scoreBiasMatchesCpu();
    void stageTimesAreReported_data();
    void stageTimesAreReported();
    void weightsIdenticalWithOrWithoutIntermediates();
    void nonFiniteScoresMatchCpu_data();
    void nonFiniteScoresMatchCpu();
    void pooling_data();
    void pooling();
    void chunkedRowsMatchCpu_data();
    void chunkedRowsMatchCpu();
    void editsReuseTheRecordedPlan_data();
    void editsReuseTheRecordedPlan();
    void weightSetsStayOnTheDevice();
    void deviceSelection();
    void pipelineCachePersists();
    void faultsFallBackToCpu_data();
    void faultsFallBackToCpu();

private:
    void matchesCpu();
    void runCase(gpu::VulkanBackend& backend, const Case& c,
                 const core::ComputeOptions& options = {});
    gpu::VulkanBackend& sharedMemoryBackend();

    std::unique_ptr<gpu::VulkanBackend> m_backend;
    core::CpuBackend m_cpu;
};

void TestVulkanBackend::initTestCase()
{
    // The validation layer and its messenger, before any instance exists.
    qputenv("ATTN_VK_VALIDATION", "1");
    qunsetenv("ATTN_VK_FAULT");
    qunsetenv("ATTN_VK_DEVICE");
    qunsetenv("ATTN_VK_FORCE_STAGING");
    qunsetenv("ATTN_VK_CHUNK_BYTES");
    QStandardPaths::setTestModeEnabled(true); // the pipeline cache goes to ~/.qttest
    try {
        // The device's own shader shape, unless ATTN_VK_VARIANT=registers|shared asks for one
        // (to run the whole product on the other shape); the tests below set it themselves.
        m_backend = gpu::VulkanBackend::create();
        qunsetenv("ATTN_VK_VARIANT");
    } catch (const std::exception& e) {
        if (qgetenv("CI") == "true")
            QFAIL(qPrintable(QStringLiteral("CI=true and no Vulkan device: %1").arg(e.what())));
        QSKIP(qPrintable(QStringLiteral("no Vulkan device: %1").arg(e.what())));
    }
    QVERIFY2(m_backend->validationEnabled(),
             "VK_LAYER_KHRONOS_validation is missing (vulkan-validationlayers)");
    qInfo("device: %s, %s shader shape", gpu::describe(m_backend->device()).c_str(),
          m_backend->variant() == gpu::ShaderVariant::Registers ? "registers" : "shared-memory");
}

void TestVulkanBackend::cleanup()
{
    QCOMPARE(gpu::validationMessageCount(), 0);
}

void TestVulkanBackend::cleanupTestCase()
{
    m_backend.reset(); // destruction is validated too
    QCOMPARE(gpu::validationMessageCount(), 0);
}

void TestVulkanBackend::runCase(gpu::VulkanBackend& backend, const Case& c,
                                const core::ComputeOptions& options)
{
    auto problem = makeProblem(c);
    const auto cpu = m_cpu.compute(problem, options);
    const auto gpu = backend.compute(problem, options);
    compareResults(*gpu, *cpu);
}

namespace {

// The product of settings: every score x normalisation x mask, h in {1, 3, 8}, self and cross
// attention, at each T of `lengths`; every mask with both fill values (-inf, -9e15), the
// unmasked rows once (the fill changes nothing there). Cross-attention has Tk != Tq (T + 2
// keys for short inputs, fewer keys than queries at 64 and 257). Seeded random weights, a new
// seed per row. The rest varies along the rows rather than multiplying them: temperature 0.5
// or 1, a disabled head, and whether the intermediates are read back (scores compared then).
// With Spread::Cycle, h, self/cross and the fill also vary along the rows instead (every
// score x normalisation x mask still appears at each T).
//
// Rows come in groups that share the backend's recorded plan (its key: sizes, score,
// normalisation, kept intermediates, custom cells or not): the first row of a group records
// it, the others only upload new weights, mask rules and fill, as an edit in the app does.
// That keeps the 7,800 rows of the product near half a minute on lavapipe, validation on.
enum class Spread { Product, Cycle };

void addCombinationRows(std::initializer_list<int> lengths, std::uint64_t firstSeed, Spread spread)
{
    // kMasks with the custom cells last: they are part of the plan's key.
    constexpr MaskCase masks[] = {MaskCase::None,   MaskCase::Causal,       MaskCase::Padding,
                                  MaskCase::Window, MaskCase::WindowCausal, MaskCase::CausalPadding,
                                  MaskCase::Custom};
    static_assert(std::size(masks) == std::size(kMasks));
    constexpr int kHeads[] = {1, 3, 8};
    const bool product = spread == Spread::Product;
    QTest::addColumn<Case>("c");
    int n = 0;
    int group = 0;
    for (int t : lengths)
        for (int side = 0; side < (product ? 2 : 1); ++side)
            for (int h = 0; h < (product ? 3 : 1); ++h)
                for (ScoreKind score : kScores)
                    for (Normalization norm : kNorms) {
                        ++group;
                        for (MaskCase mask : masks)
                            for (int f = 0; f < (product && mask != MaskCase::None ? 2 : 1); ++f) {
                                Case c;
                                c.tq = t;
                                c.cross = product ? side == 1 : n % 2 == 1;
                                c.tk = !c.cross ? t : (t <= 7 ? t + 2 : t / 2 + 2);
                                c.heads = kHeads[product ? h : n % 3];
                                c.score = score;
                                c.normalization = norm;
                                c.mask = mask;
                                c.fill = (product ? f : (n / 2) % 2) == 0
                                             ? MaskFill::NegativeInfinity
                                             : MaskFill::MinusNineE15;
                                c.temperature = n % 5 == 0 ? 0.5f : 1.0f;
                                c.disableHead = n % 4 == 1;
                                c.keep = group % 3 != 0;
                                c.seed = firstSeed + std::uint64_t(n++);
                                QTest::newRow(qPrintable(caseName(c))) << c;
                            }
                    }
}

} // namespace

// Split by T so that ctest's log shows where the time goes; one backend serves every row.
void TestVulkanBackend::matchesCpuShortInputs_data()
{
    addCombinationRows({1, 2, 7}, 100, Spread::Product);
}

void TestVulkanBackend::matchesCpuShortInputs()
{
    matchesCpu();
}

void TestVulkanBackend::matchesCpuAt64_data()
{
    addCombinationRows({64}, 10000, Spread::Product);
}

void TestVulkanBackend::matchesCpuAt64()
{
    matchesCpu();
}

void TestVulkanBackend::matchesCpuAt257_data()
{
    addCombinationRows({257}, 20000, Spread::Product);
}

void TestVulkanBackend::matchesCpuAt257()
{
    matchesCpu();
}

void TestVulkanBackend::matchesCpu()
{
    QFETCH(Case, c);
    const core::ComputeOptions options = readBack(c.keep);
    runCase(*m_backend, c, options);
}

void TestVulkanBackend::sharedMemoryVariantMatchesCpu_data()
{
    addCombinationRows({2, 7, 70, 257}, 30000, Spread::Cycle);
}

// The GPU shapes (shared-memory tiles, subgroup reductions) run on lavapipe too, so the
// variant a discrete GPU gets is tested here even without one: every score x normalisation x
// mask at T = 2, 7, 70 (across a 64-row tile) and 257, with h, self/cross and the fill cycling.
// The full product on this variant passes too (ATTN_VK_VARIANT=shared ./tst_vulkan_backend)
// but takes 90 s on lavapipe, three times the registers shape, so CI runs this cycle of it.
void TestVulkanBackend::sharedMemoryVariantMatchesCpu()
{
    QFETCH(Case, c);
    const core::ComputeOptions options = readBack(c.keep);
    runCase(sharedMemoryBackend(), c, options);
}

gpu::VulkanBackend& TestVulkanBackend::sharedMemoryBackend()
{
    static std::unique_ptr<gpu::VulkanBackend> shared;
    if (!shared) {
        qputenv("ATTN_VK_VARIANT", "shared");
        shared = gpu::VulkanBackend::create();
        qunsetenv("ATTN_VK_VARIANT");
    }
    if (shared->variant() != gpu::ShaderVariant::SharedMemory)
        qFatal("ATTN_VK_VARIANT=shared was not honoured");
    return *shared;
}

void TestVulkanBackend::rotaryMatchesCpu_data()
{
    QTest::addColumn<Case>("c");
    QTest::addColumn<bool>("shared");
    // d_k = 2 (one pair), 6 (3 pairs: the second half starts inside a texel, and d_k4 = 8 pads
    // it; Qwen2's head width), 8, 64 (Llama's 64 and 128 alike); T = 1, 7, 64 (a whole tile)
    // and 130 (across tiles); the causal masks real models use, with and without the
    // intermediates read back. Every score kind sees the rotated vectors once.
    int n = 0;
    for (int dk : {2, 6, 8, 64})
        for (int t : {1, 7, 64, 130})
            for (MaskCase mask : {MaskCase::None, MaskCase::Causal, MaskCase::WindowCausal}) {
                Case c;
                c.tq = c.tk = t;
                c.dk = dk;
                c.rotary = true;
                c.heads = (n % 3 == 0) ? 1 : (n % 3 == 1 ? 3 : 8);
                c.mask = mask;
                c.keep = n % 2 == 0;
                c.disableHead = n % 5 == 1;
                c.score = n % 7 == 3 ? kScores[std::size_t(n / 7) % std::size(kScores)]
                                     : ScoreKind::ScaledDot;
                c.fill = n % 4 == 2 ? MaskFill::MinusNineE15 : MaskFill::NegativeInfinity;
                c.seed = 40000 + std::uint64_t(n++);
                QTest::newRow(qPrintable(caseName(c))) << c << false;
            }
    Case cross;
    cross.tq = 9;
    cross.tk = 14;
    cross.cross = true;
    cross.heads = 3;
    cross.dk = 6;
    cross.rotary = true;
    cross.mask = MaskCase::Padding;
    cross.seed = 40999;
    QTest::newRow(qPrintable(caseName(cross))) << cross << false;
    // The shared-memory (GPU) shape reads the same rotated buffer.
    for (int t : {7, 70}) {
        Case c;
        c.tq = c.tk = t;
        c.heads = 3;
        c.dk = 6;
        c.rotary = true;
        c.mask = MaskCase::Causal;
        c.keep = t == 7;
        c.seed = 41000 + std::uint64_t(t);
        QTest::newRow(qPrintable(caseName(c) + QStringLiteral(" shared"))) << c << true;
    }
}

// Rotary positions (Llama, Mistral, Qwen2): Q' and K' from the rotary stage, and every score
// from them, as the CPU backend computes them.
void TestVulkanBackend::rotaryMatchesCpu()
{
    QFETCH(Case, c);
    QFETCH(bool, shared);
    const core::ComputeOptions options = readBack(c.keep);
    runCase(shared ? sharedMemoryBackend() : *m_backend, c, options);
}

// The staging-buffer path a discrete GPU takes (device-local buffers, copies both ways).
void TestVulkanBackend::stagingPathMatchesCpu()
{
    qputenv("ATTN_VK_FORCE_STAGING", "1");
    auto staged = gpu::VulkanBackend::create();
    qunsetenv("ATTN_VK_FORCE_STAGING");
    Case c;
    c.tq = 33;
    c.tk = 20;
    c.cross = true;
    c.heads = 3;
    c.mask = MaskCase::CausalPadding;
    runCase(*staged, c);
    c.cross = false;
    c.tk = c.tq;
    c.score = ScoreKind::Additive;
    c.normalization = Normalization::Sparsemax;
    core::ComputeOptions pooled;
    pooled.viewRows = 8;
    pooled.viewCols = 8;
    pooled.keepIntermediates = false;
    runCase(*staged, c, pooled);
    // The rotary angles go up through staging, Q' and K' come back through it.
    c.score = ScoreKind::ScaledDot;
    c.normalization = Normalization::Softmax;
    c.mask = MaskCase::Causal;
    c.dk = 6;
    c.rotary = true;
    runCase(*staged, c);
}

void TestVulkanBackend::biasesMatchCpu_data()
{
    QTest::addColumn<int>("score");
    QTest::addColumn<QString>("biases");
    for (ScoreKind score : kScores)
        for (const char* biases : {"q", "k", "v", "o", "qkvo"})
            QTest::newRow(qPrintable(QStringLiteral("%1 b_%2")
                                         .arg(QString::fromUtf8(core::toString(score).data()))
                                         .arg(QLatin1String(biases))))
                << int(score) << QString::fromLatin1(biases);
}

// Each bias alone and all four together, on the hand-worked example of tst_cpu_backend (whose
// values the CPU test derives on paper) and on a random 3-head cross-attention problem.
void TestVulkanBackend::biasesMatchCpu()
{
    QFETCH(int, score);
    QFETCH(QString, biases);
    // Removes the biases whose letter is not in `kept`.
    auto keepOnly = [](core::Problem& p, const QString& kept) {
        core::ModelWeights& w = p.editWeights();
        for (auto& head : w.heads) {
            if (!kept.contains(QLatin1Char('q')))
                head.bq.resize(0);
            if (!kept.contains(QLatin1Char('k')))
                head.bk.resize(0);
            if (!kept.contains(QLatin1Char('v')))
                head.bv.resize(0);
        }
        if (!kept.contains(QLatin1Char('o')))
            w.bo.resize(0);
    };
    auto hand = test::handProblemWithBiases(ScoreKind(score), Normalization::Softmax);
    keepOnly(*hand, biases);
    Case c;
    c.tq = 9;
    c.tk = 6;
    c.cross = true;
    c.heads = 3;
    c.score = ScoreKind(score);
    c.mask = MaskCase::Padding;
    auto random = makeProblem(c);
    keepOnly(*random, biases);
    for (const auto& problem : {hand, random}) {
        const auto gpu = m_backend->compute(problem, {});
        compareResults(*gpu, *m_cpu.compute(problem, {}));
        // Each bias reaches its own matrix: Q, K and V (and the output, when b_O is alone)
        // move by exactly that bias in every row; the others stay.
        auto unbiased = std::make_shared<core::Problem>(*problem);
        keepOnly(*unbiased, QString());
        const auto plain = m_backend->compute(unbiased, {});
        auto expectShift = [](const core::Matrix& with, const core::Matrix& without,
                              const core::RowVector& bias, const QString& what) {
            if (bias.size() == 0) {
                EXPECT_REL(with, without, 0.0f, what + " without its bias");
            } else {
                QVERIFY(bias.cwiseAbs().maxCoeff() > 0.01f);
                EXPECT_REL(with, core::Matrix(without.rowwise() + bias), 1e-5f, what + " + bias");
            }
        };
        for (std::size_t h = 0; h < problem->weights->heads.size(); ++h) {
            const core::HeadWeights& w = problem->weights->heads[h];
            expectShift(gpu->heads[h].Q, plain->heads[h].Q, w.bq, QStringLiteral("Q"));
            expectShift(gpu->heads[h].K, plain->heads[h].K, w.bk, QStringLiteral("K"));
            expectShift(gpu->heads[h].V, plain->heads[h].V, w.bv, QStringLiteral("V"));
        }
        if (biases == QLatin1String("o"))
            expectShift(gpu->output, plain->output, problem->weights->bo, QStringLiteral("output"));
    }
}

void TestVulkanBackend::scoreBiasMatchesCpu_data()
{
    QTest::addColumn<Case>("c");
    QTest::addColumn<bool>("staging");
    // T5's shapes: self-attention, causal (the decoder) or not (the encoder), several heads,
    // T across a tile; the scores read back or not, temperature 1 (T5) and 0.5, each score
    // kind once; the last through the staging buffers of a discrete GPU.
    int n = 0;
    for (const auto& [t, mask] :
         {std::pair{1, MaskCase::Causal}, std::pair{7, MaskCase::None},
          std::pair{7, MaskCase::Causal}, std::pair{70, MaskCase::Causal}}) {
        Case c;
        c.tq = c.tk = t;
        c.heads = n % 2 == 0 ? 3 : 8;
        c.mask = mask;
        c.keep = n % 2 == 1;
        c.temperature = n % 3 == 2 ? 0.5f : 1.0f;
        c.score = kScores[std::size_t(n) % std::size(kScores)];
        c.seed = 45000 + std::uint64_t(n++);
        QTest::newRow(qPrintable(caseName(c))) << c << false;
    }
    Case staged;
    staged.tq = staged.tk = 9;
    staged.heads = 3;
    staged.mask = MaskCase::Causal;
    staged.score = ScoreKind::Cosine; // the one kind the rows above leave out
    staged.seed = 45999;
    QTest::newRow(qPrintable(caseName(staged) + QStringLiteral(" staging"))) << staged << true;
}

// A per-head score bias (Problem::scoreBias; T5's relative position bias): the hand-worked
// problem of tst_cpu_backend, then seeded problems with a seeded bias; a second bias on the same
// recorded plan scores every head again.
void TestVulkanBackend::scoreBiasMatchesCpu()
{
    QFETCH(Case, c);
    QFETCH(bool, staging);
    std::unique_ptr<gpu::VulkanBackend> stagingBackend;
    if (staging) {
        qputenv("ATTN_VK_FORCE_STAGING", "1");
        stagingBackend = gpu::VulkanBackend::create();
        qunsetenv("ATTN_VK_FORCE_STAGING");
    }
    gpu::VulkanBackend& backend = staging ? *stagingBackend : *m_backend;
    const core::ComputeOptions options = readBack(c.keep);
    auto hand = test::handProblemWithScoreBias();
    compareResults(*backend.compute(hand, options), *m_cpu.compute(hand, options));

    auto problem = makeProblem(c);
    auto biased = [&](float spread, const std::string& name) {
        core::Matrix bias(Eigen::Index(c.heads) * c.tq, c.tk);
        core::initialiseMatrix(bias, core::WeightInit::Xavier, c.seed, name);
        auto p = std::make_shared<core::Problem>(*problem);
        p->scoreBias = std::make_shared<const core::Matrix>(bias * spread);
        return p;
    };
    // (compareResults compares the raw, scaled and masked scores when they are read back.)
    for (const auto& p : {biased(4.0f, "bias"), biased(2.0f, "another bias")})
        compareResults(*backend.compute(p, options), *m_cpu.compute(p, options));
}

void TestVulkanBackend::stageTimesAreReported_data()
{
    QTest::addColumn<Case>("c");
    QTest::addColumn<int>("view");
    Case c;
    c.tq = c.tk = 64;
    c.heads = 8;
    c.mask = MaskCase::Causal;
    QTest::newRow("full weights, intermediates") << c << 0;
    c.keep = false;
    QTest::newRow("full weights") << c << 0;
    QTest::newRow("pooled") << c << 16;
    c.cross = true;
    c.tk = 20;
    c.score = ScoreKind::Bilinear;
    QTest::newRow("cross, bilinear") << c << 0;
}

// Timestamp queries around each stage, the result carries GPU milliseconds per stage.
// lavapipe (and every GPU we target) has timestamps on its compute queue, so they must be there.
void TestVulkanBackend::stageTimesAreReported()
{
    QFETCH(Case, c);
    QFETCH(int, view);
    auto problem = makeProblem(c);
    const core::ComputeOptions options = readBack(c.keep, view);
    const auto gpu = m_backend->compute(problem, options);
    const auto cpu = m_cpu.compute(problem, options);
    std::vector<std::string> expected = {"embed + project", "scores + mask + normalize",
                                         "weights x V", "concat + W_O"};
    if (view > 0)
        expected.insert(expected.begin() + 3, "pool");
    std::vector<std::string> names;
    double total = 0.0;
    for (const core::StageTime& stage : gpu->diagnostics.stages) {
        names.push_back(stage.stage);
        total += stage.milliseconds;
        QVERIFY2(stage.milliseconds > 0.0 && std::isfinite(stage.milliseconds),
                 stage.stage.c_str());
    }
    QCOMPARE(names, expected);
    // The same stages, in the same order, as the CPU backend reports.
    std::vector<std::string> cpuNames;
    for (const core::StageTime& stage : cpu->diagnostics.stages)
        cpuNames.push_back(stage.stage);
    QCOMPARE(cpuNames, expected);
    // GPU time is spent inside the compute call's wall time.
    QVERIFY2(total <= gpu->diagnostics.computeMilliseconds,
             qPrintable(QStringLiteral("stages %1 ms, compute %2 ms")
                            .arg(total)
                            .arg(gpu->diagnostics.computeMilliseconds)));
}

// As on the CPU, the weights do not depend on whether the intermediates are kept.
void TestVulkanBackend::weightsIdenticalWithOrWithoutIntermediates()
{
    for (MaskCase mask : {MaskCase::None, MaskCase::Causal, MaskCase::Window}) {
        Case c;
        c.tq = c.tk = 70;
        c.heads = 3;
        c.mask = mask;
        auto problem = makeProblem(c);
        core::ComputeOptions keep;
        core::ComputeOptions lean;
        lean.keepIntermediates = false;
        const auto a = m_backend->compute(problem, keep);
        const auto b = m_backend->compute(problem, lean);
        for (std::size_t h = 0; h < a->heads.size(); ++h)
            QVERIFY(a->heads[h].weights == b->heads[h].weights);
    }
}

void TestVulkanBackend::nonFiniteScoresMatchCpu_data()
{
    QTest::addColumn<int>("normalization");
    QTest::addColumn<bool>("nan");
    for (Normalization n : kNorms) {
        QTest::newRow(qPrintable(QStringLiteral("+inf %1").arg(core::toString(n).data())))
            << int(n) << false;
        QTest::newRow(qPrintable(QStringLiteral("+inf and -inf %1").arg(core::toString(n).data())))
            << int(n) << true;
    }
}

// Scores that overflow float32: +inf cells share their row, a NaN makes the row NaN, and the
// diagnostics name the place, as on the CPU.
void TestVulkanBackend::nonFiniteScoresMatchCpu()
{
    QFETCH(int, normalization);
    QFETCH(bool, nan);
    std::shared_ptr<core::Problem> problem;
    if (nan) {
        // Mixed signs: products overflow to +inf and -inf in the same sum.
        Case c;
        c.tq = c.tk = 9;
        c.heads = 3;
        c.normalization = Normalization(normalization);
        problem = makeProblem(c);
        problem->editWeights().heads[1].Wq *= 1e20f;
        problem->editWeights().heads[1].Wk *= 1e20f;
    } else {
        // Seed 001's one-hot example with huge positive weights: q.k is +inf where both are
        // non-zero, 0 elsewhere.
        problem = test::handProblem(ScoreKind::Dot, Normalization(normalization));
        problem->editWeights().heads[0].Wq *= 1e20f;
        problem->editWeights().heads[0].Wk *= 1e20f;
    }
    for (bool keep : {true, false}) {
        const core::ComputeOptions options = readBack(keep);
        const auto cpu = m_cpu.compute(problem, options);
        const auto gpu = m_backend->compute(problem, options);
        QVERIFY(cpu->diagnostics.nonFinite);
        QVERIFY(gpu->diagnostics.nonFinite);
        if (!nan) {
            QCOMPARE(gpu->diagnostics.nonFiniteWhere, cpu->diagnostics.nonFiniteWhere);
            compareResults(*gpu, *cpu);
            continue;
        }
        // Where +inf and -inf products meet, the sum is NaN or the first infinity, depending
        // on the order of the terms and on fused multiply-adds (Eigen's FMA keeps -inf + a
        // huge finite product at -inf): no two implementations agree cell by cell. The heads
        // that do not overflow must still match.
        QVERIFY(gpu->diagnostics.nonFiniteWhere.rfind("head 1 scores", 0) == 0);
        for (std::size_t h : {std::size_t(0), std::size_t(2)})
            EXPECT_ABS(gpu->heads[h].weights, cpu->heads[h].weights, 1e-5f,
                       QStringLiteral("head %1 weights").arg(h));
    }
}

void TestVulkanBackend::pooling_data()
{
    QTest::addColumn<Case>("c");
    QTest::addColumn<int>("viewRows");
    QTest::addColumn<int>("viewCols");
    QTest::addColumn<bool>("max");
    QTest::addColumn<bool>("keep");
    Case c;
    c.tq = c.tk = 257;
    c.heads = 3;
    c.mask = MaskCase::Causal;
    QTest::newRow("257 -> 64x50 mean") << c << 64 << 50 << false << false;
    QTest::newRow("257 -> 64x50 max") << c << 64 << 50 << true << false;
    QTest::newRow("257 -> 100x300 mean, kept") << c << 100 << 300 << false << true;
    c.cross = true;
    c.tk = 90;
    c.mask = MaskCase::Padding;
    c.normalization = Normalization::Sparsemax;
    QTest::newRow("257x90 cross -> 16x16 max") << c << 16 << 16 << true << false;
    QTest::newRow("257x90 cross -> 7x300 mean") << c << 7 << 300 << false << false;
}

// GPU pooling equals core::poolMatrix of the CPU's full weights.
void TestVulkanBackend::pooling()
{
    QFETCH(Case, c);
    QFETCH(int, viewRows);
    QFETCH(int, viewCols);
    QFETCH(bool, max);
    QFETCH(bool, keep);
    auto problem = makeProblem(c);
    core::ComputeOptions full;
    full.keepIntermediates = false;
    const auto cpuFull = m_cpu.compute(problem, full);
    core::ComputeOptions view;
    view.viewRows = viewRows;
    view.viewCols = viewCols;
    view.pool = max ? core::PoolMode::Max : core::PoolMode::Mean;
    view.keepIntermediates = keep;
    const auto gpu = m_backend->compute(problem, view);
    QVERIFY(gpu->pooling.pooled);
    QVERIFY(gpu->pooling.mode == view.pool);
    for (std::size_t h = 0; h < gpu->heads.size(); ++h) {
        const core::Matrix expected = core::poolMatrix(
            cpuFull->heads[h].weights, gpu->pooling.rowBlock, gpu->pooling.colBlock, view.pool);
        EXPECT_ABS(gpu->heads[h].weights, expected, 1e-5f, QStringLiteral("head %1 pooled").arg(h));
    }
    compareResults(*gpu, *m_cpu.compute(problem, view));
}

void TestVulkanBackend::chunkedRowsMatchCpu_data()
{
    QTest::addColumn<Case>("c");
    QTest::addColumn<int>("viewRows");
    QTest::addColumn<bool>("keep");
    Case c;
    c.tq = c.tk = 257;
    c.heads = 3;
    c.mask = MaskCase::Causal;
    QTest::newRow("full weights, one submit per chunk") << c << 0 << false;
    QTest::newRow("kept intermediates") << c << 0 << true;
    QTest::newRow("pooled, one submit") << c << 40 << false;
    QTest::newRow("pooled, grid rows across chunks") << c << 3 << false;
    c.rotary = true;
    c.dk = 6;
    QTest::newRow("rotary, kept intermediates") << c << 0 << true;
    c.rotary = false;
    c.dk = 0;
    c.fill = MaskFill::MinusNineE15;
    c.normalization = Normalization::Relu;
    c.mask = MaskCase::WindowCausal;
    QTest::newRow("window-causal relu -9e15 pooled") << c << 10 << false;
}

// Long inputs are computed in row chunks (each head's chunk of scores within one binding);
// ATTN_VK_CHUNK_BYTES makes the chunks small so that T = 257 covers the T = 16,384 paths.
void TestVulkanBackend::chunkedRowsMatchCpu()
{
    QFETCH(Case, c);
    QFETCH(int, viewRows);
    QFETCH(bool, keep);
    qputenv("ATTN_VK_CHUNK_BYTES", QByteArray::number(3 * 257 * 4 * 40)); // 40 rows: 7 chunks
    auto chunked = gpu::VulkanBackend::create();
    qunsetenv("ATTN_VK_CHUNK_BYTES");
    const core::ComputeOptions options = readBack(keep, viewRows);
    runCase(*chunked, c, options);
}

void TestVulkanBackend::editsReuseTheRecordedPlan_data()
{
    QTest::addColumn<Case>("c");
    QTest::addColumn<int>("view");
    for (ScoreKind score : kScores)
        for (int variant = 0; variant < 3; ++variant) {
            Case c;
            c.tq = c.tk = 37;
            c.heads = 3;
            c.score = score;
            c.normalization = variant == 2 ? Normalization::Sparsemax : Normalization::Softmax;
            c.keep = variant == 1;
            QTest::newRow(qPrintable(caseName(c) + (variant == 2 ? " pooled" : "")))
                << c << (variant == 2 ? 10 : 0);
        }
    Case cross;
    cross.tq = 21;
    cross.tk = 34;
    cross.cross = true;
    cross.heads = 8;
    QTest::newRow(qPrintable(caseName(cross))) << cross << 0;
    for (bool keep : {true, false}) {
        Case rotary;
        rotary.tq = rotary.tk = 37;
        rotary.heads = 3;
        rotary.dk = 6;
        rotary.rotary = true;
        rotary.mask = MaskCase::Causal;
        rotary.keep = keep;
        QTest::newRow(qPrintable(caseName(rotary))) << rotary << 0;
    }
}

// Per-edit changes (any weight, the inputs, temperature, mask rules, fill, enabled heads)
// reuse the buffers and command buffers recorded for the shape, and recompute only the heads
// and stages they touch: every edit here is followed by a full comparison with the CPU.
void TestVulkanBackend::editsReuseTheRecordedPlan()
{
    QFETCH(Case, c);
    QFETCH(int, view);
    auto problem = makeProblem(c);
    const core::ComputeOptions options = readBack(c.keep, view);
    m_backend->compute(problem, options);
    const int records = m_backend->recordCount();

    auto edited = std::make_shared<core::Problem>(*problem);
    auto check = [&](const char* what) {
        auto snapshot = std::make_shared<core::Problem>(*edited);
        const auto gpu = m_backend->compute(snapshot, options);
        if (m_backend->recordCount() != records)
            QFAIL(qPrintable(QStringLiteral("re-recorded after: %1").arg(what)));
        compareResults(*gpu, *m_cpu.compute(snapshot, options));
        if (QTest::currentTestFailed())
            qWarning("after edit: %s", what);
    };
    // Every edit copies the weights first (editWeights), as the window's edits do: the problem
    // computed before keeps its own.
    auto heads = [&] { return edited->editWeights().heads.data(); };
    const int last = edited->weights->headCount() - 1;
    heads()[0].Wq(3, 1) += 0.5f;
    check("one weight of W_q");
    check("nothing");
    heads()[last].Wk(0, 0) -= 0.25f;
    check("W_k of the last head");
    heads()[0].Wv(1, 0) += 0.3f;
    check("W_v");
    heads()[last].bq = core::RowVector::Constant(edited->weights->dK, 0.1f);
    check("b_q");
    heads()[0].bilinear(0, 0) += 0.2f;
    check("M");
    heads()[last].wAdditive(0) += 0.2f;
    check("w");
    edited->editWeights().Wo(0, 1) += 0.4f;
    check("W_O");
    edited->editWeights().bo = core::RowVector::Constant(edited->weights->dModel, 0.01f);
    check("b_O");
    edited->queryEmbedding(1, 2) += 0.5f;
    check("an embedding");
    edited->temperature = 0.3f;
    check("temperature");
    edited->mask.causal = true;
    check("causal");
    edited->mask.window = 3;
    check("window");
    edited->fill = MaskFill::MinusNineE15;
    check("fill");
    heads()[last].enabled = false;
    check("head off");
    heads()[last].enabled = true;
    check("head on");
    edited->mask.padding = true;
    check("padding");
    edited->keyIsPadding.assign(edited->keyIsPadding.size(), false);
    check("no padded key");
    if (edited->rotary.enabled()) {
        edited->rotary.firstPosition += 3;
        check("rotary first position");
        edited->rotary.inverseFrequencies.back() *= 2.0f;
        check("rotary frequencies");
        heads()[0].Wq(2, 0) += 0.5f;
        check("W_q under rotary");
    }

    // Steady edit-to-result latency at this size (reported, not asserted: machines are noisy).
    const auto start = std::chrono::steady_clock::now();
    const int repeats = 10;
    for (int i = 0; i < repeats; ++i) {
        auto next = std::make_shared<core::Problem>(*edited);
        next->editWeights().heads[0].Wk(0, 0) += 0.01f * float(i);
        m_backend->compute(next, options);
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    qInfo("edit-to-result (validation on): %.2f ms", ms / repeats);
}

// A model's layers at one shape: each layer's weights are packed once into the device's
// weight cache and found again by the next forward (no upload, no new plan); an edit of one
// set goes to the plan's own buffer, incrementally, and undoing it finds the cached set again.
void TestVulkanBackend::weightSetsStayOnTheDevice()
{
    Case c;
    c.tq = c.tk = 19;
    c.heads = 3;
    c.mask = MaskCase::Causal;
    c.dk = 6;
    c.rotary = true;
    c.seed = 61;
    const auto layerA = makeProblem(c);
    c.seed = 62;
    const auto layerB = makeProblem(c);
    auto check = [&](const std::shared_ptr<core::Problem>& p, const char* what) {
        const auto gpu = m_backend->compute(p, {});
        compareResults(*gpu, *m_cpu.compute(p, {}));
        if (QTest::currentTestFailed())
            qWarning("after: %s", what);
    };
    const gpu::WeightCache& cache = m_backend->weightCache();
    check(layerA, "layer A");
    check(layerB, "layer B");
    const std::uint64_t uploads = cache.uploads();
    const int records = m_backend->recordCount();
    for (int forward = 0; forward < 2; ++forward) {
        check(layerA, "layer A again");
        check(layerB, "layer B again");
    }
    QCOMPARE(cache.uploads(), uploads);
    QCOMPARE(m_backend->recordCount(), records);

    // The window edits the set it has just computed.
    check(layerA, "layer A before the edits");
    auto edited = std::make_shared<core::Problem>(*layerA);
    edited->editWeights().heads[1].Wk(2, 3) += 0.5f;
    check(edited, "an edit of A");
    auto again = std::make_shared<core::Problem>(*edited);
    again->editWeights().heads[0].Wv(1, 1) -= 0.25f;
    check(again, "a second edit");
    check(layerA, "undo to A");
    auto fromA = std::make_shared<core::Problem>(*layerA);
    fromA->editWeights().Wo(0, 0) += 0.5f;
    check(fromA, "another edit of A");
    check(layerB, "layer B after the edits");
    QCOMPARE(cache.uploads(), uploads);
    QCOMPARE(m_backend->recordCount(), records);
}

void TestVulkanBackend::deviceSelection()
{
    const auto devices = gpu::listDevices();
    QVERIFY(!devices.empty());
    for (const auto& d : devices)
        QVERIFY(!gpu::describe(d).empty());
    // By index and by a case-insensitive part of the name.
    const std::string name = devices.front().name;
    auto byIndex = gpu::VulkanBackend::create(std::to_string(devices.front().index));
    QCOMPARE(byIndex->deviceName(), name);
    std::string upper = name.substr(0, 4);
    for (char& ch : upper)
        ch = char(std::toupper(static_cast<unsigned char>(ch)));
    auto byName = gpu::VulkanBackend::create(upper);
    QCOMPARE(byName->deviceName(), name);
    QVERIFY(throwsError([] { gpu::VulkanBackend::create("no such device"); }));
    qputenv("ATTN_VK_DEVICE", "no such device");
    std::string notice;
    QVERIFY(throwsError([&notice] { gpu::createBackend(gpu::BackendChoice::Auto, "", &notice); }));
    qunsetenv("ATTN_VK_DEVICE");
    auto cpu = gpu::createBackend(gpu::BackendChoice::Cpu, "", &notice);
    QCOMPARE(cpu->name(), std::string("CPU"));
    // Auto: Vulkan on a GPU; on a CPU implementation (lavapipe) the CPU backend, saying why.
    auto autoBackend = gpu::createBackend(gpu::BackendChoice::Auto, "", &notice);
    const bool cpuDevice = gpu::selectDevice(devices, "").vkType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    QCOMPARE(autoBackend->name(), std::string(cpuDevice ? "CPU" : "Vulkan"));
    QCOMPARE(notice.empty(), !cpuDevice);
    if (cpuDevice)
        QVERIFY2(notice.find("CPU implementation") != std::string::npos, notice.c_str());
    // By name, any device; and auto follows a selector that names one.
    notice.clear();
    QCOMPARE(gpu::createBackend(gpu::BackendChoice::Vulkan, "", &notice)->name(),
             std::string("Vulkan"));
    QCOMPARE(gpu::createBackend(gpu::BackendChoice::Auto, name, &notice)->name(),
             std::string("Vulkan"));
    QVERIFY(notice.empty());
}

// The pipeline cache is written when pipelines are made and read by the next backend.
void TestVulkanBackend::pipelineCachePersists()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("cache/vk-pipeline-cache.bin"));
    qputenv("ATTN_VK_PIPELINE_CACHE", path.toUtf8());
    {
        auto first = gpu::VulkanBackend::create();
        QVERIFY(!first->pipelineCacheLoaded());
        Case c;
        c.tq = c.tk = 5;
        c.heads = 3;
        runCase(*first, c);
    }
    QVERIFY(QFileInfo(path).size() > 0);
    auto second = gpu::VulkanBackend::create();
    qunsetenv("ATTN_VK_PIPELINE_CACHE");
    QVERIFY(second->pipelineCacheLoaded());
}

void TestVulkanBackend::faultsFallBackToCpu_data()
{
    QTest::addColumn<QByteArray>("fault");
    QTest::addColumn<bool>("atStart");
    QTest::newRow("no-loader") << QByteArray("no-loader") << true;
    QTest::newRow("instance") << QByteArray("instance") << true;
    QTest::newRow("device") << QByteArray("device") << true;
    QTest::newRow("out-of-memory") << QByteArray("out-of-memory") << false;
    QTest::newRow("device-lost") << QByteArray("device-lost") << false;
}

// Each injected fault ends on the CPU backend with the CPU's numbers, said once.
void TestVulkanBackend::faultsFallBackToCpu()
{
    QFETCH(QByteArray, fault);
    QFETCH(bool, atStart);
    Case c;
    c.tq = c.tk = 12;
    c.heads = 3;
    c.mask = MaskCase::Causal;
    auto problem = makeProblem(c);
    c.tq = c.tk = 13; // a second shape, so that a new plan (and its buffers) is needed
    auto other = makeProblem(c);
    const auto expected = m_cpu.compute(other, {});

    // Vulkan by name: auto would pick the CPU backend on lavapipe before any fault.
    for (auto choice : {gpu::BackendChoice::Vulkan}) {
        std::string notice;
        if (atStart)
            qputenv("ATTN_VK_FAULT", fault);
        auto backend = gpu::createBackend(choice, "", &notice);
        if (atStart) {
            qunsetenv("ATTN_VK_FAULT");
            QCOMPARE(backend->name(), std::string("CPU"));
            QVERIFY2(!notice.empty() && notice.find('\n') == std::string::npos, notice.c_str());
        } else {
            QCOMPARE(backend->name(), std::string("Vulkan"));
            QVERIFY(notice.empty());
            const auto before = backend->compute(problem, {});
            QCOMPARE(before->backend, std::string("Vulkan"));
            qputenv("ATTN_VK_FAULT", fault);
        }
        const auto result = backend->compute(other, {});
        qunsetenv("ATTN_VK_FAULT");
        QCOMPARE(result->backend, std::string("CPU"));
        QCOMPARE(backend->name(), std::string("CPU"));
        for (std::size_t h = 0; h < expected->heads.size(); ++h) {
            QVERIFY(result->heads[h].weights == expected->heads[h].weights);
            QVERIFY(result->heads[h].rawScores == expected->heads[h].rawScores);
        }
        QVERIFY(result->output == expected->output);
        auto warnings = expected->diagnostics.warnings;
        if (!atStart) {
            // One warning line on the result of the failing compute, none after.
            QCOMPARE(result->diagnostics.warnings.size(), warnings.size() + 1);
            QVERIFY(result->diagnostics.warnings.back().find("switched to the CPU backend") !=
                    std::string::npos);
            const auto again = backend->compute(other, {});
            QVERIFY(again->diagnostics.warnings == warnings);
            QVERIFY(again->output == expected->output);
        } else {
            QVERIFY(result->diagnostics.warnings == warnings);
        }
    }
}

QTEST_GUILESS_MAIN(TestVulkanBackend)
#include "tst_vulkan_backend.moc"
