// The projections view's identities, on weights worked by hand: seed 002's one projection W^Q
// cut into heads, seed 004's QK and OV circuits, and Bishop's biases absorbed as a row of the
// weights (p. 365). The expected matrices are written out below, multiplied by hand.

#include "core/analysis/projection_algebra.h"
#include "core/attention_result.h"
#include "core/cpu_backend.h"
#include "core/error.h"
#include "support/problems.h"

#include <QTest>

using namespace attn;

namespace {

core::MatrixD rows(int r, int c, std::initializer_list<double> values)
{
    core::MatrixD m(r, c);
    auto it = values.begin();
    for (int i = 0; i < r; ++i)
        for (int j = 0; j < c; ++j)
            m(i, j) = *it++;
    return m;
}

// Seed 001's hand head as head 1 and a second head, d_model = 4 = h d_k (h = 2, d_k = d_v = 2),
// on X = [1 2 0 0; 0 1 0 1; 1 0 1 0; 0 0 2 1] (not one-hot, so X W is not W).
//   W_2^Q = [0 1; 1 0; 0 0; 2 0]   W_2^K = [1 0; 1 0; 0 1; 0 0]   W_2^V = [0 1; 1 1; 0 0; 1 0]
//   W^O = [1 0 1 0; 0 1 0 1; 1 1 0 0; 0 0 1 1] (rows 1-2 head 1's W_1^O, rows 3-4 head 2's)
std::shared_ptr<core::Problem> twoHeads()
{
    auto p = test::handProblem(core::ScoreKind::ScaledDot, core::Normalization::Softmax);
    p->queryEmbedding.resize(4, 4);
    p->queryEmbedding << 1, 2, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 0, 2, 1;
    core::ModelWeights& w = p->editWeights();
    core::HeadWeights second = w.heads[0];
    second.Wq << 0, 1, 1, 0, 0, 0, 2, 0;
    second.Wk << 1, 0, 1, 0, 0, 1, 0, 0;
    second.Wv << 0, 1, 1, 1, 0, 0, 1, 0;
    w.heads.push_back(second);
    w.Wo.resize(4, 4);
    w.Wo << 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0, 1, 1;
    return p;
}

std::shared_ptr<const core::AttentionResult> compute(std::shared_ptr<core::Problem> problem)
{
    return core::CpuBackend().compute(std::move(problem), {});
}

} // namespace

