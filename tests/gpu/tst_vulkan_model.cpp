// A real model's block operations and whole forward passes on the Vulkan backend against the
// CPU reference (core::CpuBlockOps, core::CpuBackend), with the Khronos validation layer on: any
// validation message fails the suite. Runs on lavapipe in CI; a machine without a Vulkan device
// skips, except under CI=true where that is a failure (as in tst_vulkan_backend).
//
// Tolerances. Every block operation is compared cell by cell against a bound computed in double
// from its operands: how far float32 rounding may move either implementation from the exact
// value (u = 2^-24), so two correct ones may differ by twice that:
//   products  z = x W + b:        |dz| <= 4 sqrt(K) u (|x| |W|) + 2 u |b|
//     (a sum of K products rounded in any order; the worst case is K u (Higham, Accuracy and
//     Stability of Numerical Algorithms, 2002, eq. 3.5), but rounding errors are independent
//     enough that lambda sqrt(K) u holds with lambda of a few (Higham & Mary, SIAM J. Sci.
//     Comput. 41, 2019); the worst cell seen on lavapipe is 0.2 of this bound)
//   activation y = act(z):        |dy| <= 1.2 |dz| + 8 u (|z| + |y|)   (every activation here
//     has slope <= 1.13 and is computed from exp with a few roundings; erf by Abramowitz &
//     Stegun 7.1.26, |error| <= 1.5e-7 < 2.6 u, which 8 u |z| covers through 0.5 z erf)
//   norms:                        |dy| <= 8 u (|(x - mean) s g| + |b| + |mean| s |g|)   (s = 1 /
//     sqrt(var + eps); the sums are compensated, the rest is six roundings, and x - mean
//     carries mean's rounding)
// A wrong bias, activation, layout or padding is off by O(1), orders of magnitude above these.
// Whole forwards are held to what tst_model_forward holds the CPU to against the float64
// reference: attention weights within 1e-5, hidden states and logits within 2e-5 of their
// largest magnitude (two float32 implementations of the same forward, each that close to the
// exact one).

#include "core/cpu_backend.h"
#include "core/cpu_block_ops.h"
#include "core/model/encoder_decoder.h"
#include "core/model/forward.h"
#include "core/model/model_loader.h"
#include "core/random.h"
#include "gpu/backend_factory.h"
#include "gpu/instance.h"
#include "gpu/model/weight_cache.h"
#include "gpu/vulkan_backend.h"
#include "support/model_fixtures.h"
#include "support/results.h"

#include <QStandardPaths>
#include <QTest>

#include <chrono>
#include <cmath>
#include <map>
#include <random>

using namespace attn;
using core::Activation;
using core::Matrix;
using core::RowVector;

namespace {

using MatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
constexpr double kU = 1.0 / (1 << 24); // float32 unit roundoff

// Uniform in [-scale, scale] plus `offset`, from a seeded stream.
Matrix randomMatrix(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed, float scale = 1.0f,
                    float offset = 0.0f)
{
    std::mt19937_64 engine(seed);
    std::uniform_real_distribution<float> uniform(-scale, scale);
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = uniform(engine) + offset;
    return m;
}

RowVector randomRow(Eigen::Index cols, std::uint64_t seed, float scale = 0.5f)
{
    return randomMatrix(1, cols, seed, scale).row(0);
}

// Xavier-scaled weights d_in x d_out (as a checkpoint's are), biases on request.
core::LinearWeights randomLinear(Eigen::Index in, Eigen::Index out, bool bias, std::uint64_t seed)
{
    core::LinearWeights w;
    w.weight = randomMatrix(in, out, seed, float(std::sqrt(6.0 / double(in + out))));
    if (bias)
        w.bias = randomRow(out, seed + 1, 0.3f);
    return w;
}

const char* activationName(Activation a)
{
    switch (a) {
    case Activation::GeluTanh:
        return "gelu-tanh";
    case Activation::GeluErf:
        return "gelu-erf";
    case Activation::Silu:
        return "silu";
    case Activation::Relu:
        return "relu";
    }
    return "?";
}

constexpr Activation kActivations[] = {Activation::GeluTanh, Activation::GeluErf, Activation::Silu,
                                       Activation::Relu};

// ---- Bounds (see the header) --------------------------------------------------------------

struct Bounded
{
    MatrixD value; // the exact result, in double
    MatrixD bound; // what float32 rounding may move either backend's result by, per cell
};

MatrixD abs(const MatrixD& m)
{
    return m.cwiseAbs();
}

Bounded product(const Bounded& x, const core::LinearWeights& w)
{
    const MatrixD W = w.weight.cast<double>();
    Bounded z;
    z.value = x.value * W;
    const double k = double(w.weight.rows());
    z.bound = x.bound * abs(W) + 4.0 * std::sqrt(k) * kU * (abs(x.value) * abs(W));
    if (w.bias.size()) {
        z.value.rowwise() += w.bias.cast<double>();
        z.bound.rowwise() += 2.0 * kU * w.bias.cast<double>().cwiseAbs();
    }
    return z;
}

double exactActivation(double z, Activation a)
{
    switch (a) {
    case Activation::GeluTanh:
        return 0.5 * z * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (z + 0.044715 * z * z * z)));
    case Activation::GeluErf:
        return 0.5 * z * (1.0 + std::erf(z / std::sqrt(2.0)));
    case Activation::Silu:
        return z / (1.0 + std::exp(-z));
    case Activation::Relu:
        return z > 0.0 ? z : 0.0;
    }
    return z;
}

