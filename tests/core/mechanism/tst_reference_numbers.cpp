// The CPU backend against a reference written out from the definitions in double precision
// (support/reference_attention.h): nothing of core computes an expected number (not
// Problem::makeMask, not maskFillValue, not poolMatrix). Two heads with d_k = 2 and d_v = 3,
// so that scaling by 1/sqrt(d_v) instead of 1/sqrt(d_k) shows; every mask rule, both fills
// (the -9e15 stated as a literal), fully masked rows, mean and max pooling with edge blocks.
#include "core/attention_result.h"
#include "core/cpu_backend.h"
#include "core/problem.h"
#include "support/problems.h"
#include "support/reference_attention.h"

#include <QtTest>

#include <limits>
#include <tuple>

namespace core = attn::core;
namespace reference = attn::test::reference;
using reference::Dense;

namespace {

std::shared_ptr<core::Problem> problemFor(const reference::Spec& s)
{
    auto p = std::make_shared<core::Problem>();
    QStringList words;
    for (const char* word : reference::kFiveTokenWords)
        words.append(QString::fromLatin1(word));
    p->queryTokens = attn::test::tokensOf(words);
    p->keyTokens = p->queryTokens;
    p->queryEmbedding = s.X.cast<float>(); // X itself: no positions added
    p->keyIsPadding = s.padding;
    core::ModelWeights& w = p->editWeights();
    w.dModel = int(s.X.cols());
    w.dK = int(s.heads[0].Wq.cols());
    w.dV = int(s.heads[0].Wv.cols());
    for (const reference::Head& h : s.heads) {
        core::HeadWeights head;
        head.Wq = h.Wq.cast<float>();
        head.Wk = h.Wk.cast<float>();
        head.Wv = h.Wv.cast<float>();
        head.wAdditive = core::RowVector::Ones(w.dK);
        head.bilinear = core::Matrix::Identity(w.dK, w.dK);
        w.heads.push_back(head);
    }
    w.Wo = s.Wo.cast<float>();
    p->score = s.scaled ? core::ScoreKind::ScaledDot : core::ScoreKind::Dot;
    p->fill = s.minusNineE15 ? core::MaskFill::MinusNineE15 : core::MaskFill::NegativeInfinity;
    p->mask.causal = s.causal;
    p->mask.window = s.window;
    p->mask.windowCausal = false;
    p->mask.padding = s.maskPadding;
    p->mask.customCells.assign(s.custom.begin(), s.custom.end());
    return p;
}

} // namespace

class TestReferenceNumbers : public QObject
{
    Q_OBJECT

private slots:
    void everyStageMatchesTheReference_data()
    {
        QTest::addColumn<bool>("scaled");
        QTest::addColumn<bool>("minusNineE15");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<int>("window");
        QTest::addColumn<bool>("padding");
        QTest::addColumn<bool>("custom");
        for (const bool fill : {false, true}) {
            const char* f = fill ? "-9e15" : "-inf";
            QTest::addRow("scaled, no mask, %s", f)
                << true << fill << false << -1 << false << false;
            QTest::addRow("dot, no mask, %s", f) << false << fill << false << -1 << false << false;
            QTest::addRow("causal, %s", f) << true << fill << true << -1 << false << false;
            QTest::addRow("padding, %s", f) << true << fill << false << -1 << true << false;
            QTest::addRow("causal + padding, %s", f) << true << fill << true << -1 << true << false;
            QTest::addRow("window 1, %s", f) << true << fill << false << 1 << false << false;
            QTest::addRow("window 1 + padding, %s", f)
                << true << fill << false << 1 << true << false;
            // Row 0 fully masked (causal leaves it key 0, a custom cell takes that).
            QTest::addRow("causal + padding + custom, %s", f)
                << true << fill << true << -1 << true << true;
        }
    }

    void everyStageMatchesTheReference()
    {
        QFETCH(bool, scaled);
        QFETCH(bool, minusNineE15);
        QFETCH(bool, causal);
        QFETCH(int, window);
        QFETCH(bool, padding);
        QFETCH(bool, custom);
        reference::Spec s = reference::fiveTokens();
        s.scaled = scaled;
        s.minusNineE15 = minusNineE15;
        s.causal = causal;
        s.window = window;
        s.maskPadding = padding;
        if (custom)
            s.custom = {{0, 0}, {3, 2}, {4, 0}};
        const reference::Result want = reference::compute(s);
        core::CpuBackend backend;
        const auto got = backend.compute(problemFor(s), core::ComputeOptions{});
        QCOMPARE(got->heads.size(), want.heads.size());
        for (std::size_t h = 0; h < want.heads.size(); ++h) {
            const core::HeadResult& head = got->heads[h];
            const reference::HeadResult& ref = want.heads[h];
            const auto where = [h](const char* stage) {
                return qPrintable(QStringLiteral("%1, head %2").arg(QLatin1String(stage)).arg(h));
            };
            QVERIFY2(reference::difference(head.rawScores, ref.raw) < 1e-5, where("raw"));
            QVERIFY2(reference::difference(head.scaledScores, ref.scaled) < 1e-5, where("scaled"));
            QVERIFY2(reference::difference(head.maskedScores, ref.masked) < 1e-5, where("masked"));
            QVERIFY2(reference::difference(head.weights, ref.weights) < 1e-5, where("weights"));
            QVERIFY2(reference::difference(head.output, ref.output) < 1e-5, where("output"));
        }
        QVERIFY(reference::difference(got->concat(), want.concat) < 1e-5);
        QVERIFY(reference::difference(got->output, want.z) < 1e-5);
    }

