// The Vulkan backend against the CPU reference (core::CpuBackend), with the Khronos validation
// layer on: any validation message fails the suite. Runs on lavapipe in CI; a machine without
// a Vulkan device skips, except under CI=true where that is a failure.

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/pooling.h"
#include "gpu/backend_factory.h"
#include "gpu/fallback_backend.h"
#include "gpu/instance.h"
#include "gpu/vulkan_backend.h"
#include "support/problems.h"

#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cctype>
#include <chrono>
#include <cmath>

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
                                    Normalization::Relu, Normalization::Sparsemax};
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
};

std::shared_ptr<core::Problem> makeProblem(const Case& c)
{
    const int dModel = c.heads == 3 ? 24 : (c.heads == 8 ? 64 : 16);
    auto p = test::randomProblem(c.tq, c.cross ? c.tk : c.tq, dModel, c.heads, c.seed, c.cross);
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
        p->weights.heads[1].enabled = false;
    // Biases on, so that the bias path is covered too.
    if (c.heads != 1)
        for (auto& head : p->weights.heads) {
            head.bq = core::RowVector::Constant(p->weights.dK, 0.05f);
            head.bv = core::RowVector::Constant(p->weights.dV, -0.02f);
        }
    // A bilinear M that is not the identity.
    for (auto& head : p->weights.heads)
        head.bilinear += core::Matrix::Constant(p->weights.dK, p->weights.dK, 0.01f);
    p->validate();
    return p;
}

float maxAbs(const core::Matrix& m)
{
    float v = 0.0f;
    for (Eigen::Index i = 0; i < m.size(); ++i)
        if (std::isfinite(m.data()[i]))
            v = std::max(v, std::abs(m.data()[i]));
    return v;
}

