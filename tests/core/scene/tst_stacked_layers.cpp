// Stacked blocks (seed 001: self-attention, then a fully connected layer, "iteratively ...
// several times"), post-norm as Vaswani et al. 2017, Fig. 1: H = LN(X + MHA(X)),
// Y = LN(H + FFN(H)), Y the next block's X. Expected numbers are worked out here by hand.

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene.h"
#include "core/scene_json.h"
#include "core/scene_layers.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <cmath>

using namespace attn::core;

namespace {

// "a b" with a = e_1, b = e_2, no positions, one head with d_k = d_v = 2. Layer 1: W_q = W_k
// = 0 (every weight 1/2), W_v = W_o = I. Layer 2: W_q = W_k = W_v = W_o = I. FFNs zero
// unless a test sets them.
Scene handScene()
{
    Scene scene = makeScene(QStringLiteral("a b"), 2, 1, 1);
    scene.tokenizer.mode = TokenizerMode::Word;
    scene.embedding.kind = EmbeddingKind::Table;
    scene.embedding.table = {{QStringLiteral("a"), {1.0f, 0.0f}},
                             {QStringLiteral("b"), {0.0f, 1.0f}}};
    scene.positional.kind = PositionalKind::None;
    scene.mask = MaskSpec();
    HeadWeights& head = scene.weights.heads[0];
    head.Wq = Matrix::Zero(2, 2);
    head.Wk = Matrix::Zero(2, 2);
    head.Wv = Matrix::Identity(2, 2);
    scene.weights.Wo = Matrix::Identity(2, 2);
    setLayerCount(scene, 2, 2);
    ModelWeights& second = layerAttention(scene, 1);
    second.heads[0].Wq = Matrix::Identity(2, 2);
    second.heads[0].Wk = Matrix::Identity(2, 2);
    second.heads[0].Wv = Matrix::Identity(2, 2);
    second.Wo = Matrix::Identity(2, 2);
    for (StackedLayer& layer : scene.layers) {
        layer.W1.setZero();
        layer.W2.setZero();
    }
    return scene;
}

std::vector<BlockForward> run(const Scene& scene)
{
    CpuBackend backend;
    return forwardLayers(scene, backend);
}

// LayerNorm of the two-wide row [u, v] with unit gain: +-|u - v| / 2 / sqrt((u - v)^2 / 4 + eps).
double norm2(double u, double v)
{
    const double half = (u - v) / 2.0;
    return half / std::sqrt(half * half + 1e-5);
}

} // namespace