Bounded activate(const Bounded& z, Activation a)
{
    Bounded y;
    y.value = z.value.unaryExpr([a](double v) { return exactActivation(v, a); });
    y.bound = 1.2 * z.bound + 8.0 * kU * (abs(z.value) + abs(y.value));
    return y;
}

Bounded exactInput(const Matrix& x)
{
    return {x.cast<double>(), MatrixD::Zero(x.rows(), x.cols())};
}

// |gpu - cpu| <= bound + tiny per cell, where both backends may sit anywhere within `bound` of
// the exact value: the allowance is twice the bound. Returns the worst ratio, names the cell.
double worstRatio(const Matrix& gpu, const Matrix& cpu, const MatrixD& bound, QString* where)
{
    if (gpu.rows() != cpu.rows() || gpu.cols() != cpu.cols() || bound.rows() != cpu.rows() ||
        bound.cols() != cpu.cols()) {
        *where = QStringLiteral("shape %1x%2, expected %3x%4")
                     .arg(gpu.rows())
                     .arg(gpu.cols())
                     .arg(cpu.rows())
                     .arg(cpu.cols());
        return INFINITY;
    }
    double worst = 0.0;
    for (Eigen::Index i = 0; i < cpu.rows(); ++i)
        for (Eigen::Index j = 0; j < cpu.cols(); ++j) {
            const double d = std::abs(double(gpu(i, j)) - double(cpu(i, j)));
            const double allowed = 2.0 * bound(i, j) + 1e-30;
            const double ratio = std::isfinite(d) ? d / allowed : INFINITY;
            if (ratio > worst) {
                worst = ratio;
                *where = QStringLiteral("(%1, %2): gpu %3 cpu %4, allowed %5")
                             .arg(i)
                             .arg(j)
                             .arg(double(gpu(i, j)), 0, 'g', 9)
                             .arg(double(cpu(i, j)), 0, 'g', 9)
                             .arg(allowed, 0, 'g', 3);
            }
        }
    return worst;
}

#define EXPECT_BOUNDED(gpuM, cpuM, boundM, what)                                                   \
    do {                                                                                           \
        QString where_;                                                                            \
        const double r_ = worstRatio(gpuM, cpuM, boundM, &where_);                                 \
        if (!(r_ <= 1.0))                                                                          \
            QFAIL(qPrintable(QStringLiteral("%1: %2 x the rounding bound at %3")                   \
                                 .arg(what)                                                        \
                                 .arg(r_)                                                          \
                                 .arg(where_)));                                                   \
    } while (0)

// Largest |a - b| relative to max(1, largest |b|).
double relativeDifference(const Matrix& a, const Matrix& b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return INFINITY;
    if (a.size() == 0)
        return 0.0;
    return double((a - b).cwiseAbs().maxCoeff()) / std::max(1.0, double(b.cwiseAbs().maxCoeff()));
}

std::shared_ptr<const core::Model> fixture(const QString& name)
{
    static std::map<QString, std::shared_ptr<const core::Model>> loaded;
    auto& model = loaded[name];
    if (!model)
        model = core::loadModel(test::modelFixturesDir() + QLatin1Char('/') + name);
    return model;
}

struct NormCase
{
    int rows = 5;
    int width = 16;
    core::NormKind kind = core::NormKind::LayerNorm;
    bool bias = true;
    float offset = 0.0f; // added to every input: a row whose mean dwarfs its spread
    float eps = 1e-5f;
    float spread = 1.0f; // inputs uniform in [-spread, spread] (+ offset)
    float spike = 0.0f;  // when not 0: x(i, i % width) = spike, one huge value per row
};

struct FeedForwardCase
{
    int rows = 5;
    int width = 16;
    int hidden = 40;
    bool gated = false;
    Activation activation = Activation::GeluTanh;
    bool bias = true;
};

// The checks of forwardMatchesCpu: every layer's and head's attention weights, the hidden
// states, the logits and the top prediction, and the warnings word for word.
void expectSameForward(const core::ModelResult& gpu, const core::ModelResult& cpu)
{
    QCOMPARE(gpu.backend, std::string("Vulkan"));
    QCOMPARE(gpu.layerCount(), cpu.layerCount());
    for (int l = 0; l < cpu.layerCount(); ++l) {
        const core::AttentionResult& g = *gpu.layers[std::size_t(l)];
        const core::AttentionResult& c = *cpu.layers[std::size_t(l)];
        QCOMPARE(g.heads.size(), c.heads.size());
        for (std::size_t h = 0; h < c.heads.size(); ++h) {
            QCOMPARE(g.heads[h].enabled, c.heads[h].enabled);
            const double d = test::maxDifference(g.heads[h].weights, c.heads[h].weights);
            if (!(d <= 1e-5))
                QFAIL(qPrintable(QStringLiteral("layer %1 head %2: attention differs by %3")
                                     .arg(l + 1)
                                     .arg(h + 1)
                                     .arg(d)));
            if (c.heads[h].rotatedQ.size()) {
                QVERIFY(relativeDifference(g.heads[h].rotatedQ, c.heads[h].rotatedQ) < 2e-5);
                QVERIFY(relativeDifference(g.heads[h].rotatedK, c.heads[h].rotatedK) < 2e-5);
            }
        }
        const double hidden =
            relativeDifference(gpu.hidden[std::size_t(l) + 1], cpu.hidden[std::size_t(l) + 1]);
        QVERIFY2(hidden < 2e-5,
                 qPrintable(QStringLiteral("layer %1 output: %2").arg(l + 1).arg(hidden)));
    }
    const double hidden = relativeDifference(gpu.finalHidden, cpu.finalHidden);
    QVERIFY2(hidden < 2e-5, qPrintable(QStringLiteral("final hidden state: %1").arg(hidden)));
    QCOMPARE(gpu.predictions.size(), cpu.predictions.size());
    for (std::size_t n = 0; n < cpu.predictions.size(); ++n) {
        const core::PositionPrediction& g = gpu.predictions[n];
        const core::PositionPrediction& c = cpu.predictions[n];
        QCOMPARE(g.position, c.position);
        const double logits = relativeDifference(g.logits, c.logits);
        QVERIFY2(logits < 2e-5,
                 qPrintable(QStringLiteral("logits at %1: %2").arg(c.position).arg(logits)));
        QCOMPARE(g.top.size(), c.top.size());
        QCOMPARE(g.top.front().id, c.top.front().id);
    }
    QVERIFY(gpu.warnings == cpu.warnings);
}

} // namespace