// max |a - b| over cells; infinities must match exactly.
float maxDiff(const core::Matrix& a, const core::Matrix& b, QString* where)
{
    if (a.rows() != b.rows() || a.cols() != b.cols()) {
        *where = QStringLiteral("shape %1x%2 vs %3x%4")
                     .arg(a.rows())
                     .arg(a.cols())
                     .arg(b.rows())
                     .arg(b.cols());
        return INFINITY;
    }
    float worst = 0.0f;
    for (Eigen::Index i = 0; i < a.rows(); ++i)
        for (Eigen::Index j = 0; j < a.cols(); ++j) {
            const float x = a(i, j);
            const float y = b(i, j);
            float d;
            if (std::isnan(x) || std::isnan(y))
                d = (std::isnan(x) && std::isnan(y)) ? 0.0f : INFINITY;
            else if (std::isinf(x) || std::isinf(y))
                d = x == y ? 0.0f : INFINITY;
            else
                d = std::abs(x - y);
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

#define EXPECT_ABS(gpuM, cpuM, tolerance, what)                                                    \
    do {                                                                                           \
        QString where_;                                                                            \
        const float d_ = maxDiff(gpuM, cpuM, &where_);                                             \
        if (!(d_ <= (tolerance)))                                                                  \
            QFAIL(qPrintable(QStringLiteral("%1: |gpu - cpu| = %2 at %3")                          \
                                 .arg(what)                                                        \
                                 .arg(double(d_))                                                  \
                                 .arg(where_)));                                                   \
    } while (0)

// Normalised by the largest |value| of the reference (at least `floor`).
#define EXPECT_REL_FLOOR(gpuM, cpuM, tolerance, floor, what)                                       \
    do {                                                                                           \
        QString where_;                                                                            \
        const float scale_ = std::max(maxAbs(cpuM), floor);                                        \
        const float d_ = maxDiff(gpuM, cpuM, &where_) / scale_;                                    \
        if (!(d_ <= (tolerance)))                                                                  \
            QFAIL(qPrintable(QStringLiteral("%1: relative error %2 at %3")                         \
                                 .arg(what)                                                        \
                                 .arg(double(d_))                                                  \
                                 .arg(where_)));                                                   \
    } while (0)
#define EXPECT_REL(gpuM, cpuM, tolerance, what)                                                    \
    EXPECT_REL_FLOOR(gpuM, cpuM, tolerance, 1e-30f, what)

void compareResults(const core::AttentionResult& gpu, const core::AttentionResult& cpu)
{
    QCOMPARE(gpu.backend, std::string("Vulkan"));
    QCOMPARE(gpu.heads.size(), cpu.heads.size());
    QCOMPARE(gpu.intermediatesKept, cpu.intermediatesKept);
    QCOMPARE(gpu.pooling.pooled, cpu.pooling.pooled);
    QCOMPARE(gpu.pooling.rowBlock, cpu.pooling.rowBlock);
    QCOMPARE(gpu.pooling.colBlock, cpu.pooling.colBlock);
    EXPECT_REL(gpu.queryInput, cpu.queryInput, 1e-6f, "X_q");
    EXPECT_REL(gpu.keyInput, cpu.keyInput, 1e-6f, "X_kv");
    for (std::size_t h = 0; h < cpu.heads.size(); ++h) {
        const core::HeadResult& g = gpu.heads[h];
        const core::HeadResult& c = cpu.heads[h];
        const QString head = QStringLiteral("head %1 ").arg(h);
        QCOMPARE(g.enabled, c.enabled);
        EXPECT_REL(g.Q, c.Q, 1e-5f, head + "Q");
        EXPECT_REL(g.K, c.K, 1e-5f, head + "K");
        EXPECT_REL(g.V, c.V, 1e-5f, head + "V");
        EXPECT_ABS(g.weights, c.weights, 1e-5f, head + "weights");
        EXPECT_REL(g.output, c.output, 1e-4f, head + "output");
        if (cpu.intermediatesKept) {
            // Scores near 0 come from cancellation: their error is relative to the operands'
            // size, so the scale has a floor of 1 (seen: 3e-9 on a score of 4e-5 at T = 1).
            EXPECT_REL_FLOOR(g.rawScores, c.rawScores, 1e-4f, 1.0f, head + "raw scores");
            EXPECT_REL_FLOOR(g.scaledScores, c.scaledScores, 1e-4f, 1.0f, head + "scaled scores");
            EXPECT_REL_FLOOR(g.maskedScores, c.maskedScores, 1e-4f, 1.0f, head + "masked scores");
        } else {
            QVERIFY(g.rawScores.size() == 0 && g.scaledScores.size() == 0 &&
                    g.maskedScores.size() == 0);
        }
    }
    EXPECT_REL(gpu.concat, cpu.concat, 1e-4f, "concat");
    EXPECT_REL(gpu.output, cpu.output, 1e-4f, "output");
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
    return QStringLiteral("T%1x%2 h%3 %4 %5 %6 %7 %8%9%10")
        .arg(c.tq)
        .arg(c.tk)
        .arg(c.heads)
        .arg(c.cross ? "cross" : "self")
        .arg(QString::fromUtf8(core::toString(c.score).data()))
        .arg(QString::fromUtf8(core::toString(c.normalization).data()))
        .arg(maskName(c.mask))
        .arg(QString::fromUtf8(core::toString(c.fill).data()))
        .arg(c.disableHead ? " off1" : "")
        .arg(c.keep ? "" : " nokeep");
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

    void matchesCpu_data();
    void matchesCpu();
    void sharedMemoryVariantMatchesCpu_data();
    void sharedMemoryVariantMatchesCpu();
    void stagingPathMatchesCpu();
    void weightsIdenticalWithOrWithoutIntermediates();
    void nonFiniteScoresMatchCpu_data();
    void nonFiniteScoresMatchCpu();
    void pooling_data();
    void pooling();
    void chunkedRowsMatchCpu_data();
    void chunkedRowsMatchCpu();
    void editsReuseTheRecordedPlan_data();
    void editsReuseTheRecordedPlan();
    void deviceSelection();
    void pipelineCachePersists();
    void faultsFallBackToCpu_data();
    void faultsFallBackToCpu();

private:
    void runCase(gpu::VulkanBackend& backend, const Case& c,
                 const core::ComputeOptions& options = {});

    std::unique_ptr<gpu::VulkanBackend> m_backend;
    core::CpuBackend m_cpu;
};

void TestVulkanBackend::initTestCase()
{
    // The validation layer and its messenger, before any instance exists.
    qputenv("ATTN_VK_VALIDATION", "1");
    qunsetenv("ATTN_VK_FAULT");
    qunsetenv("ATTN_VK_DEVICE");
    qunsetenv("ATTN_VK_VARIANT");
    qunsetenv("ATTN_VK_FORCE_STAGING");
    qunsetenv("ATTN_VK_CHUNK_BYTES");
    QStandardPaths::setTestModeEnabled(true); // the pipeline cache goes to ~/.qttest
    try {
        m_backend = gpu::VulkanBackend::create();
    } catch (const std::exception& e) {
        if (qgetenv("CI") == "true")
            QFAIL(qPrintable(QStringLiteral("CI=true and no Vulkan device: %1").arg(e.what())));
        QSKIP(qPrintable(QStringLiteral("no Vulkan device: %1").arg(e.what())));
    }
    QVERIFY2(m_backend->validationEnabled(),
             "VK_LAYER_KHRONOS_validation is missing (vulkan-validationlayers)");
    qInfo("device: %s", gpu::describe(m_backend->device()).c_str());
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

void TestVulkanBackend::matchesCpu_data()
{
    QTest::addColumn<Case>("c");
    int n = 0;
    const int heads[] = {1, 3, 8};
    // Small T: every score x normalisation x mask x fill, self and cross, 1, 3 and 8 heads.
    for (int t : {1, 2, 7})
        for (ScoreKind score : kScores)
            for (Normalization norm : kNorms)
                for (MaskCase mask : kMasks)
                    for (MaskFill fill : {MaskFill::NegativeInfinity, MaskFill::MinusNineE15}) {
                        Case c;
                        c.tq = t;
                        c.cross = n % 2 == 1;
                        c.tk = c.cross ? t + 2 : t; // Tq != Tk
                        c.heads = heads[n % 3];
                        c.score = score;
                        c.normalization = norm;
                        c.mask = mask;
                        c.fill = fill;
                        c.temperature = n % 5 == 0 ? 0.5f : 1.0f;
                        c.disableHead = n % 4 == 1;
                        c.keep = n % 7 != 3;
                        c.seed = std::uint64_t(100 + n);
                        QTest::newRow(qPrintable(caseName(c))) << c;
                        ++n;
                    }
    // T = 64: every score x normalisation x mask with -inf; every mask with -9e15 for softmax.
    for (ScoreKind score : kScores)
        for (Normalization norm : kNorms)
            for (MaskCase mask : kMasks) {
                Case c;
                c.tq = 64;
                c.cross = n % 2 == 1;
                c.tk = c.cross ? 50 : 64;
                c.heads = heads[n % 3];
                c.score = score;
                c.normalization = norm;
                c.mask = mask;
                c.disableHead = n % 4 == 1;
                c.keep = n % 3 != 0;
                c.seed = std::uint64_t(100 + n);
                QTest::newRow(qPrintable(caseName(c))) << c;
                ++n;
            }
    for (MaskCase mask : kMasks) {
        Case c;
        c.tq = c.tk = 64;
        c.heads = 8;
        c.mask = mask;
        c.fill = MaskFill::MinusNineE15;
        c.seed = std::uint64_t(100 + n++);
        QTest::newRow(qPrintable(caseName(c))) << c;
    }
    // T = 257: every score x normalisation (causal), every mask (scaled softmax), both fills.
    for (ScoreKind score : kScores)
        for (Normalization norm : kNorms) {
            Case c;
            c.tq = 257;
            c.cross = n % 2 == 1;
            c.tk = c.cross ? 130 : 257;
            c.heads = heads[n % 3];
            c.score = score;
            c.normalization = norm;
            c.mask = MaskCase::Causal;
            c.disableHead = n % 4 == 1;
            c.keep = n % 2 == 0;
            c.seed = std::uint64_t(100 + n++);
            QTest::newRow(qPrintable(caseName(c))) << c;
        }
    for (MaskCase mask : kMasks)
        for (MaskFill fill : {MaskFill::NegativeInfinity, MaskFill::MinusNineE15}) {
            Case c;
            c.tq = c.tk = 257;
            c.heads = 8;
            c.mask = mask;
            c.fill = fill;
            c.keep = n % 2 == 0;
            c.seed = std::uint64_t(100 + n++);
            QTest::newRow(qPrintable(caseName(c))) << c;
        }
}

void TestVulkanBackend::matchesCpu()
{
    QFETCH(Case, c);
    core::ComputeOptions options;
    options.keepIntermediates = c.keep;
    runCase(*m_backend, c, options);
}

void TestVulkanBackend::sharedMemoryVariantMatchesCpu_data()
{
    QTest::addColumn<Case>("c");
    int n = 0;
    for (int t : {7, 70})
        for (ScoreKind score : kScores)
            for (Normalization norm : kNorms) {
                Case c;
                c.tq = t;
                c.cross = n % 2 == 1;
                c.tk = c.cross ? t + 3 : t;
                c.heads = n % 3 == 0 ? 8 : 3;
                c.score = score;
                c.normalization = norm;
                c.mask = kMasks[std::size_t(n) % std::size(kMasks)];
                c.fill = n % 4 == 2 ? MaskFill::MinusNineE15 : MaskFill::NegativeInfinity;
                c.keep = n % 2 == 0;
                c.seed = std::uint64_t(500 + n++);
                QTest::newRow(qPrintable(caseName(c))) << c;
            }
}

// The GPU shapes (shared-memory tiles, subgroup reductions) run on lavapipe too, so the
// variant a discrete GPU gets is tested here even without one.
void TestVulkanBackend::sharedMemoryVariantMatchesCpu()
{
    QFETCH(Case, c);
    static std::unique_ptr<gpu::VulkanBackend> shared;
    if (!shared) {
        qputenv("ATTN_VK_VARIANT", "shared");
        shared = gpu::VulkanBackend::create();
        qunsetenv("ATTN_VK_VARIANT");
    }
    QCOMPARE(shared->variant(), gpu::ShaderVariant::SharedMemory);
    core::ComputeOptions options;
    options.keepIntermediates = c.keep;
    runCase(*shared, c, options);
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
        problem->weights.heads[1].Wq *= 1e20f;
        problem->weights.heads[1].Wk *= 1e20f;
    } else {
        // Seed 001's one-hot example with huge positive weights: q.k is +inf where both are
        // non-zero, 0 elsewhere.
        problem = test::handProblem(ScoreKind::Dot, Normalization(normalization));
        problem->weights.heads[0].Wq *= 1e20f;
        problem->weights.heads[0].Wk *= 1e20f;
    }
    for (bool keep : {true, false}) {
        core::ComputeOptions options;
        options.keepIntermediates = keep;
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
    core::ComputeOptions options;
    options.viewRows = viewRows;
    options.viewCols = viewRows;
    options.keepIntermediates = keep;
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
}

// Per-edit changes (any weight, the inputs, temperature, mask rules, fill, enabled heads)
// reuse the buffers and command buffers recorded for the shape, and recompute only the heads
// and stages they touch: every edit here is followed by a full comparison with the CPU.
void TestVulkanBackend::editsReuseTheRecordedPlan()
{
    QFETCH(Case, c);
    QFETCH(int, view);
    auto problem = makeProblem(c);
    core::ComputeOptions options;
    options.keepIntermediates = c.keep;
    options.viewRows = view;
    options.viewCols = view;
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
    auto& heads = edited->weights.heads;
    const int last = int(heads.size()) - 1;
    heads[0].Wq(3, 1) += 0.5f;
    check("one weight of W_q");
    check("nothing");
    heads[std::size_t(last)].Wk(0, 0) -= 0.25f;
    check("W_k of the last head");
    heads[0].Wv(1, 0) += 0.3f;
    check("W_v");
    heads[std::size_t(last)].bq = core::RowVector::Constant(edited->weights.dK, 0.1f);
    check("b_q");
    heads[0].bilinear(0, 0) += 0.2f;
    check("M");
    heads[std::size_t(last)].wAdditive(0) += 0.2f;
    check("w");
    edited->weights.Wo(0, 1) += 0.4f;
    check("W_O");
    edited->weights.bo = core::RowVector::Constant(edited->weights.dModel, 0.01f);
    check("b_O");
    edited->queryEmbedding(1, 2) += 0.5f;
    if (!edited->cross)
        edited->keyEmbedding = edited->queryEmbedding;
    check("an embedding");
    edited->temperature = 0.3f;
    check("temperature");
    edited->mask.causal = true;
    check("causal");
    edited->mask.window = 3;
    check("window");
    edited->fill = MaskFill::MinusNineE15;
    check("fill");
    heads[std::size_t(last)].enabled = false;
    check("head off");
    heads[std::size_t(last)].enabled = true;
    check("head on");
    edited->mask.padding = true;
    check("padding");
    edited->keyIsPadding.assign(edited->keyIsPadding.size(), false);
    check("no padded key");

    // Steady edit-to-result latency at this size (reported, not asserted: machines are noisy).
    const auto start = std::chrono::steady_clock::now();
    const int repeats = 10;
    for (int i = 0; i < repeats; ++i) {
        auto next = std::make_shared<core::Problem>(*edited);
        next->weights.heads[0].Wk(0, 0) += 0.01f * float(i);
        m_backend->compute(next, options);
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    qInfo("edit-to-result (validation on): %.2f ms", ms / repeats);
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
    auto autoBackend = gpu::createBackend(gpu::BackendChoice::Auto, "", &notice);
    QCOMPARE(autoBackend->name(), std::string("Vulkan"));
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

    for (auto choice : {gpu::BackendChoice::Auto, gpu::BackendChoice::Vulkan}) {
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