class TestStackedLayers : public QObject
{
    Q_OBJECT

private slots:
    void twoLayersByHand()
    {
        const std::vector<BlockForward> blocks = run(handScene());
        QCOMPARE(int(blocks.size()), 2);
        const BlockForward& one = blocks[0];
        // Zero scores: every weight 1/2, so each row's attention output is [1/2, 1/2].
        QVERIFY(std::abs(one.attention->heads[0].weights(0, 1) - 0.5f) < 1e-7f);
        QVERIFY(std::abs(one.attention->output(0, 0) - 0.5f) < 1e-7f);
        // X + MHA(X): a -> [1.5, 0.5], b -> [0.5, 1.5].
        QVERIFY(std::abs(one.residual(0, 0) - 1.5f) < 1e-6f);
        QVERIFY(std::abs(one.residual(1, 1) - 1.5f) < 1e-6f);
        // LN([1.5, 0.5]) = [s, -s], s = 0.5 / sqrt(0.25 + 1e-5).
        const double s = norm2(1.5, 0.5);
        QVERIFY(std::abs(one.normed(0, 0) - s) < 1e-6);
        QVERIFY(std::abs(one.normed(0, 1) + s) < 1e-6);
        // W_1 = W_2 = 0, zero biases: FFN(H) = 0, so Y = LN(H) = [s2, -s2].
        QVERIFY(one.feedForward.isZero(0.0f));
        const double s2 = norm2(s, -s);
        QVERIFY(std::abs(one.output(0, 0) - s2) < 1e-6);
        QVERIFY(std::abs(one.output(1, 0) + s2) < 1e-6);

        // Layer 2's input is layer 1's output, bit for bit (no positions added again).
        const BlockForward& two = blocks[1];
        QCOMPARE(two.attention->queryInput(), one.output);
        // Identity projections: scores x_i . x_j / sqrt(2) = +-2 s2^2 / sqrt(2), so row a
        // weighs itself 1 / (1 + exp(-2 sqrt(2) s2^2)) (0.944 for s2 near 1).
        const double selfWeight = 1.0 / (1.0 + std::exp(-2.0 * std::sqrt(2.0) * s2 * s2));
        QVERIFY(std::abs(two.attention->heads[0].weights(0, 0) - selfWeight) < 1e-6);
        QVERIFY(std::abs(two.attention->heads[0].weights(1, 1) - selfWeight) < 1e-6);
        QVERIFY(std::abs(selfWeight - 0.9442) < 1e-3);
        // With W1 = W2 = 0 the block is attention + residual + norm only: Y = LN(LN(X + A)).
        const double a0 = two.attention->output(0, 0);
        const double a1 = two.attention->output(0, 1);
        const double h = norm2(s2 + a0, -s2 + a1);
        QVERIFY(std::abs(two.normed(0, 0) - h) < 1e-5);
        QVERIFY(std::abs(two.output(0, 0) - norm2(h, -h)) < 1e-5);
    }

    void feedForwardByHand()
    {
        // W_1 = W_2 = I, zero biases: FFN(H) = max(0, H) (eq. 2). Row a after the first norm
        // is [s, -s]: FFN = [s, 0], H + FFN = [2s, -s], LN of it = norm2(2s, -s) in column 0.
        Scene scene = handScene();
        scene.layers[0].W1 = Matrix::Identity(2, 2);
        scene.layers[0].W2 = Matrix::Identity(2, 2);
        const std::vector<BlockForward> blocks = run(scene);
        const double s = norm2(1.5, 0.5);
        QVERIFY(std::abs(blocks[0].feedForward(0, 0) - s) < 1e-6);
        QCOMPARE(blocks[0].feedForward(0, 1), 0.0f);
        QVERIFY(std::abs(blocks[0].feedForwardResidual(0, 0) - 2 * s) < 1e-6);
        QVERIFY(std::abs(blocks[0].output(0, 0) - norm2(2 * s, -s)) < 1e-6);
        // b_2 = [1, 1] moves both columns alike, which the norm then removes.
        scene.layers[0].b2 = RowVector::Constant(2, 1.0f);
        const std::vector<BlockForward> shifted = run(scene);
        QVERIFY((shifted[0].output - blocks[0].output).cwiseAbs().maxCoeff() < 1e-5f);
    }

