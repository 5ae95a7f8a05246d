// Seed 004: attention as a kernel smoother, against closed forms. Two keys at -1
// and +1 with values 0 and 1 make every normalization a formula in the query x:
//   softmax    f(x) = 1 / (1 + exp(-2x / h^2))            (the Gaussian kernel's ratio)
//   sparsemax  f(x) = clamp((1 + 2x / h^2) / 2, 0, 1)      (Martins & Astudillo's two-point case)
//   ReLU       Epanechnikov weights max(0, 1 - (x - k)^2 / 2h^2), normalized
//   hard       the nearest key's value (ties to the first key)

#include "core/analysis/kernel_smoother.h"
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
};

QTEST_GUILESS_MAIN(TestKernelSmoother)
#include "tst_kernel_smoother.moc"
