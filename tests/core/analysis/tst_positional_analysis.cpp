// Seeds 001 and 003: positional encodings. P against the sinusoidal formula of
// Vaswani et al. (3.5), P P^T against its closed form, X = E + P, order blindness without
// positions (and its end with positions or a causal mask), rotary positions against the CPU
// backend's rotation and the closed form of the score by distance.

#include "core/analysis/positional_analysis.h"
#include "core/attention_result.h"
#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene.h"
#include "support/problems.h"

#include <QTest>
#include <cmath>

using namespace attn;

namespace {

core::Scene sentence(core::PositionalKind positions, bool causal)
{
    core::Scene scene = core::makeScene(
        QStringLiteral("the student who got the highest grade was awarded"), 16, 2, 4);
    scene.positional.kind = positions;
    scene.mask.causal = causal;
    return scene;
}

} // namespace

class TestPositionalAnalysis : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sinusoidalMatrixAndItsSimilarity()
    {
        const core::PositionalView view =
            core::positionalView(sentence(core::PositionalKind::Sinusoidal, false));
        const int t = int(view.tokens.size());
        const int d = int(view.positions.cols());
        QCOMPARE(t, 9);
        QCOMPARE(d, 16);
        // PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(p / 10000^(2i/d)).
        for (int p = 0; p < t; ++p)
            for (int i = 0; i < d / 2; ++i) {
                const double angle = p / std::pow(10000.0, 2.0 * i / d);
                QVERIFY(std::abs(view.positions(p, 2 * i) - std::sin(angle)) < 1e-6);
                QVERIFY(std::abs(view.positions(p, 2 * i + 1) - std::cos(angle)) < 1e-6);
            }
        QVERIFY(view.sum == view.embeddings + view.positions);
        // p . q = sum_i sin a_p sin a_q + cos a_p cos a_q = sum_i cos((p - q) / 10000^(2i/d)):
        // a function of the distance alone, d/2 on the diagonal.
        for (int p = 0; p < t; ++p)
            for (int q = 0; q < t; ++q) {
                double expected = 0;
                for (int i = 0; i < d / 2; ++i)
                    expected += std::cos((p - q) / std::pow(10000.0, 2.0 * i / d));
                QVERIFY(std::abs(view.similarity(p, q) - expected) < 1e-5);
            }
        const core::Matrix cosine = core::positionSimilarity(view.positions, true);
        QVERIFY(std::abs(cosine(3, 3) - 1.0f) < 1e-6f);

        const core::PositionalView none =
            core::positionalView(sentence(core::PositionalKind::None, false));
        QVERIFY(none.positions.isZero());
        QVERIFY(none.sum == none.embeddings);
    }

    // Order blindness: without positions and without a causal mask, permuting the tokens
    // permutes the output exactly; positions or the causal mask break it.
    void orderBlindness_data()
    {
        QTest::addColumn<int>("positions");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<bool>("equivariant");
        QTest::addRow("no positions") << int(core::PositionalKind::None) << false << true;
        QTest::addRow("sinusoidal") << int(core::PositionalKind::Sinusoidal) << false << false;
        QTest::addRow("no positions, causal") << int(core::PositionalKind::None) << true << false;
    }
    void orderBlindness()
    {
        QFETCH(int, positions);
        QFETCH(bool, causal);
        QFETCH(bool, equivariant);
        const std::vector<int> permutation{3, 0, 8, 5, 1, 7, 2, 6, 4};
        for (core::ScoreKind score :
             {core::ScoreKind::ScaledDot, core::ScoreKind::Additive, core::ScoreKind::Cosine}) {
            core::Scene scene = sentence(core::PositionalKind(positions), causal);
            scene.score = score;
            const core::PermutationCheck check = core::checkPermutation(scene, permutation);
            QCOMPARE(check.equivariant, equivariant);
            if (equivariant) {
                QVERIFY(check.outputDeviation < 1e-12);
                QVERIFY(check.weightDeviation < 1e-12);
            } else {
                QVERIFY2(check.outputDeviation > 1e-3,
                         qPrintable(QString::number(check.outputDeviation)));
            }
        }
        QVERIFY_THROWS_EXCEPTION(
            core::Error,
            core::checkPermutation(sentence(core::PositionalKind::None, false), {0, 1}));
        core::Scene cross = sentence(core::PositionalKind::None, false);
        cross.source = QStringLiteral("a source");
        QVERIFY_THROWS_EXCEPTION(core::Error, core::checkPermutation(cross, permutation));
    }

    // rotateToPosition turns vectors as the CPU backend does (RotarySpec's rotate-half).
    void rotaryMatchesTheBackend()
    {
        auto problem = test::randomProblem(6, 6, 16, 2, 3, false);
        problem->rotary = core::defaultRotary(8);
        problem->rotary.firstPosition = 2;
        QCOMPARE(int(problem->rotary.inverseFrequencies.size()), 4);
        QVERIFY(std::abs(problem->rotary.inverseFrequencies[1] - std::pow(10000.0, -2.0 / 8)) <
                1e-7);
        const auto result = core::CpuBackend().compute(problem, {});
        for (int p = 0; p < 6; ++p) {
            const core::RowVectorD q = result->heads[1].Q.row(p).cast<double>();
            const core::RowVectorD turned = core::rotateToPosition(q, problem->rotary, 2 + p);
            QVERIFY(
                (turned.cast<float>() - result->heads[1].rotatedQ.row(p)).cwiseAbs().maxCoeff() <
                1e-5f);
            QVERIFY(std::abs(turned.norm() - q.norm()) < 1e-12); // a rotation keeps lengths
        }
    }

    // RoFormer eq. 16: R(m) q . R(n) k depends on m - n only; at d_k = 2 with q = k = e_1 it is
    // cos((m - n) omega).
    void rotaryScoreByDistance()
    {
        core::RotarySpec spec;
        spec.inverseFrequencies = {0.3f};
        core::RowVectorD e1(2);
        e1 << 1.0, 0.0;
        const core::RotaryView view = core::rotaryView(e1, e1, spec, 10, 6);
        QCOMPARE(int(view.scores.size()), 13);
        for (std::size_t n = 0; n < view.scores.size(); ++n)
            QVERIFY(std::abs(view.scores[n] - std::cos(view.distances[n] * double(0.3f))) < 1e-12);
        QVERIFY(std::abs(view.angles(4, 0) - 4 * 0.3f) < 1e-6f);
        QVERIFY(std::abs(view.rotated(4, 1) - std::sin(4 * double(0.3f))) < 1e-6);

        const core::RotarySpec wide = core::defaultRotary(8);
        core::RowVectorD q(8), k(8);
        q << 0.3, -1.2, 0.5, 2.0, 0.1, -0.4, 1.1, 0.7;
        k << -0.8, 0.6, 1.5, -0.2, 0.9, 0.3, -1.0, 0.4;
        for (int m : {0, 3, 11})
            for (int n : {0, 5, 9}) {
                const double here =
                    core::rotateToPosition(q, wide, m).dot(core::rotateToPosition(k, wide, n));
                const double shifted = core::rotateToPosition(q, wide, m + 40)
                                           .dot(core::rotateToPosition(k, wide, n + 40));
                QVERIFY(std::abs(here - shifted) < 1e-9);
            }
        const core::RotaryView curve = core::rotaryView(q, k, wide, 4, 5);
        QVERIFY(std::abs(curve.scores[5] - q.dot(k)) < 1e-12); // distance 0: no turn between them
        QVERIFY_THROWS_EXCEPTION(core::Error, core::rotaryView(q, k, core::defaultRotary(6), 4, 5));
    }
};

QTEST_GUILESS_MAIN(TestPositionalAnalysis)
#include "tst_positional_analysis.moc"