Q_DECLARE_METATYPE(NormCase)
Q_DECLARE_METATYPE(FeedForwardCase)

class TestVulkanModel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void cleanupTestCase();

    void norms_data();
    void norms();
    void normsOfHugeRowsHandWorked();
    void activationsAcrossTheirRange_data();
    void activationsAcrossTheirRange();
    void feedForward_data();
    void feedForward();
    void dense_data();
    void dense();
    void logits_data();
    void logits();
    void otherShapesAndStaging();
    void forwardMatchesCpu_data();
    void forwardMatchesCpu();
    void encoderDecoderMatchesCpu_data();
    void encoderDecoderMatchesCpu();
    void extremeWeightsMatchCpu_data();
    void extremeWeightsMatchCpu();
    void nonFiniteValuesAreReportedAsOnCpu_data();
    void nonFiniteValuesAreReportedAsOnCpu();
    void secondForwardUploadsNoWeights();
    void weightCacheEvictsAndNoticesReusedAddresses();
    void faultsInBlockOperationsFallBackToCpu_data();
    void faultsInBlockOperationsFallBackToCpu();

private:
    std::unique_ptr<gpu::VulkanBackend> m_backend;
    core::CpuBackend m_cpu;
    core::CpuBlockOps m_cpuOps;
};

void TestVulkanModel::initTestCase()
{
    qputenv("ATTN_VK_VALIDATION", "1");
    qunsetenv("ATTN_VK_FAULT");
    qunsetenv("ATTN_VK_DEVICE");
    qunsetenv("ATTN_VK_FORCE_STAGING");
    qunsetenv("ATTN_VK_LOGITS_CHUNK_ROWS");
    qunsetenv("ATTN_VK_WEIGHT_CACHE_MIB");
    QStandardPaths::setTestModeEnabled(true); // the pipeline cache goes to ~/.qttest
    try {
        // The device's own shader shape, unless ATTN_VK_VARIANT=registers|shared asks for one
        // (kept for every backend made here: some results are compared bit for bit).
        m_backend = gpu::VulkanBackend::create();
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

void TestVulkanModel::cleanup()
{
    QCOMPARE(gpu::validationMessageCount(), 0);
}

void TestVulkanModel::cleanupTestCase()
{
    m_backend.reset(); // destruction is validated too
    QCOMPARE(gpu::validationMessageCount(), 0);
}

// ---- Block operations --------------------------------------------------------------------------

void TestVulkanModel::norms_data()
{
    QTest::addColumn<NormCase>("c");
    // Widths: 1, odd (3, 17: the padding's zeros must not count), whole vec4s (16, 64, 768).
    int n = 0;
    for (int width : {1, 3, 16, 17, 64, 768})
        for (core::NormKind kind : {core::NormKind::LayerNorm, core::NormKind::RmsNorm})
            for (bool bias : {false, true}) {
                if (kind == core::NormKind::RmsNorm && bias)
                    continue; // RMSNorm has no bias
                NormCase c;
                c.rows = (n++ % 3) * 7 + 1; // 1, 8, 15
                c.width = width;
                c.kind = kind;
                c.bias = bias;
                QTest::addRow("%s w%d rows%d%s",
                              kind == core::NormKind::LayerNorm ? "layer" : "rms", width, c.rows,
                              bias ? " bias" : "")
                    << c;
            }
    // A row whose mean is 300 times its spread (a residual stream's large components), and
    // BERT's eps of 1e-12.
    NormCase offset;
    offset.rows = 4;
    offset.width = 768;
    offset.offset = 300.0f;
    offset.eps = 1e-12f;
    QTest::addRow("layer w768 mean 300") << offset;
    offset.kind = core::NormKind::RmsNorm;
    offset.bias = false;
    QTest::addRow("rms w768 mean 300") << offset;
    // Squares past float32's range (|x| above 1.8e19; a weight of 1e20 in the layer below): the
    // reference sums in double, the shader must not end in inf or NaN. Up to float32's largest
    // values, and a row whose plain float32 sum overflows (768 values of 1e36 to 3e36).
    for (float spike : {1e20f, 1e30f, 3e38f, -3e38f}) {
        NormCase huge;
        huge.rows = 3;
        huge.width = spike > 1e25f ? 768 : 16;
        huge.spike = spike;
        QTest::addRow("layer w%d spike %g", huge.width, double(spike)) << huge;
        huge.kind = core::NormKind::RmsNorm;
        huge.bias = false;
        QTest::addRow("rms w%d spike %g", huge.width, double(spike)) << huge;
    }
    NormCase overflowingSum;
    overflowingSum.rows = 2;
    overflowingSum.width = 768;
    overflowingSum.offset = 2e36f;
    overflowingSum.spread = 1e36f;
    QTest::addRow("layer w768 values 1e36 to 3e36") << overflowingSum;
    overflowingSum.kind = core::NormKind::RmsNorm;
    overflowingSum.bias = false;
    QTest::addRow("rms w768 values 1e36 to 3e36") << overflowingSum;
}

void TestVulkanModel::norms()
{
    QFETCH(NormCase, c);
    Matrix x = randomMatrix(c.rows, c.width, 11 + std::uint64_t(c.width), c.spread, c.offset);
    if (c.spike != 0.0f)
        for (int i = 0; i < c.rows; ++i)
            x(i, i % c.width) = c.spike;
    core::NormWeights w;
    w.kind = c.kind;
    w.eps = c.eps;
    w.gain = RowVector::Ones(c.width) + randomRow(c.width, 12, 0.2f);
    if (c.bias)
        w.bias = randomRow(c.width, 13, 0.2f);
    const Matrix gpu = m_backend->blockOps().norm(x, w);
    const Matrix cpu = m_cpuOps.norm(x, w);

    MatrixD bound(c.rows, c.width);
    for (int i = 0; i < c.rows; ++i) {
        const Eigen::RowVectorXd row = x.row(i).cast<double>();
        const double mean = c.kind == core::NormKind::LayerNorm ? row.mean() : 0.0;
        const double var = (row.array() - mean).square().mean();
        const double s = 1.0 / std::sqrt(var + double(c.eps));
        for (int j = 0; j < c.width; ++j) {
            const double g = std::abs(double(w.gain(j)));
            const double t = std::abs((row(j) - mean) * s) * g;
            const double b = c.bias ? std::abs(double(w.bias(j))) : 0.0;
            bound(i, j) = 8.0 * kU * (t + b + std::abs(mean) * s * g);
        }
    }
    EXPECT_BOUNDED(gpu, cpu, bound, "norm");
}

// The row (v, 0, 0, 0), worked by hand: LayerNorm's mean is v/4 and its biased variance
// (9/16 + 3 * 1/16) v^2 / 4 = 3 v^2 / 16, so y = (3v/4, -v/4, -v/4, -v/4) / (sqrt(3) v / 4)
// = (sqrt 3, -1/sqrt 3, ...); RMSNorm's mean square is v^2 / 4, so y = (2, 0, 0, 0). eps is
// nothing beside v^2. Each v's square is past float32's range (the GPU gave 0 and NaN here).
void TestVulkanModel::normsOfHugeRowsHandWorked()
{
    const double r3 = std::sqrt(3.0);
    for (float v : {1e20f, 1e30f, 3e38f}) {
        const Matrix x{{v, 0.0f, 0.0f, 0.0f}};
        core::NormWeights layer;
        layer.gain = RowVector::Ones(4);
        layer.bias = RowVector::Zero(4);
        core::NormWeights rms;
        rms.kind = core::NormKind::RmsNorm;
        rms.gain = RowVector::Ones(4);
        const double wantLayer[] = {r3, -1.0 / r3, -1.0 / r3, -1.0 / r3};
        const double wantRms[] = {2.0, 0.0, 0.0, 0.0};
        for (core::BlockOps* ops :
             {&m_backend->blockOps(), static_cast<core::BlockOps*>(&m_cpuOps)}) {
            const Matrix y = ops->norm(x, layer);
            const Matrix z = ops->norm(x, rms);
            const char* backend = ops == &m_cpuOps ? "cpu" : "gpu";
            for (int j = 0; j < 4; ++j) {
                QVERIFY2(std::abs(double(y(0, j)) - wantLayer[j]) < 1e-6,
                         qPrintable(QStringLiteral("%1 LayerNorm, v = %2: y%3 = %4")
                                        .arg(backend)
                                        .arg(double(v))
                                        .arg(j)
                                        .arg(double(y(0, j)))));
                QVERIFY2(std::abs(double(z(0, j)) - wantRms[j]) < 1e-6,
                         qPrintable(QStringLiteral("%1 RMSNorm, v = %2: y%3 = %4")
                                        .arg(backend)
                                        .arg(double(v))
                                        .arg(j)
                                        .arg(double(z(0, j)))));
            }
        }
    }
}

void TestVulkanModel::activationsAcrossTheirRange_data()
{
    QTest::addColumn<int>("activation");
    for (Activation a : kActivations)
        QTest::newRow(activationName(a)) << int(a);
}

// Each activation alone (dense with W = I, b = 0: the product is exact) over [-12, 12] and at
// +-0, tiny, large and infinite inputs, against the CPU and against the exact function: the
// GPU's erf (Abramowitz & Stegun 7.1.26) and tanh (from exp) must be as good as float32 allows.
void TestVulkanModel::activationsAcrossTheirRange()
{
    QFETCH(int, activation);
    const Activation a = Activation(activation);
    std::vector<float> values;
    for (int i = -1200; i <= 1200; ++i)
        values.push_back(float(i) / 100.0f);
    for (float v : {0.0f, -0.0f, 1e-30f, -1e-30f, 1e-7f, -1e-7f, 30.0f, -30.0f, 88.0f, -88.0f, 1e4f,
                    -1e4f, 3e12f, -3e12f})
        values.push_back(v);
    const int width = 8;
    const int rows = int((values.size() + width - 1) / width);
    values.resize(std::size_t(rows) * width, 0.5f);
    const Matrix x = Eigen::Map<const Matrix>(values.data(), rows, width);
    core::LinearWeights identity;
    identity.weight = Matrix::Identity(width, width);
    const Matrix gpu = m_backend->blockOps().dense(x, identity, a);
    const Matrix cpu = m_cpuOps.dense(x, identity, a);
    const Bounded y = activate(exactInput(x), a);
    EXPECT_BOUNDED(gpu, cpu, y.bound, QStringLiteral("%1 vs cpu").arg(activationName(a)));
    // And against the exact value (the bound is what one float32 implementation may be off).
    QString where;
    const double r = worstRatio(gpu, y.value.cast<float>(), y.bound / 2.0, &where);
    QVERIFY2(
        r <= 1.0,
        qPrintable(
            QStringLiteral("%1 vs exact: %2 x at %3").arg(activationName(a)).arg(r).arg(where)));
}

void TestVulkanModel::feedForward_data()
{
    QTest::addColumn<FeedForwardCase>("c");
    // Plain and gated, each activation, biases on and off; widths odd and whole (d 13 with
    // d_ff 35: every padding path; 64 x 160: whole vec4s), 1 to 33 rows (across the 8-row
    // register tiles and, in the GPU shape, the 64-row ones).
    int n = 0;
    for (bool gated : {false, true})
        for (Activation a : kActivations)
            for (bool bias : {false, true}) {
                FeedForwardCase c;
                c.gated = gated;
                c.activation = a;
                c.bias = bias;
                c.rows = n % 3 == 0 ? 1 : (n % 3 == 1 ? 9 : 33);
                c.width = n % 2 == 0 ? 13 : 64;
                c.hidden = n % 2 == 0 ? 35 : 160;
                ++n;
                QTest::addRow("%s %s%s rows%d %dx%d", gated ? "gated" : "plain", activationName(a),
                              bias ? " bias" : "", c.rows, c.width, c.hidden)
                    << c;
            }
}

void TestVulkanModel::feedForward()
{
    QFETCH(FeedForwardCase, c);
    const std::uint64_t seed = 100 + std::uint64_t(c.rows * 7 + c.width);
    const Matrix x = randomMatrix(c.rows, c.width, seed, 1.5f);
    core::FeedForwardWeights w;
    w.kind = c.gated ? core::FeedForwardKind::Gated : core::FeedForwardKind::Plain;
    w.activation = c.activation;
    w.in = randomLinear(c.width, c.hidden, c.bias, seed + 1);
    if (c.gated)
        w.gate = randomLinear(c.width, c.hidden, c.bias, seed + 2);
    w.out = randomLinear(c.hidden, c.width, c.bias, seed + 3);
    const Matrix gpu = m_backend->blockOps().feedForward(x, w);
    const Matrix cpu = m_cpuOps.feedForward(x, w);

    const Bounded in = exactInput(x);
    Bounded hidden;
    if (c.gated) {
        // act(g) * u: each factor's error times the other's size, plus the product's rounding.
        const Bounded u = product(in, w.in);
        const Bounded g = activate(product(in, w.gate), c.activation);
        hidden.value = g.value.cwiseProduct(u.value);
        hidden.bound = g.bound.cwiseProduct(abs(u.value)) + abs(g.value).cwiseProduct(u.bound) +
                       g.bound.cwiseProduct(u.bound) + kU * abs(hidden.value);
    } else {
        hidden = activate(product(in, w.in), c.activation);
    }
    EXPECT_BOUNDED(gpu, cpu, product(hidden, w.out).bound, "feed-forward");
}

void TestVulkanModel::dense_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("activation");
    QTest::addColumn<bool>("bias");
    for (Activation a : kActivations)
        for (int rows : {1, 3, 12})
            QTest::addRow("%s rows%d", activationName(a), rows) << rows << int(a) << (rows != 3);
}

// The masked-LM head's transform: act(x W + b) on the [MASK] rows.
void TestVulkanModel::dense()
{
    QFETCH(int, rows);
    QFETCH(int, activation);
    QFETCH(bool, bias);
    const Matrix x = randomMatrix(rows, 23, 200 + std::uint64_t(rows), 2.0f);
    const core::LinearWeights w = randomLinear(23, 23, bias, 201);
    const Matrix gpu = m_backend->blockOps().dense(x, w, Activation(activation));
    const Matrix cpu = m_cpuOps.dense(x, w, Activation(activation));
    EXPECT_BOUNDED(gpu, cpu, activate(product(exactInput(x), w), Activation(activation)).bound,
                   "dense");
}

void TestVulkanModel::logits_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("vocab");
    QTest::addColumn<int>("width");
    QTest::addColumn<bool>("bias");
    QTest::addColumn<int>("chunkRows");
    // The last position of a causal model (1 row), a few [MASK]s, more rows than a register
    // tile; vocabularies not a multiple of 4; the vocabulary in several chunks (a multiple of
    // 4 rows each, the last one shorter), as Llama 3's output embedding needs.
    QTest::newRow("1 row, 413 x 16") << 1 << 413 << 16 << false << 0;
    QTest::newRow("2 rows, 204 x 24, bias") << 2 << 204 << 24 << true << 0;
    QTest::newRow("9 rows, 1001 x 13, bias") << 9 << 1001 << 13 << true << 0;
    QTest::newRow("1 row, 413 x 16, chunks of 100") << 1 << 413 << 16 << false << 100;
    QTest::newRow("3 rows, 1001 x 24, bias, chunks of 64") << 3 << 1001 << 24 << true << 64;
    QTest::newRow("1 row, 50257 x 64") << 1 << 50257 << 64 << false << 0;
}