    // N stacked blocks equal N single-layer runs, each fed the previous one's output.
    void stackEqualsSequentialRuns()
    {
        Scene scene = makeScene(QStringLiteral("the cat sat on the mat"), 8, 2, 7);
        setLayerCount(scene, 3);
        const std::vector<BlockForward> blocks = run(scene);
        QCOMPARE(int(blocks.size()), 3);

        CpuBackend backend;
        const std::shared_ptr<const Problem> first = resolveProblem(scene);
        Eigen::MatrixXd x = first->queryInput().cast<double>();
        for (int l = 0; l < 3; ++l) {
            auto p = std::make_shared<Problem>(*first);
            p->queryEmbedding = x.cast<float>();
            p->queryPosition = Matrix();
            p->weights = std::make_shared<const ModelWeights>(layerAttention(scene, l));
            const auto single = backend.compute(p, {});
            const StackedLayer& layer = scene.layers[std::size_t(l)];
            auto layerNorm = [](Eigen::MatrixXd m) {
                for (Eigen::Index i = 0; i < m.rows(); ++i) {
                    const double mean = m.row(i).mean();
                    const double var = (m.row(i).array() - mean).square().mean();
                    m.row(i) = (m.row(i).array() - mean) / std::sqrt(var + 1e-5);
                }
                return m;
            };
            const Eigen::MatrixXd h = layerNorm(x + single->output.cast<double>());
            Eigen::MatrixXd hidden = h * layer.W1.cast<double>();
            hidden.rowwise() += layer.b1.cast<double>();
            hidden = hidden.cwiseMax(0.0);
            Eigen::MatrixXd f = hidden * layer.W2.cast<double>();
            f.rowwise() += layer.b2.cast<double>();
            x = layerNorm(h + f);
            QVERIFY((single->heads[0].weights - blocks[std::size_t(l)].attention->heads[0].weights)
                        .cwiseAbs()
                        .maxCoeff() < 1e-5f);
            QVERIFY((x - blocks[std::size_t(l)].output.cast<double>()).cwiseAbs().maxCoeff() <
                    1e-4);
        }
        // The layers' own weights differ: layer 2 is not a copy of layer 1.
        QVERIFY(layerAttention(scene, 1).heads[0].Wq != scene.weights.heads[0].Wq);
        // Stopping early computes the layers up to the one asked for.
        CpuBackend again;
        QCOMPARE(int(forwardLayers(scene, again, {}, 1).size()), 2);
    }

    // What the window and --export show for view.layer: that layer's problem, its X the
    // previous block's Y.
    void shownLayerProblem()
    {
        const Scene scene = handScene();
        CpuBackend backend;
        const auto second = resolveLayerProblem(scene, backend, 1);
        const std::vector<BlockForward> blocks = run(scene);
        QCOMPARE(second->queryInput(), blocks[0].output);
        QVERIFY(*second->weights == layerAttention(scene, 1));
        QCOMPARE(backend.compute(second, {})->heads[0].weights,
                 blocks[1].attention->heads[0].weights);
        QCOMPARE(resolveLayerProblem(scene, backend, 0)->queryInput(),
                 resolveProblem(scene)->queryInput());
        try {
            resolveLayerProblem(scene, backend, 2);
            QFAIL("accepted");
        } catch (const Error& error) {
            QCOMPARE(QString::fromStdString(error.what()),
                     QStringLiteral("view.layer: layer 3 is beyond the scene's 2 layer(s)"));
        }
    }

    void singleLayerSceneIsAttentionAlone()
    {
        const Scene scene = makeScene(QStringLiteral("this is a cat"), 8, 1, 1);
        QCOMPARE(layerCount(scene), 1);
        const std::vector<BlockForward> blocks = run(scene);
        QCOMPARE(int(blocks.size()), 1);
        QVERIFY(blocks[0].output.size() == 0);
        const auto direct = CpuBackend().compute(resolveProblem(scene), {});
        QCOMPARE(blocks[0].attention->output, direct->output);
    }

