// Seeds 000 and 002: the gradient view. The softmax Jacobian of a query against its
// closed form diag(w) - w w^T; d output / d scores = V^T J; and on the built-in d_k
// examples (10: d_k = 4, 11: d_k = 256) the unscaled scores spread sqrt(d_k) times wider,
// saturate the rows and shrink the Jacobian, where the scaled ones do not.

#include "core/analysis/softmax_sensitivity.h"
#include "core/attention_result.h"
#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene_json.h"
#include "support/problems.h"

#include <QTest>
#include <cmath>

using namespace attn;

namespace {

std::shared_ptr<const core::AttentionResult> computeExample(const char* name)
{
    const core::Scene scene =
        core::loadScene(QStringLiteral(ATTN_RESOURCES_DIR "/examples/") + QLatin1String(name));
    return core::CpuBackend().compute(core::resolveProblem(scene), {});
}

} // namespace

class TestSoftmaxSensitivity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Seed 001's four tokens: J(j, k) = w_j (delta_jk - w_k), worked from the weights.
    void jacobianHasTheClosedForm()
    {
        const auto result = core::CpuBackend().compute(
            test::handProblem(core::ScoreKind::ScaledDot, core::Normalization::Softmax), {});
        for (int query = 0; query < 4; ++query) {
            const core::SoftmaxSensitivity s = core::softmaxSensitivity(*result, 0, query, 10);
            Eigen::VectorXd w(4);
            for (int j = 0; j < 4; ++j)
                w(j) = s.weights[std::size_t(j)];
            const Eigen::MatrixXd expected = Eigen::MatrixXd(w.asDiagonal()) - w * w.transpose();
            QVERIFY((s.jacobian.cast<double>() - expected).cwiseAbs().maxCoeff() < 1e-6);
            // The weights are the backend's.
            QVERIFY((w.transpose().cast<float>() - result->heads[0].weights.row(query))
                        .cwiseAbs()
                        .maxCoeff() < 1e-6f);
            // A shift of every score changes nothing: the columns of J sum to 0.
            QVERIFY(s.jacobian.cast<double>().colwise().sum().cwiseAbs().maxCoeff() < 1e-7);
            // d output / d scores = V^T J (d_v x T_k).
            const Eigen::MatrixXd outputJ =
                result->heads[0].V.cast<double>().transpose() * expected;
            QVERIFY((s.outputJacobian.cast<double>() - outputJ).cwiseAbs().maxCoeff() < 1e-6);
            QVERIFY(std::abs(s.jacobianNorm - expected.norm()) < 1e-6);
            // Scores of the row: Q K^T / sqrt(2) (d_k = 2).
            QVERIFY(std::abs(s.scores[0] -
                             double(result->heads[0].rawScores(query, 0)) / std::sqrt(2.0)) < 1e-6);
        }
        // The histogram holds every unmasked score: 16 of them.
        QCOMPARE(core::softmaxSensitivity(*result, 0, 0, 10).histogram.total, 16);
    }

    void saturationAtLargeDk_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("sqrtDk");
        QTest::addRow("10, d_k = 4") << "10-saturation-dk-4.json" << 2.0;
        QTest::addRow("11, d_k = 256") << "11-saturation-dk-256.json" << 16.0;
    }
    void saturationAtLargeDk()
    {
        QFETCH(QString, file);
        QFETCH(double, sqrtDk);
        const auto result = computeExample(file.toUtf8().constData());
        const int tq = result->problem->queryCount();
        double maxUnscaled = 0, maxScaled = 0, normUnscaled = 0, normScaled = 0;
        for (int q = 0; q < tq; ++q) {
            const core::ScalingComparison c = core::compareScaling(*result, 0, q);
            // The same raw scores, the scaled ones divided by sqrt(d_k): their spread too.
            QVERIFY(std::abs(c.unscaled.histogram.standardDeviation /
                                 c.scaled.histogram.standardDeviation -
                             sqrtDk) < 1e-9 * sqrtDk);
            QCOMPARE(c.scaled.scale, 1.0 / sqrtDk);
            maxUnscaled += c.unscaled.maxWeight / tq;
            maxScaled += c.scaled.maxWeight / tq;
            normUnscaled += c.unscaled.jacobianNorm / tq;
            normScaled += c.scaled.jacobianNorm / tq;
            // A saturated row (one weight above 0.99) has almost no gradient left.
            if (c.unscaled.maxWeight > 0.99)
                QVERIFY(c.unscaled.jacobianNorm < 0.02);
        }
        if (sqrtDk > 10) {
            // Seed 002: "large dot products cause softmax to saturate ... vanishing gradients".
            QVERIFY2(maxUnscaled > 0.85, qPrintable(QString::number(maxUnscaled)));
            QVERIFY2(maxScaled < 0.4, qPrintable(QString::number(maxScaled)));
            QVERIFY2(normUnscaled < 0.5 * normScaled,
                     qPrintable(QStringLiteral("%1 vs %2").arg(normUnscaled).arg(normScaled)));
        } else {
            // At d_k = 4 the two stay alike: neither row saturates.
            QVERIFY(maxUnscaled < 0.5);
            QVERIFY(std::abs(normUnscaled - normScaled) < 0.2 * normScaled);
        }
    }

    void errorsNameTheProblem()
    {
        const auto result = computeExample("10-saturation-dk-4.json");
        QVERIFY_THROWS_EXCEPTION(core::Error, core::softmaxSensitivity(*result, 1, 0));
        QVERIFY_THROWS_EXCEPTION(core::Error, core::softmaxSensitivity(*result, 0, 99));
        core::ComputeOptions lean;
        lean.keepIntermediates = false;
        const auto noScores = core::CpuBackend().compute(result->problem, lean);
        try {
            core::softmaxSensitivity(*noScores, 0, 0);
            QFAIL("no error");
        } catch (const core::Error& e) {
            QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("intermediates")));
        }
    }
};

QTEST_GUILESS_MAIN(TestSoftmaxSensitivity)
#include "tst_softmax_sensitivity.moc"