void TestVulkanModel::logits()
{
    QFETCH(int, rows);
    QFETCH(int, vocab);
    QFETCH(int, width);
    QFETCH(bool, bias);
    QFETCH(int, chunkRows);
    const Matrix x = randomMatrix(rows, width, 300 + std::uint64_t(vocab), 2.0f);
    const Matrix e = randomMatrix(vocab, width, 301, 0.5f);
    const RowVector b = bias ? randomRow(vocab, 302) : RowVector();
    if (chunkRows)
        qputenv("ATTN_VK_LOGITS_CHUNK_ROWS", QByteArray::number(chunkRows));
    const Matrix gpu = m_backend->blockOps().logits(x, e, b);
    qunsetenv("ATTN_VK_LOGITS_CHUNK_ROWS");
    const Matrix cpu = m_cpuOps.logits(x, e, b);
    core::LinearWeights transposed;
    transposed.weight = e.transpose();
    transposed.bias = b;
    EXPECT_BOUNDED(gpu, cpu, product(exactInput(x), transposed).bound, "logits");
}

// The GPU shapes (shared-memory tiles, one row per workgroup) and the staging path a discrete
// GPU takes, both run on lavapipe: one of each operation.
void TestVulkanModel::otherShapesAndStaging()
{
    for (const char* setting : {"ATTN_VK_VARIANT", "ATTN_VK_FORCE_STAGING"}) {
        const QByteArray saved = qgetenv(setting);
        qputenv(setting, setting == std::string("ATTN_VK_VARIANT") ? "shared" : "1");
        auto backend = gpu::VulkanBackend::create();
        if (saved.isEmpty())
            qunsetenv(setting);
        else
            qputenv(setting, saved);
        core::BlockOps& ops = backend->blockOps();
        const QString where = QLatin1String(setting) + QLatin1Char(' ');

        const Matrix x = randomMatrix(70, 21, 400, 1.5f); // across a 64-row tile
        core::NormWeights norm;
        norm.gain = RowVector::Ones(21) + randomRow(21, 401, 0.2f);
        norm.bias = randomRow(21, 402, 0.2f);
        const Matrix n = ops.norm(x, norm);
        QVERIFY2(relativeDifference(n, m_cpuOps.norm(x, norm)) < 1e-5, qPrintable(where + "norm"));

        core::FeedForwardWeights ff;
        ff.kind = core::FeedForwardKind::Gated;
        ff.activation = Activation::Silu;
        ff.in = randomLinear(21, 67, true, 403);
        ff.gate = randomLinear(21, 67, true, 404);
        ff.out = randomLinear(67, 21, true, 405);
        const Bounded u = product(exactInput(x), ff.in);
        const Bounded g = activate(product(exactInput(x), ff.gate), ff.activation);
        Bounded hidden;
        hidden.value = g.value.cwiseProduct(u.value);
        hidden.bound = g.bound.cwiseProduct(abs(u.value)) + abs(g.value).cwiseProduct(u.bound) +
                       g.bound.cwiseProduct(u.bound) + kU * abs(hidden.value);
        EXPECT_BOUNDED(ops.feedForward(x, ff), m_cpuOps.feedForward(x, ff),
                       product(hidden, ff.out).bound, where + "feed-forward");

        const core::LinearWeights d = randomLinear(21, 21, true, 406);
        EXPECT_BOUNDED(ops.dense(x.topRows(3), d, Activation::GeluErf),
                       m_cpuOps.dense(x.topRows(3), d, Activation::GeluErf),
                       activate(product(exactInput(x.topRows(3)), d), Activation::GeluErf).bound,
                       where + "dense");

        const Matrix e = randomMatrix(333, 21, 407, 0.5f);
        const RowVector b = randomRow(333, 408);
        core::LinearWeights transposed;
        transposed.weight = e.transpose();
        transposed.bias = b;
        EXPECT_BOUNDED(ops.logits(x.topRows(2), e, b), m_cpuOps.logits(x.topRows(2), e, b),
                       product(exactInput(x.topRows(2)), transposed).bound, where + "logits");
    }
}

