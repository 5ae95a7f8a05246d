// Identities that must hold for any input: checked on seeded random problems.

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/pooling.h"
#include "support/problems.h"

#include <QTest>
#include <cmath>

using namespace attn;
using core::Matrix;
using core::Normalization;
using core::ScoreKind;

namespace {

std::shared_ptr<const core::AttentionResult> run(const std::shared_ptr<core::Problem>& p,
                                                 core::ComputeOptions options = {})
{
    return core::CpuBackend().compute(p, options);
}

double maxAbsDiff(const Matrix& a, const Matrix& b)
{
    return double((a - b).cwiseAbs().maxCoeff());
}

// Vaswani et al. eq. 1 for one head, written out in double precision.
Eigen::MatrixXd referenceHead(const core::Problem& p, const core::HeadWeights& w)
{
    const Eigen::MatrixXd xq = p.queryInput().cast<double>();
    const Eigen::MatrixXd xk = p.keyInput().cast<double>();
    const Eigen::MatrixXd q = xq * w.Wq.cast<double>();
    const Eigen::MatrixXd k = xk * w.Wk.cast<double>();
    const Eigen::MatrixXd v = xk * w.Wv.cast<double>();
    Eigen::MatrixXd s = (q * k.transpose()) / std::sqrt(double(p.weights->dK));
    const core::Mask mask = p.makeMask();
    for (int i = 0; i < s.rows(); ++i) {
        double max = -INFINITY;
        for (int j = 0; j < s.cols(); ++j)
            if (!mask.isMasked(i, j))
                max = std::max(max, s(i, j));
        double sum = 0;
        for (int j = 0; j < s.cols(); ++j)
            sum += (s(i, j) = mask.isMasked(i, j) ? 0.0 : std::exp(s(i, j) - max));
        s.row(i) /= sum;
    }
    return s * v;
}

} // namespace