    // Files without "layers" (every file before them) load as one attention layer and are
    // written back without the key; stacked scenes round-trip exactly.
    void olderFilesLoadUnchanged()
    {
        const QByteArray old = R"({"format": "attention-explorer-scene", "version": 1,
                                   "text": "This is a cat."})";
        const Scene scene = sceneFromJson(old);
        QVERIFY(scene.layers.empty());
        QCOMPARE(scene.view.layer, 0);
        const QJsonObject written = QJsonDocument::fromJson(sceneToJson(scene)).object();
        QVERIFY(!written.contains(QStringLiteral("layers")));
        QCOMPARE(written.value(QStringLiteral("version")).toInt(), 1);

        Scene stacked = handScene();
        stacked.layers[1].b1(0) = 0.25f;
        stacked.view.layer = 1;
        const QByteArray bytes = sceneToJson(stacked);
        const Scene back = sceneFromJson(bytes);
        QCOMPARE(int(back.layers.size()), 2);
        QVERIFY(back.layers == stacked.layers);
        QVERIFY(back.weights == stacked.weights);
        QCOMPARE(back.view.layer, 1);
        QCOMPARE(sceneToJson(back), bytes);
    }

    void layersLeftOutAreDrawn()
    {
        // "layers": [{}, {}] draws both blocks as setLayerCount does, d_ff = 2 d_model.
        const QByteArray json = R"({"format": "attention-explorer-scene", "version": 1,
            "text": "a b c", "model": {"d_model": 4, "heads": 2, "seed": 5},
            "layers": [{}, {"d_ff": 3}]})";
        const Scene scene = sceneFromJson(json);
        QCOMPARE(int(scene.layers.size()), 2);
        QCOMPARE(scene.layers[0].dFeedForward(), 8);
        QCOMPARE(scene.layers[1].dFeedForward(), 3);
        QCOMPARE(scene.layers[1].attention.headCount(), 2);
        Scene drawn = scene;
        drawn.layers.clear();
        setLayerCount(drawn, 2, 8);
        QVERIFY(drawn.layers[0] == scene.layers[0]);
        QVERIFY(drawn.layers[1].attention == scene.layers[1].attention);
    }

    void badLayers_data()
    {
        QTest::addColumn<QByteArray>("layers");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty")
            << QByteArray("[]")
            << "layers: expected an array of 1 to 4 layer objects, got 0 objects";
        QTest::newRow("five") << QByteArray("[{}, {}, {}, {}, {}]")
                              << "layers: expected an array of 1 to 4 layer objects, got 5 objects";
        QTest::newRow("not an object")
            << QByteArray("[3]") << "layers[0]: expected an object, got 3";
        QTest::newRow("W_2 shape") << QByteArray(R"([{"d_ff": 1, "W_2": [[1, 2, 3]]}])")
                                   << "layers[0].W_2: expected 1x2, got 1x3";
        QTest::newRow("layer 2 head") << QByteArray(R"([{}, {"heads": [{"W_q": [[1]]}]}])")
                                      << "layers[1].heads[0].W_q: expected 2x2, got 1x1";
        QTest::newRow("layer 2 W_o")
            << QByteArray(R"([{}, {"W_o": [[1]]}])") << "layers[1].W_o: expected 2x2, got 1x1";
    }

    void badLayers()
    {
        QFETCH(QByteArray, layers);
        QFETCH(QString, message);
        const QByteArray json = R"({"format": "attention-explorer-scene", "version": 1,
            "text": "a b", "model": {"d_model": 2}, "layers": )" +
                                layers + "}";
        try {
            sceneFromJson(json);
            QFAIL("accepted");
        } catch (const Error& error) {
            QCOMPARE(QString::fromStdString(error.what()), message);
        }
    }

    void crossAttentionIsRefused()
    {
        const QByteArray json = R"({"format": "attention-explorer-scene", "version": 1,
            "text": "a b", "source": "c d", "layers": [{}]})";
        try {
            sceneFromJson(json);
            QFAIL("accepted");
        } catch (const Error& error) {
            QCOMPARE(QString::fromStdString(error.what()),
                     QStringLiteral("layers: stacked layers are self-attention; remove "
                                    "\"source\" or the layers"));
        }
    }

    void reshapeDrawsEveryLayer()
    {
        Scene scene = handScene();
        reshapeModel(scene, 4, 2, 2, 2, 9);
        QCOMPARE(int(scene.layers.size()), 2);
        QCOMPARE(scene.layers[0].W1.rows(), 4);
        QCOMPARE(scene.layers[0].dFeedForward(), 8);
        QCOMPARE(layerAttention(scene, 1).headCount(), 2);
        validateLayers(scene);
        setLayerCount(scene, 0);
        QCOMPARE(layerCount(scene), 1);
    }
};

QTEST_GUILESS_MAIN(TestStackedLayers)
#include "tst_stacked_layers.moc"