// ---- Whole forwards ----------------------------------------------------------------------------

void TestVulkanModel::forwardMatchesCpu_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("headsOff");
    const QStringList fixtures = test::modelFixtures();
    QVERIFY(fixtures.size() >= 8);
    for (const QString& name : fixtures) {
        const QJsonArray cases = test::expectedFor(name)[QLatin1String("cases")].toArray();
        // The longer text of each fixture, with and without heads switched off.
        const QString text = cases.last()[QLatin1String("text")].toString();
        QTest::addRow("%s", qPrintable(name)) << name << text << false;
        QTest::addRow("%s heads off", qPrintable(name)) << name << text << true;
    }
}

// Every committed checkpoint (every family, dtype, tokenizer kind; rotary with d_head 6 in
// Qwen2, grouped-query attention, sliding windows) on the Vulkan backend against the CPU
// backend: every layer's and head's attention weights, the final hidden state and the logits.
void TestVulkanModel::forwardMatchesCpu()
{
    QFETCH(QString, folder);
    QFETCH(QString, text);
    QFETCH(bool, headsOff);
    const auto model = fixture(folder);
    const std::vector<core::Token> tokens = core::modelTokens(*model, text);
    core::Interventions interventions;
    if (headsOff) {
        // Head 2 of the first layer and the last head of the last.
        interventions.headsOff.insert({0, 1});
        interventions.headsOff.insert({model->config().layers - 1, model->config().heads - 1});
    }
    const auto cpu = core::runModel(model, tokens, interventions, m_cpu);
    const auto gpu = core::runModel(model, tokens, interventions, *m_backend);
    expectSameForward(*gpu, *cpu);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(!cpu->predictions.empty() || model->config().objective == core::Objective::MaskedLm);
}