class TestProjectionAlgebra : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // W^Q = [W_1^Q W_2^Q] has rows (1 0 0 1) (0 1 1 0) (1 1 0 0) (0 0 2 0), so X W^Q is
    // x_1: r1 + 2 r2, x_2: r2 + r4, x_3: r1 + r3, x_4: 2 r3 + r4; its columns 3-4 are X W_2^Q.
    void oneProjectionIsTheHeadsSideBySide()
    {
        const auto result = compute(twoHeads());
        const core::OneProjection q = core::oneProjection(*result, core::Projection::Query);
        QCOMPARE(q.width, 2);
        QCOMPARE(q.weights, rows(4, 4, {1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0, 0, 0, 2, 0}));
        QCOMPARE(q.product, rows(4, 4, {1, 2, 2, 1, 0, 1, 3, 0, 2, 1, 0, 1, 2, 2, 2, 0}));
        QCOMPARE(q.separate.size(), std::size_t(2));
        QCOMPARE(q.separate[1], rows(4, 2, {2, 1, 3, 0, 0, 1, 2, 0}));
        QCOMPARE(q.largestDifference, 0.0);
        // The backend's Q of head 2 is the same block.
        QVERIFY((result->heads[1].Q.cast<double>() - q.separate[1]).cwiseAbs().maxCoeff() < 1e-6);
    }

    // W_1^Q W_1^K^T: rows (1,0) (0,1) (1,1) (0,0) against (1,0) (0,1) (0,0) (1,1) -- the
    // 4 x 4 product has rank 2 = d_k. W_1^V W_1^O: rows (1,2) (0,1) (2,0) (1,1) times
    // [1 0 1 0; 0 1 0 1]. Head 2 likewise.
    void circuitsAreTheProducts()
    {
        const auto result = compute(twoHeads());
        const core::HeadCircuits one = core::headCircuits(*result, 0);
        QCOMPARE(one.qk, rows(4, 4, {1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 0, 2, 0, 0, 0, 0}));
        QCOMPARE(one.ov, rows(4, 4, {1, 2, 1, 2, 0, 1, 0, 1, 2, 0, 2, 0, 1, 1, 1, 1}));
        QCOMPARE(one.qkRank, 2);
        QCOMPARE(one.ovRank, 2);
        const core::HeadCircuits two = core::headCircuits(*result, 1);
        QCOMPARE(two.qk, rows(4, 4, {0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 2, 2, 0, 0}));
        QCOMPARE(two.ov, rows(4, 4, {0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0}));
        QCOMPARE(two.qkRank, 2);
        // The output through the circuits is the output through Concat and W^O (float
        // rounding only), and the scores X W^Q W^K^T X^T are q . k.
        QVERIFY(one.outputDifference < 1e-5);
        QVERIFY(one.scoreDifference >= 0 && one.scoreDifference < 1e-5);
        // Rank 1: a W^Q with one column zero.
        auto p = twoHeads();
        p->editWeights().heads[0].Wq.col(1).setZero();
        QCOMPARE(core::headCircuits(*compute(p), 0).qkRank, 1);
    }

    // A switched-off head is zeros in the concatenation: the rebuilt output leaves it out and
    // still matches; with every bias of the hand problem, A 1 b^V W^O and b^O are added.
    void outputThroughCircuitsWithBiasesAndHeadsOff()
    {
        auto off = twoHeads();
        off->editWeights().heads[1].enabled = false;
        QVERIFY(core::headCircuits(*compute(off), 0).outputDifference < 1e-5);
        const auto biased = compute(
            test::handProblemWithBiases(core::ScoreKind::ScaledDot, core::Normalization::Softmax));
        const core::HeadCircuits c = core::headCircuits(*biased, 0);
        QVERIFY(c.outputDifference < 1e-5);
        QCOMPARE(c.scoreDifference, -1.0); // biases: the scores are not X W^Q W^K^T X^T alone
        QVERIFY_THROWS_EXCEPTION(core::Error, core::headCircuits(*biased, 1));
    }

    // X = I, so [X 1] [W; b] is W with b added to every row: Q = (1,1) (0,2) (1,2) (0,1),
    // V = (0,3) (-1,2) (1,1) (0,2) (tests/support/problems.h).
    void biasIsARowOfTheWeights()
    {
        const auto result = compute(
            test::handProblemWithBiases(core::ScoreKind::ScaledDot, core::Normalization::Softmax));
        const core::AbsorbedBias q = core::absorbedBias(*result, 0, core::Projection::Query);
        QVERIFY(q.hasBias);
        QCOMPARE(q.augmentedInput,
                 rows(4, 5, {1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 1}));
        QCOMPARE(q.augmentedWeights, rows(5, 2, {1, 0, 0, 1, 1, 1, 0, 0, 0, 1}));
        QCOMPARE(q.product, rows(4, 2, {1, 1, 0, 2, 1, 2, 0, 1}));
        QVERIFY(q.largestDifference < 1e-6);
        const core::AbsorbedBias v = core::absorbedBias(*result, 0, core::Projection::Value);
        QCOMPARE(v.product, rows(4, 2, {0, 3, -1, 2, 1, 1, 0, 2}));
        QVERIFY(v.largestDifference < 1e-6);
        // No bias: a row of zeros, and the product is X W.
        const auto plain =
            compute(test::handProblem(core::ScoreKind::ScaledDot, core::Normalization::Softmax));
        const core::AbsorbedBias k = core::absorbedBias(*plain, 0, core::Projection::Key);
        QVERIFY(!k.hasBias);
        QCOMPARE(k.augmentedWeights.row(4), core::MatrixD::Zero(1, 2));
        QCOMPARE(k.product, rows(4, 2, {1, 0, 0, 1, 0, 0, 1, 1}));
    }
};

QTEST_GUILESS_MAIN(TestProjectionAlgebra)
#include "tst_projection_algebra.moc"
