// Seed 000's limits of hard attention on the hard-alignment example (05) and the hand problem:
// each row's softmax against its argmax and the mass the argmax drops, worked from the
// examples' embeddings by hand (the scores are dot products of the concept vectors that
// resources/examples/generate_examples.py writes).

#include "core/analysis/hard_attention.h"
#include "core/attention_result.h"
#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene_json.h"
#include "support/problems.h"

#include <QTest>
#include <cmath>

using namespace attn;

class TestHardAttention : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // "Le" = 1.5 CAT + 1 THE against Black (2 BLACK), cat (2 CAT), ate, the (2 THE), mouse:
    // scores 0, 3, 0, 2, 0. Softmax keeps e^3 / (e^3 + e^2 + 3) on "cat" and gives "the"
    // e^2 / (e^3 + e^2 + 3); the argmax keeps "cat" alone. "a" = EAT + PAST scores 3 with
    // "ate" (2 EAT + PAST) and 0 with the rest.
    void leLosesTheArticle()
    {
        const core::Scene scene = core::loadScene(
            QStringLiteral(ATTN_RESOURCES_DIR "/examples/05-translation-hard-alignment.json"));
        const auto result = core::CpuBackend().compute(core::resolveProblem(scene), {});
        const core::HardAttentionLoss loss = core::hardAttentionLoss(*result, 0);
        const double e2 = std::exp(2.0), e3 = std::exp(3.0);
        const double sum = e3 + e2 + 3.0;
        QCOMPARE(loss.chosen[0], 1); // Le -> cat
        QVERIFY(std::abs(loss.kept[0] - e3 / sum) < 1e-6);
        QVERIFY(std::abs(loss.lost[0] - (e2 + 3.0) / sum) < 1e-6);
        QCOMPARE(loss.runnerUp[0], 3); // the
        QVERIFY(std::abs(loss.runnerUpWeight[0] - e2 / sum) < 1e-6);
        QVERIFY(std::abs(loss.soft(0, 3) - e2 / sum) < 1e-6);
        QCOMPARE(loss.hard(0, 1), 1.0);
        QCOMPARE(loss.hard.row(0).sum(), 1.0);
        QCOMPARE(loss.chosen[3], 2); // a -> ate
        QVERIFY(std::abs(loss.kept[3] - e3 / (e3 + 4.0)) < 1e-6);
        // The hard rows are the scene's own weights (it computes hard attention).
        QCOMPARE(loss.hard.cast<float>(), result->heads[0].weights);
        // Every soft row sums to 1.
        QVERIFY((loss.soft.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-12);
    }

    // Under a causal mask the first query sees only itself: it keeps everything. The hand
    // problem's row 3 (q = (1,1), scores 1 1 0 2 before the mask, 1 1 0 after) ties "This" and
    // "is": the argmax takes the lowest key and drops half.
    void maskedKeysAndTies()
    {
        auto problem = test::handProblem(core::ScoreKind::Dot, core::Normalization::Softmax);
        problem->mask.causal = true;
        const auto result = core::CpuBackend().compute(problem, {});
        const core::HardAttentionLoss loss = core::hardAttentionLoss(*result, 0);
        QCOMPARE(loss.chosen[0], 0);
        QCOMPARE(loss.lost[0], 0.0);
        QCOMPARE(loss.runnerUp[0], -1);
        QCOMPARE(loss.chosen[2], 0);
        QCOMPARE(loss.runnerUp[2], 1);
        const double e = std::exp(1.0);
        QVERIFY(std::abs(loss.kept[2] - e / (2 * e + 1)) < 1e-6);
        QCOMPARE(loss.soft(2, 3), 0.0); // masked
        QVERIFY_THROWS_EXCEPTION(core::Error, core::hardAttentionLoss(*result, 1));
    }
};

QTEST_GUILESS_MAIN(TestHardAttention)
#include "tst_hard_attention.moc"
