// Seed 004: attention as a kernel smoother, against closed forms. Two keys at -1
// and +1 with values 0 and 1 make every normalization a formula in the query x:
//   softmax    f(x) = 1 / (1 + exp(-2x / h^2))            (the Gaussian kernel's ratio)
//   sparsemax  f(x) = clamp((1 + 2x / h^2) / 2, 0, 1)      (Martins & Astudillo's two-point case)
//   ReLU       Epanechnikov weights max(0, 1 - (x - k)^2 / 2h^2), normalized
//   hard       the nearest key's value (ties to the first key)

#include "core/analysis/kernel_smoother.h"
#include "core/analysis/learned_kernel.h"
#include "core/attention_result.h"
#include "core/cpu_backend.h"
#include "core/error.h"
#include "support/problems.h"

#include <QTest>
#include <cmath>

using namespace attn;
using core::KernelSmootherSettings;
using core::Normalization;

namespace {

const std::vector<double> kKeys{-1.0, 1.0};
const std::vector<double> kValues{0.0, 1.0};

KernelSmootherSettings settings(Normalization n, double h)
{
    KernelSmootherSettings s;
    s.normalization = n;
    s.bandwidth = h;
    return s;
}

} // namespace

class TestKernelSmoother : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void twoKeysClosedForms_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("h");
        for (double h : {0.5, 1.0, 2.0})
            for (double x : {-1.7, -0.3, 0.0, 0.2, 0.9, 2.5})
                QTest::addRow("x=%g h=%g", x, h) << x << h;
    }
    void twoKeysClosedForms()
    {
        QFETCH(double, x);
        QFETCH(double, h);
        const double softmax =
            core::smootherEstimate(kKeys, kValues, x, settings(Normalization::Softmax, h));
        QVERIFY(std::abs(softmax - 1.0 / (1.0 + std::exp(-2.0 * x / (h * h)))) < 1e-12);

        const double sparse =
            core::smootherEstimate(kKeys, kValues, x, settings(Normalization::Sparsemax, h));
        QVERIFY(std::abs(sparse - std::clamp((1.0 + 2.0 * x / (h * h)) / 2.0, 0.0, 1.0)) < 1e-12);

        const double r0 = std::max(0.0, 1.0 - (x + 1) * (x + 1) / (2 * h * h));
        const double r1 = std::max(0.0, 1.0 - (x - 1) * (x - 1) / (2 * h * h));
        const double relu =
            core::smootherEstimate(kKeys, kValues, x, settings(Normalization::Relu, h));
        QVERIFY(std::abs(relu - (r0 + r1 > 0 ? r1 / (r0 + r1) : 0.0)) < 1e-12);

        const double hard =
            core::smootherEstimate(kKeys, kValues, x, settings(Normalization::Hard, h));
        QCOMPARE(hard, x > 0.0 ? 1.0 : 0.0); // at x = 0 the tie goes to the first key
    }

    // Nadaraya-Watson with a Gaussian kernel, written out for five keys.
    void softmaxIsNadarayaWatson()
    {
        const std::vector<double> keys{-2.0, -0.5, 0.3, 1.1, 3.0};
        const std::vector<double> values{1.0, -1.0, 2.0, 0.5, 4.0};
        const double h = 0.7;
        for (double q : {-3.0, -0.4, 0.0, 1.5, 2.2}) {
            double num = 0, den = 0;
            for (std::size_t j = 0; j < keys.size(); ++j) {
                const double k = std::exp(-(q - keys[j]) * (q - keys[j]) / (2 * h * h));
                num += k * values[j];
                den += k;
            }
            QVERIFY(std::abs(core::smootherEstimate(keys, values, q,
                                                    settings(Normalization::Softmax, h)) -
                             num / den) < 1e-12);
        }
        // A wide bandwidth averages every value; a narrow one is the nearest neighbour.
        QVERIFY(std::abs(core::smootherEstimate(keys, values, 0.0,
                                                settings(Normalization::Softmax, 1e4)) -
                         1.3) < 1e-6);
        QVERIFY(std::abs(core::smootherEstimate(keys, values, 0.25,
                                                settings(Normalization::Softmax, 0.05)) -
                         2.0) < 1e-9);
        QCOMPARE(core::smootherEstimate(keys, values, 0.25, settings(Normalization::Hard, 0.05)),
                 2.0);
        QCOMPARE(core::smootherEstimate(keys, values, 2.2, settings(Normalization::Hard, 7)), 4.0);
    }

    // The dot score on a line is not local: a positive query weighs the largest key most.
    void dotScoreIsNotLocal()
    {
        KernelSmootherSettings s = settings(Normalization::Softmax, 0.1);
        s.score = core::SmootherScore::Dot;
        const std::vector<double> keys{-2.0, 0.5, 1.0, 3.0};
        const std::vector<double> w = core::smootherWeights(keys, 0.4, s); // nearest key is 0.5
        QVERIFY(w[3] > 0.99);
        const std::vector<double> scores = core::smootherScores(keys, 0.4, s);
        QVERIFY(std::abs(scores[1] - 0.4 * 0.5 / 0.1) < 1e-12);
    }

    void sweep()
    {
        const core::SmootherCurve curve = core::sweepSmoother(
            kKeys, kValues, -2.0, 2.0, 41, settings(Normalization::Softmax, 1.0));
        QCOMPARE(int(curve.queries.size()), 41);
        QCOMPARE(curve.queries.front(), -2.0);
        QCOMPARE(curve.queries.back(), 2.0);
        QVERIFY(std::abs(curve.estimates[20] - 0.5) < 1e-12); // x = 0: halfway by symmetry
        QCOMPARE(int(curve.weights.rows()), 41);
        QVERIFY(std::abs(curve.weights.row(7).sum() - 1.0f) < 1e-6f);
        for (std::size_t n = 1; n < curve.estimates.size(); ++n)
            QVERIFY(curve.estimates[n] > curve.estimates[n - 1]);
        QVERIFY_THROWS_EXCEPTION(core::Error, core::sweepSmoother(kKeys, {1.0}, 0, 1, 5, {}));
        QVERIFY_THROWS_EXCEPTION(
            core::Error,
            core::smootherEstimate(kKeys, kValues, 0, settings(Normalization::Softmax, 0)));
    }

    // The 2-D variant: with d_k = 2 the principal axes only rotate, reflect and shift the
    // plane, so every distance between queries and keys is kept.
    void queryKeyMapKeepsDistancesAtDk2()
    {
        const auto result = core::CpuBackend().compute(
            test::handProblem(core::ScoreKind::ScaledDot, core::Normalization::Softmax), {});
        const core::QueryKeyMap map = core::projectQueriesAndKeys(*result, 0);
        QCOMPARE(int(map.queries.rows()), 4);
        QCOMPARE(int(map.keys.rows()), 4);
        const core::Matrix& Q = result->heads[0].Q;
        const core::Matrix& K = result->heads[0].K;
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
                QVERIFY(std::abs((map.queries.row(i) - map.keys.row(j)).norm() -
                                 (Q.row(i) - K.row(j)).norm()) < 1e-5f);
        QVERIFY(std::abs(map.explained[0] + map.explained[1] - 1.0) < 1e-9);
        QVERIFY(map.weights == result->heads[0].weights);
        QCOMPARE(map.queryTokens[3], QStringLiteral("cat"));
    }

    // Seed 004's learned kernel on three points worked by hand: x = 0, 1, 2 with y = 0, 1, 4
    // and the fixed kernel h = 1, each point predicted from the other two. For x = 0 the
    // scores are −1/2 and −2, so a = 1 / (1 + e^−1.5) = 0.81757 goes to x = 1 and
    // f = a + 4 (1 − a) = 1.54728; x = 1 has both others at distance 1, f = 2; x = 2 gives
    // x = 1 the weight a, f = a. Loss ((4 − 3a)² + 1² + (a − 4)²) / 3 = 4.50730.
    void learnedKernelThreePointsByHand()
    {
        const core::RegressionData data{{0.0, 1.0, 2.0}, {0.0, 1.0, 4.0}};
        const double a = 1.0 / (1.0 + std::exp(-1.5));
        const core::KernelMaps fixed = core::KernelMaps::fixedKernel(1.0);
        const core::MatrixD w = core::kernelWeights(data, data.x, fixed, true);
        core::MatrixD expected(3, 3);
        expected << 0, a, 1 - a, 0.5, 0, 0.5, 1 - a, a, 0;
        QVERIFY((w - expected).cwiseAbs().maxCoeff() < 1e-15);
        const core::KernelLoss l = core::leaveOneOutLoss(data, fixed);
        const double loss = ((4 - 3 * a) * (4 - 3 * a) + 1 + (a - 4) * (a - 4)) / 3;
        QVERIFY(std::abs(l.loss - loss) < 1e-14);
        QVERIFY(std::abs(loss - 4.50730) < 1e-5);
        // Without leaving out, at q = 0.5: e^−1/8 on x = 0 and 1, e^−9/8 on x = 2.
        const double near = std::exp(-0.125);
        const double far = std::exp(-1.125);
        const std::vector<double> f = core::kernelPredictions(data, {0.5}, fixed);
        QVERIFY(std::abs(f[0] - (near + 4 * far) / (2 * near + far)) < 1e-14);
        // The same Nadaraya-Watson estimate as the Kernel tab's softmax of the distance score,
        // at h = 2 as well (w = 1/h scales the line).
        for (double h : {1.0, 2.0}) {
            core::KernelSmootherSettings s;
            s.bandwidth = h;
            const double tab = core::smootherEstimate(data.x, data.y, 0.5, s);
            QVERIFY(
                std::abs(core::kernelPredictions(data, {0.5}, core::KernelMaps::fixedKernel(h))[0] -
                         tab) < 1e-14);
        }
        // The learned maps' kernel width: 1 / |w_k[0] + 2 w_k[1] x|.
        core::KernelMaps maps;
        maps.key = {2.0, 0.5};
        QCOMPARE(maps.effectiveWidth(0.0), 0.5);
        QCOMPARE(maps.effectiveWidth(3.0), 0.2);
        QCOMPARE(fixed.effectiveWidth(1.7), 1.0);
    }

    // The hand-written gradient against central differences (step 1e-6) at maps where the
    // query and key maps differ, on the chirp's 40 points.
    void learnedKernelGradientMatchesDifferences()
    {
        const core::RegressionData data = core::RegressionData::chirp();
        core::KernelMaps maps;
        maps.query = {2.3, 0.7};
        maps.key = {1.9, 1.1};
        const core::KernelLoss l = core::leaveOneOutLoss(data, maps);
        const double step = 1e-6;
        for (int p = 0; p < 4; ++p) {
            core::KernelMaps up = maps;
            core::KernelMaps down = maps;
            double* u = p < 2 ? &up.query[std::size_t(p)] : &up.key[std::size_t(p - 2)];
            double* d = p < 2 ? &down.query[std::size_t(p)] : &down.key[std::size_t(p - 2)];
            *u += step;
            *d -= step;
            const double numeric =
                (core::leaveOneOutLoss(data, up).loss - core::leaveOneOutLoss(data, down).loss) /
                (2 * step);
            QVERIFY2(std::abs(l.gradient[std::size_t(p)] - numeric) <
                         1e-7 * std::max(1.0, std::abs(numeric)),
                     qPrintable(QStringLiteral("parameter %1: %2 against %3")
                                    .arg(p)
                                    .arg(l.gradient[std::size_t(p)])
                                    .arg(numeric)));
        }
    }

    // Seed 004: the kernel machine tunes h, attention learns the embedding. The numbers from
    // resources/examples/generate_examples.py's plain-Python reimplementation: the best of
    // 401 widths is h = 0.08337 with loss 0.056093; 300 Adam steps from w_q = w_k = (1, 0)
    // (the fixed kernel at h = 1, loss 0.36394) reach 0.053113, with a kernel 0.4064 wide at
    // x = 0 and 0.06859 at x = 3.
    void learnedMapsBeatTheBestBandwidth()
    {
        const core::RegressionData data = core::RegressionData::chirp();
        QCOMPARE(int(data.x.size()), 40);
        QCOMPARE(data.x.back(), 3.0);
        QVERIFY(std::abs(data.y[2] - (std::sin(4.0 / 169.0) + 0.25 * std::sin(6.8))) < 1e-15);
        const core::BestBandwidth best = core::bestBandwidth(data);
        QVERIFY(std::abs(best.bandwidth - 0.0833739) < 1e-6);
        QVERIFY(std::abs(best.loss - 0.0560926) < 1e-6);
        const core::LearnedKernel learned = core::learnKernelMaps(data);
        QCOMPARE(int(learned.losses.size()), 301);
        QVERIFY(std::abs(learned.losses.front() - 0.3639423) < 1e-6);
        QVERIFY(std::abs(learned.losses.back() - 0.0531129) < 1e-6);
        QVERIFY(learned.losses.back() < best.loss);
        QVERIFY(std::abs(learned.maps.effectiveWidth(0.0) - 0.406380) < 1e-5);
        QVERIFY(std::abs(learned.maps.effectiveWidth(3.0) - 0.0685931) < 1e-6);
    }

    void learnedKernelRefusals()
    {
        QVERIFY_THROWS_EXCEPTION(core::Error,
                                 core::leaveOneOutLoss({{1.0}, {2.0}}, core::KernelMaps{}));
        QVERIFY_THROWS_EXCEPTION(core::Error,
                                 core::leaveOneOutLoss({{1.0, 2.0}, {2.0}}, core::KernelMaps{}));
        QVERIFY_THROWS_EXCEPTION(core::Error, core::KernelMaps::fixedKernel(0.0));
        const core::RegressionData data{{0.0, 1.0}, {0.0, 1.0}};
        QVERIFY_THROWS_EXCEPTION(core::Error, core::learnKernelMaps(data, {}, -1));
        QVERIFY_THROWS_EXCEPTION(core::Error, core::learnKernelMaps(data, {}, 5, 0.0));
        QVERIFY_THROWS_EXCEPTION(core::Error, core::bestBandwidth(data, 1.0, 0.5));
        QVERIFY_THROWS_EXCEPTION(core::Error, core::kernelWeights(data, {0.5}, {}, true));
    }
};

QTEST_GUILESS_MAIN(TestKernelSmoother)
#include "tst_kernel_smoother.moc"