void TestVulkanModel::encoderDecoderMatchesCpu_data()
{
    QTest::addColumn<QString>("folder");
    QTest::newRow("bart") << "bart";
    QTest::newRow("marian") << "marian";
    QTest::newRow("t5") << "t5";
    QTest::newRow("flan-t5") << "flan-t5";
}

// BART, Marian and T5 (tests/data/models; T5's relative position bias through the backend's
// score bias): greedy decoding makes the same choices on Vulkan, and the
// final sequence's encoder, decoder and cross-attention heads, hidden states and logits match.
void TestVulkanModel::encoderDecoderMatchesCpu()
{
    QFETCH(QString, folder);
    const auto model = fixture(folder);
    const std::vector<core::Token> source = core::modelTokens(*model, QStringLiteral("Hi cat"));
    const core::GreedyDecoding cpu = core::decodeGreedily(model, source, 8, {}, m_cpu);
    const core::GreedyDecoding gpu = core::decodeGreedily(model, source, 8, {}, *m_backend);
    QCOMPARE(gpu.generated, cpu.generated);
    expectSameForward(*gpu.result, *cpu.result);
    for (const auto kind : {&core::ModelResult::encoderLayers, &core::ModelResult::crossLayers}) {
        const auto& g = *gpu.result.*kind;
        const auto& c = *cpu.result.*kind;
        QCOMPARE(g.size(), c.size());
        QVERIFY(!c.empty());
        for (std::size_t l = 0; l < c.size(); ++l)
            for (std::size_t h = 0; h < c[l]->heads.size(); ++h)
                QVERIFY(test::maxDifference(g[l]->heads[h].weights, c[l]->heads[h].weights) <=
                        1e-5);
    }
    QVERIFY(relativeDifference(gpu.result->encoderOutput, cpu.result->encoderOutput) < 2e-5);
}