class TestAttentionIdentities : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void softmaxRowsSumToOneAndMaskedCellsAreZero_data()
    {
        QTest::addColumn<int>("score");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<int>("window");
        for (ScoreKind s : {ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::Additive,
                            ScoreKind::Bilinear, ScoreKind::Cosine})
            for (bool causal : {false, true})
                for (int window : {-1, 3})
                    QTest::addRow("%s causal=%d window=%d", core::toString(s).data(), causal,
                                  window)
                        << int(s) << causal << window;
    }
    void softmaxRowsSumToOneAndMaskedCellsAreZero()
    {
        QFETCH(int, score);
        QFETCH(bool, causal);
        QFETCH(int, window);
        auto p = test::randomProblem(37, 37, 32, 4, 7, false);
        p->score = ScoreKind(score);
        p->mask.causal = causal;
        p->mask.window = window;
        p->keyIsPadding[5] = true;
        p->mask.customCells = {{3, 2}, {10, 0}};
        auto r = run(p);
        const core::Mask mask = p->makeMask();
        for (const auto& head : r->heads)
            for (int i = 0; i < 37; ++i) {
                QVERIFY(std::abs(head.weights.row(i).sum() - 1.0f) < 1e-5f);
                for (int j = 0; j < 37; ++j)
                    if (mask.isMasked(i, j))
                        QCOMPARE(head.weights(i, j), 0.0f);
                    else
                        QVERIFY(head.weights(i, j) > 0.0f);
            }
        QVERIFY(r->diagnostics.fullyMaskedRows.empty());
    }

    void hardRowsAreOneHotAtTheArgmax()
    {
        auto p = test::randomProblem(20, 30, 16, 2, 3, true);
        p->normalization = Normalization::Hard;
        auto r = run(p);
        for (const auto& head : r->heads)
            for (int i = 0; i < 20; ++i) {
                Eigen::Index argmax = 0;
                head.scaledScores.row(i).maxCoeff(&argmax);
                for (int j = 0; j < 30; ++j)
                    QCOMPARE(head.weights(i, j), j == argmax ? 1.0f : 0.0f);
            }
    }

    void multiHeadEqualsHeadsOneByOne()
    {
        // Seed 004: Z = Cat[H_1 .. H_h] W^O, each head computed on its own in double.
        auto p = test::randomProblem(24, 24, 48, 3, 11, false);
        p->mask.causal = true;
        p->editWeights().heads[1].enabled = false;
        auto r = run(p);
        Eigen::MatrixXd concat = Eigen::MatrixXd::Zero(24, 48);
        for (int h = 0; h < 3; ++h) {
            const Eigen::MatrixXd head = referenceHead(*p, p->weights->heads[std::size_t(h)]);
            QVERIFY(maxAbsDiff(r->heads[std::size_t(h)].output, head.cast<float>()) < 1e-5);
            if (h != 1)
                concat.middleCols(h * 16, 16) = head;
        }
        const Eigen::MatrixXd expected = concat * p->weights->Wo.cast<double>();
        QVERIFY(maxAbsDiff(r->output, expected.cast<float>()) < 1e-5);
        QCOMPARE(r->concat().middleCols(16, 16), Matrix(Matrix::Zero(24, 16)));
    }

    void lowTemperatureApproachesHard()
    {
        auto p = test::randomProblem(16, 16, 16, 1, 5, false);
        p->normalization = Normalization::Hard;
        const Matrix hard = run(p)->heads[0].weights;
        p->normalization = Normalization::Softmax;
        double previous = 1.0;
        for (float t : {1.0f, 0.1f, 0.01f, 0.001f}) {
            p->temperature = t;
            const double distance = maxAbsDiff(run(p)->heads[0].weights, hard);
            QVERIFY2(distance <= previous, "softmax moves towards hard as T falls");
            previous = distance;
        }
        QVERIFY(previous < 1e-3);
    }

    void scalingEqualsTemperatureSqrtDk()
    {
        auto p = test::randomProblem(19, 19, 64, 4, 9, false); // d_k = 16
        p->score = ScoreKind::ScaledDot;
        const Matrix scaled = run(p)->heads[2].weights;
        p->score = ScoreKind::Dot;
        p->temperature = 4.0f; // sqrt(16)
        QVERIFY(maxAbsDiff(run(p)->heads[2].weights, scaled) < 1e-6);
    }

    void crossAttentionShapes()
    {
        auto p = test::randomProblem(6, 9, 16, 2, 1, true);
        auto r = run(p);
        QCOMPARE(r->heads[0].weights.rows(), 6);
        QCOMPARE(r->heads[0].weights.cols(), 9);
        QCOMPARE(r->heads[0].Q.rows(), 6);
        QCOMPARE(r->heads[0].K.rows(), 9);
        QCOMPARE(r->output.rows(), 6);
        QCOMPARE(r->output.cols(), 16);
    }

    void keepingIntermediatesChangesNoWeight()
    {
        auto p = test::randomProblem(300, 300, 64, 8, 2, false);
        p->mask.causal = true;
        core::ComputeOptions lean;
        lean.keepIntermediates = false;
        auto full = run(p);
        auto fast = run(p, lean);
        for (int h = 0; h < 8; ++h) {
            QCOMPARE(fast->heads[std::size_t(h)].weights, full->heads[std::size_t(h)].weights);
            QVERIFY(fast->heads[std::size_t(h)].rawScores.size() == 0);
        }
        QCOMPARE(fast->output, full->output);
    }

    void poolingEqualsPoolingTheFullMatrix_data()
    {
        QTest::addColumn<int>("mode");
        QTest::newRow("mean") << int(core::PoolMode::Mean);
        QTest::newRow("max") << int(core::PoolMode::Max);
    }
    void poolingEqualsPoolingTheFullMatrix()
    {
        QFETCH(int, mode);
        auto p = test::randomProblem(1000, 1000, 32, 2, 4, false);
        p->mask.causal = true;
        core::ComputeOptions pooled;
        pooled.keepIntermediates = false;
        pooled.viewRows = 300;
        pooled.viewCols = 300;
        pooled.pool = core::PoolMode(mode);
        auto full = run(p);
        auto small = run(p, pooled);
        QVERIFY(small->pooling.pooled);
        QCOMPARE(small->pooling.rowBlock, 4);
        QCOMPARE(small->heads[1].weights.rows(), 250);
        const Matrix expected =
            core::poolMatrix(full->heads[1].weights, 4, 4, core::PoolMode(mode));
        QVERIFY(maxAbsDiff(small->heads[1].weights, expected) < 1e-7);
        QCOMPARE(small->output, full->output);
    }

    void oversizedResultIsRefusedCleanly()
    {
        auto p = test::randomProblem(16384, 16384, 8, 8, 1, false);
        QVERIFY_THROWS_EXCEPTION(core::Error, run(p)); // 8 x 16384^2 floats = 8 GiB
    }
};

QTEST_GUILESS_MAIN(TestAttentionIdentities)
#include "tst_attention_identities.moc"
