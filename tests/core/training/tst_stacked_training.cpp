// Training stacked blocks: the hand-written backward through LayerNorm, the feed-forward
// layer and attention against central differences, and an induction task that one attention
// layer cannot learn and two stacked blocks can.

#include "core/error.h"
#include "core/scene.h"
#include "core/scene_layers.h"
#include "core/training/stacked_training.h"

#include <QTest>
#include <cmath>

using namespace attn::core;

namespace {

Scene inductionScene(int blocks, int dModel = 16)
{
    Scene scene = makeScene(QStringLiteral("a b c d e a b c"), dModel, 1, 3);
    scene.tokenizer.mode = TokenizerMode::Word;
    setLayerCount(scene, blocks);
    return scene;
}

} // namespace

class TestStackedTraining : public QObject
{
    Q_OBJECT

private slots:
    // Every parameter's gradient, on a few entries each, against (L(p + h) - L(p - h)) / 2h.
    void gradientsMatchCentralDifferences()
    {
        Scene scene = inductionScene(2, 6);
        for (StackedLayer& layer : scene.layers) // nonzero biases, so their gradient is tested
            layer.b1.setConstant(0.1f);
        const StackedTrainer trainer(scene, {3, 6, 5}, AdamSettings{}, 2);
        StackedParameters p = trainer.parameters();
        StackedParameters g;
        trainer.lossAndGradient(p, &g);
        const auto spans = p.spans();
        const auto grads = g.spans();
        // W_q, W_k, W_v, w_additive, bilinear, W_O, then W_1, b_1, W_2, b_2, per block.
        QCOMPARE(int(spans.size()), 2 * (6 + 4));
        const double h = 1e-6;
        int checked = 0;
        for (std::size_t s = 0; s < spans.size(); ++s) {
            for (Eigen::Index i = 0; i < spans[s].second;
                 i += std::max<Eigen::Index>(1, spans[s].second / 3)) {
                double& x = spans[s].first[i];
                const double keep = x;
                x = keep + h;
                const double up = trainer.lossAndGradient(p, nullptr).total;
                x = keep - h;
                const double down = trainer.lossAndGradient(p, nullptr).total;
                x = keep;
                const double numeric = (up - down) / (2 * h);
                const double analytic = grads[s].first[i];
                QVERIFY2(std::abs(numeric - analytic) <= 1e-6 + 1e-4 * std::abs(numeric),
                         qPrintable(QStringLiteral("span %1 entry %2: numeric %3, analytic %4")
                                        .arg(s)
                                        .arg(i)
                                        .arg(numeric, 0, 'g', 10)
                                        .arg(analytic, 0, 'g', 10)));
                ++checked;
            }
        }
        QVERIFY(checked > 40);
        // The first block gets a gradient only through the second: it is not zero.
        QVERIFY(Eigen::Map<const Eigen::ArrayXd>(grads[0].first, grads[0].second).abs().maxCoeff() >
                1e-8);
    }

    // "a b ... a" -> attend to the "b" after the earlier "a".
    void inductionTargets()
    {
        const Scene scene = inductionScene(2);
        const TrainingData data = makeInductionData(scene, {4, 8, 1});
        for (const TrainingExample& e : data.examples)
            for (int i = 0; i < 8; ++i) {
                int expected = -1;
                for (int p = i - 1; p >= 0 && expected < 0; --p)
                    if (e.queryTokens[std::size_t(p)] == e.queryTokens[std::size_t(i)])
                        expected = p + 1;
                QCOMPARE(bool(e.countedRows[std::size_t(i)]), expected >= 0);
                if (expected >= 0)
                    QCOMPARE(e.targetWeights(i, expected), 1.0);
            }
    }

    // 32 random sequences of 8 words out of 5, 100 Adam steps at 0.02 from Xavier weights:
    // two blocks attend where the task asks on every counted row, one layer on about 64 %
    // (measured 1.000 against 0.643; it can remember some sequences by their positions, not
    // look up what followed a word). On sequences not trained on, neither has seen enough
    // to generalise (0.47 against 0.40).
    void twoBlocksLearnWhatOneCannot()
    {
        AdamSettings adam;
        adam.learningRate = 0.02;
        StackedTrainer two(inductionScene(2), {32, 8, 1}, adam, 1);
        StackedTrainer one(inductionScene(1), {32, 8, 1}, adam, 1);
        const double before = two.accuracy();
        QCOMPARE(two.run(100), 100);
        one.run(100);
        QVERIFY2(two.accuracy() >= 0.95, qPrintable(QString::number(two.accuracy())));
        QVERIFY2(one.accuracy() <= 0.75, qPrintable(QString::number(one.accuracy())));
        QVERIFY(before < 0.5);
        QVERIFY(two.lossHistory().back() < 0.1 * two.lossHistory().front());
        // The trained scene holds the trained weights and computes as the trainer did.
        const Scene trained = two.trainedScene();
        QVERIFY(trained.layers[1].W1 != inductionScene(2).layers[1].W1);
        QVERIFY(trained.mask.causal);
        const TrainingEvaluation now = two.evaluate();
        QCOMPARE(now.step, 100);
        QCOMPARE(now.accuracy, two.accuracy());
        QCOMPARE(int(now.weights.size()), 1);
        QCOMPARE(now.weights.front().rows(), 8);
        QCOMPARE(now.loss.total, two.lossAndGradient(two.parameters(), nullptr).total);
    }

    void refusals()
    {
        try {
            StackedTrainer(makeScene(QStringLiteral("a b a b"), 8, 1, 1), {}, AdamSettings{}, 1);
            QFAIL("accepted");
        } catch (const Error& error) {
            QCOMPARE(QString::fromStdString(error.what()),
                     QStringLiteral("layers: the scene has no stacked blocks to train"));
        }
        Scene oneWord = inductionScene(2);
        oneWord.text = QStringLiteral("a a a");
        try {
            makeInductionData(oneWord);
            QFAIL("accepted");
        } catch (const Error& error) {
            QCOMPARE(QString::fromStdString(error.what()),
                     QStringLiteral("text: the induction task needs at least 2 different words"));
        }
    }
};

QTEST_GUILESS_MAIN(TestStackedTraining)
#include "tst_stacked_training.moc"