void TestVulkanModel::extremeWeightsMatchCpu_data()
{
    QTest::addColumn<int>("place");
    QTest::addColumn<float>("value");
    using test::WeightPlace;
    const std::pair<WeightPlace, const char*> places[] = {
        {WeightPlace::FeedForwardIn, "W_in"},
        {WeightPlace::FeedForwardOut, "W_out"},
        {WeightPlace::Query, "W_q"},
        {WeightPlace::Value, "W_v"},
        {WeightPlace::FeedForwardNorm, "ln_2 gain"}};
    for (const auto& [place, name] : places)
        for (float value : {1e20f, 1e30f})
            QTest::addRow("%g in layer 1's %s", double(value), name) << int(place) << value;
    QTest::addRow("3e38 in layer 1's W_out") << int(WeightPlace::FeedForwardOut) << 3e38f;
}

// A finite weight however large, where no intermediate passes float32's range (the residual
// stream reaches 1e30 and more, and the next norm brings it back): both backends compute the same
// finite forward, no warning, a full top 10. (Before, the GPU's LayerNorm squared 1e20 into inf:
// NaN logits and an empty top-k where the CPU, which sums in double, gave them.)
void TestVulkanModel::extremeWeightsMatchCpu()
{
    QFETCH(int, place);
    QFETCH(float, value);
    const auto model =
        test::withWeight(*fixture(QStringLiteral("gpt2")), test::WeightPlace(place), value);
    const auto tokens = core::modelTokens(*model, QStringLiteral("The cat sat on the"));
    const auto cpu = core::runModel(model, tokens, {}, m_cpu);
    const auto gpu = core::runModel(model, tokens, {}, *m_backend);
    for (const core::ModelResult* result : {cpu.get(), gpu.get()}) {
        QVERIFY2(result->warnings.empty(), result->backend.c_str());
        QCOMPARE(result->predictions.size(), std::size_t(1));
        QVERIFY2(result->predictions.front().logits.allFinite(), result->backend.c_str());
        QCOMPARE(result->predictions.front().top.size(), std::size_t(10));
    }
    expectSameForward(*gpu, *cpu);
}

void TestVulkanModel::nonFiniteValuesAreReportedAsOnCpu_data()
{
    QTest::addColumn<int>("index");
    const auto cases = test::nonFiniteCases();
    for (std::size_t i = 0; i < cases.size(); ++i)
        QTest::newRow(cases[i].name) << int(i);
}

// Where a forward leaves float32's range (a score's products past 3.4e38, Q or V infinite), the
// GPU reports what the CPU does (tst_model_forward): the first place met, once, and no
// prediction. (Before, ln_1's gain of 1e20 gave NaN scores here and -inf on the CPU, from the
// same infinite products summed in another order: NaN logits against a top 10.)
void TestVulkanModel::nonFiniteValuesAreReportedAsOnCpu()
{
    QFETCH(int, index);
    const test::NonFiniteCase c = test::nonFiniteCases()[std::size_t(index)];
    const auto model = test::withWeight(*fixture(QStringLiteral("gpt2")), c.place, c.value);
    const auto tokens = core::modelTokens(*model, QStringLiteral("The cat sat on the"));
    const auto gpu = core::runModel(model, tokens, {}, *m_backend);
    QCOMPARE(gpu->backend, std::string("Vulkan"));
    QCOMPARE(test::warningList(gpu->warnings), c.warnings);
    QCOMPARE(gpu->predictions.size(), std::size_t(1));
    QVERIFY(gpu->predictions.front().top.empty());
}