    // The fill is PyTorch's masked_fill(-9e15) exactly (seed 000), not a value near it; a row
    // with every key masked is uniform under it (every score equal), all zeros under -inf.
    void theFillIsMinusNineE15Exactly()
    {
        reference::Spec s = reference::fiveTokens();
        s.minusNineE15 = true;
        s.causal = true;
        s.maskPadding = true;
        s.custom = {{0, 0}};
        core::CpuBackend backend;
        const auto got = backend.compute(problemFor(s), core::ComputeOptions{});
        const core::HeadResult& head = got->heads[0];
        QCOMPARE(head.maskedScores(0, 0), -9e15f);
        QCOMPARE(head.maskedScores(2, 1), -9e15f); // padding
        QCOMPARE(head.maskedScores(2, 3), -9e15f); // causal
        QCOMPARE(double(head.maskedScores(2, 3)),
                 -8999999815811072.0); // -9e15 as a float32 (2^29 apart)
        for (int j = 0; j < 5; ++j)
            QCOMPARE(head.weights(0, j), 0.2f);

        s.minusNineE15 = false;
        const auto excluded = backend.compute(problemFor(s), core::ComputeOptions{});
        QCOMPARE(excluded->heads[0].maskedScores(0, 0), -std::numeric_limits<float>::infinity());
        for (int j = 0; j < 5; ++j)
            QCOMPARE(excluded->heads[0].weights(0, j), 0.0f);
        QCOMPARE(excluded->diagnostics.fullyMaskedRows, std::vector<int>{0});
    }

    void pooledWeightsAreBlockMeansAndMaxima_data()
    {
        QTest::addColumn<bool>("mean");
        QTest::addColumn<bool>("causal");
        QTest::addRow("mean") << true << false;
        QTest::addRow("mean, causal") << true << true;
        QTest::addRow("max") << false << false;
        QTest::addRow("max, causal") << false << true;
    }

    // 5 x 5 weights into at most 2 x 2: blocks of 3, so the last row and column of blocks hold
    // 2 cells a side (the corner 4): a mean divides by the cells its block has.
    void pooledWeightsAreBlockMeansAndMaxima()
    {
        QFETCH(bool, mean);
        QFETCH(bool, causal);
        reference::Spec s = reference::fiveTokens();
        s.causal = causal;
        const reference::Result want = reference::compute(s);
        core::ComputeOptions options;
        options.keepIntermediates = false;
        options.viewRows = options.viewCols = 2;
        options.pool = mean ? core::PoolMode::Mean : core::PoolMode::Max;
        core::CpuBackend backend;
        const auto got = backend.compute(problemFor(s), options);
        QVERIFY(got->pooling.pooled);
        QCOMPARE(got->pooling.rowBlock, 3);
        QCOMPARE(got->pooling.colBlock, 3);
        for (std::size_t h = 0; h < want.heads.size(); ++h) {
            const Dense expected = reference::pooled(want.heads[h].weights, 3, mean);
            QCOMPARE(got->heads[h].weights.rows(), Eigen::Index(2));
            QVERIFY2(reference::difference(got->heads[h].weights, expected) < 1e-5,
                     qPrintable(QStringLiteral("head %1").arg(h)));
            QVERIFY(reference::difference(got->heads[h].output, want.heads[h].output) <
                    1e-5); // never pooled
        }
    }

    // "Mean of heads" by hand: three heads of 1 x 2 weights, the second off, so (head 1 +
    // head 3) / 2 = (0.15, 0.85); the matrix (figures) and the one-cell form (tooltips) agree
    // to the bit. Every head off: zeros, nothing to average.
    void meanOfEnabledHeadsByHand()
    {
        core::AttentionResult result;
        for (auto [a, b, on] : {std::tuple{0.1f, 0.9f, true}, std::tuple{0.7f, 0.3f, false},
                                std::tuple{0.2f, 0.8f, true}}) {
            core::HeadResult head;
            head.weights = core::Matrix{{a, b}};
            head.enabled = on;
            result.heads.push_back(head);
        }
        const core::Matrix mean = core::meanOfEnabledHeads(result);
        QCOMPARE(mean.rows(), Eigen::Index(1));
        QCOMPARE(mean.cols(), Eigen::Index(2));
        QCOMPARE(mean(0, 0), float((double(0.1f) + double(0.2f)) / 2.0));
        QCOMPARE(mean(0, 1), float((double(0.9f) + double(0.8f)) / 2.0));
        QVERIFY(std::abs(mean(0, 0) - 0.15f) < 1e-7f);
        QVERIFY(std::abs(mean(0, 1) - 0.85f) < 1e-7f);
        for (int j = 0; j < 2; ++j)
            QCOMPARE(core::meanOfEnabledHeads(result, 0, j), mean(0, j));

        for (core::HeadResult& head : result.heads)
            head.enabled = false;
        QCOMPARE(core::meanOfEnabledHeads(result), core::Matrix(core::Matrix::Zero(1, 2)));
        QCOMPARE(core::meanOfEnabledHeads(result, 0, 1), 0.0f);
    }
};

QTEST_GUILESS_MAIN(TestReferenceNumbers)
#include "tst_reference_numbers.moc"