// The weights of a model stay on the device: a second forward (another text, so another
// attention plan) uploads nothing, block or attention weights, and gives what a fresh backend
// gives. Switching a head off makes that layer's weights a new object (the intervention's
// copy): that one set goes up, nothing else.
void TestVulkanModel::secondForwardUploadsNoWeights()
{
    for (const char* name : {"gpt2", "llama", "bert"}) {
        const auto model = fixture(QLatin1String(name));
        auto backend = gpu::VulkanBackend::create();
        core::runModel(model, core::modelTokens(*model, QStringLiteral("The [MASK] sat")), {},
                       *backend);
        const std::uint64_t uploads = backend->weightCache().uploads();
        QVERIFY(uploads > 0);
        const auto tokens =
            core::modelTokens(*model, QStringLiteral("A dog ran on the mat [MASK]"));
        const auto start = std::chrono::steady_clock::now();
        const auto second = core::runModel(model, tokens, {}, *backend);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        QCOMPARE(backend->weightCache().uploads(), uploads);
        qInfo("%s: %llu weight sets (%.1f KiB) uploaded once; second forward %.1f ms", name,
              static_cast<unsigned long long>(uploads),
              double(backend->weightCache().uploadedBytes()) / 1024.0, ms);
        const auto fresh = core::runModel(model, tokens, {}, *m_backend);
        QVERIFY(test::bitIdentical(second->finalHidden, fresh->finalHidden));

        core::Interventions off;
        off.headsOff.insert({0, 0});
        const auto intervened = core::runModel(model, tokens, off, *backend);
        QCOMPARE(backend->weightCache().uploads(), uploads + 1);
        QVERIFY(test::bitIdentical(intervened->finalHidden,
                                   core::runModel(model, tokens, off, *m_backend)->finalHidden));
    }
}

// Past its budget the cache evicts the least recently used copies and still computes the same
// numbers; a matrix freed and replaced at the same address by other values is not mistaken for
// the old one.
void TestVulkanModel::weightCacheEvictsAndNoticesReusedAddresses()
{
    const auto model = fixture(QStringLiteral("gpt2"));
    const auto tokens = core::modelTokens(*model, QStringLiteral("The cat sat on the"));
    const auto reference = core::runModel(model, tokens, {}, *m_backend);
    qputenv("ATTN_VK_WEIGHT_CACHE_MIB", "0"); // everything but the operation's own is evicted
    auto small = gpu::VulkanBackend::create();
    qunsetenv("ATTN_VK_WEIGHT_CACHE_MIB");
    for (int run = 0; run < 2; ++run) {
        const auto result = core::runModel(model, tokens, {}, *small);
        QVERIFY(test::bitIdentical(result->finalHidden, reference->finalHidden));
        QVERIFY(test::bitIdentical(result->predictions.front().logits,
                                   reference->predictions.front().logits));
    }
    QVERIFY(small->weightCache().evictions() > 0);
    QVERIFY(small->weightCache().entries() <= 6); // at most one operation's worth

    // The same storage, new values: the sampled fingerprint tells them apart.
    core::LinearWeights w = randomLinear(16, 16, true, 500);
    const Matrix x = randomMatrix(3, 16, 501);
    const Matrix before = m_backend->blockOps().dense(x, w, Activation::Relu);
    const float* storage = w.weight.data();
    const Matrix other = randomMatrix(16, 16, 502);
    w.weight = other; // same size: copied into the same storage
    QCOMPARE(w.weight.data(), storage);
    const Matrix after = m_backend->blockOps().dense(x, w, Activation::Relu);
    QVERIFY(relativeDifference(after, m_cpuOps.dense(x, w, Activation::Relu)) < 1e-5);
    QVERIFY(relativeDifference(before, after) > 1e-2);
}

void TestVulkanModel::faultsInBlockOperationsFallBackToCpu_data()
{
    QTest::addColumn<QByteArray>("fault");
    QTest::newRow("device-lost") << QByteArray("device-lost");
    QTest::newRow("out-of-memory") << QByteArray("out-of-memory");
}

// A device fault in a block operation (GPT-2's first LayerNorm comes before any attention)
// ends the forward on the CPU backend, as a compute's does: the CPU's very numbers, one warning.
void TestVulkanModel::faultsInBlockOperationsFallBackToCpu()
{
    QFETCH(QByteArray, fault);
    const auto model = fixture(QStringLiteral("gpt2"));
    const auto tokens = core::modelTokens(*model, QStringLiteral("The cat sat on the"));
    std::string notice;
    auto backend = gpu::createBackend(gpu::BackendChoice::Vulkan, "", &notice);
    QCOMPARE(backend->name(), std::string("Vulkan"));
    // A new shape, so that buffers are allocated (out-of-memory is injected there).
    const auto other = core::modelTokens(*model, QStringLiteral("A dog"));
    core::runModel(model, other, {}, *backend);
    qputenv("ATTN_VK_FAULT", fault);
    const auto result = core::runModel(model, tokens, {}, *backend);
    qunsetenv("ATTN_VK_FAULT");
    QCOMPARE(backend->name(), std::string("CPU"));
    const auto cpu = core::runModel(model, tokens, {}, m_cpu);
    QVERIFY(test::bitIdentical(result->finalHidden, cpu->finalHidden));
    QVERIFY(
        test::bitIdentical(result->predictions.front().logits, cpu->predictions.front().logits));
    int switched = 0;
    for (const std::string& warning : result->warnings)
        switched += warning.find("switched to the CPU backend") != std::string::npos;
    QCOMPARE(switched, 1);
}

QTEST_GUILESS_MAIN(TestVulkanModel)
#include "tst_vulkan_model.moc"
