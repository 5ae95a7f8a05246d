// Real-model forward passes on the CPU backend against an independent reference: every
// committed tiny checkpoint (tests/data/models, every family, dtype and tokenizer kind) and
// the attention, final hidden state and logits a float64 NumPy forward wrote beside it
// (make_tiny_models.py, confirmed against PyTorch there). Also: interventions recompute only
// from the first changed layer, hand-worked rotary positions and block operations.

#include "core/cpu_backend.h"
#include "core/cpu_block_ops.h"
#include "core/error.h"
#include "core/model/forward.h"
#include "core/model/model_loader.h"
#include "core/tokenizers/hf_tokenizer.h"
#include "support/model_fixtures.h"
#include "support/results.h"

#include <QTest>

#include <cmath>

using namespace attn::core;
using attn::test::loadedModelFixture;
using attn::test::matrixOf;
using attn::test::maxDifference;
using attn::test::rowOf;

namespace {

// float32 arithmetic against a float64 reference: PyTorch in float32 differs from it by up to
// 1e-6 on attention and 1.3e-6 (relative) on logits on these checkpoints (make_tiny_models.py).
constexpr double kAttentionTolerance = 1e-5;
constexpr double kRelativeTolerance = 2e-5;

double relativeDifference(const Matrix& actual, const Matrix& expected)
{
    const double scale = std::max(1.0, double(expected.cwiseAbs().maxCoeff()));
    return maxDifference(actual, expected) / scale;
}

// The (layer, head) pairs of expected.json, from 1, as interventions (from 0).
Interventions headsOff(const QJsonArray& pairs)
{
    Interventions interventions;
    for (const QJsonValue pair : pairs)
        interventions.headsOff.insert({pair[0].toInt() - 1, pair[1].toInt() - 1});
    return interventions;
}

void compareLogits(const ModelResult& result, const QJsonArray& expected)
{
    QCOMPARE(result.predictions.size(), std::size_t(expected.size()));
    for (int n = 0; n < expected.size(); ++n) {
        const PositionPrediction& p = result.predictions[std::size_t(n)];
        QCOMPARE(p.position, expected[n][QLatin1String("position")].toInt());
        const RowVector want = rowOf(expected[n][QLatin1String("values")]);
        const double difference = relativeDifference(p.logits, want);
        if (!(difference < kRelativeTolerance))
            QFAIL(qPrintable(QStringLiteral("logits at %1 differ by %2 (relative)")
                                 .arg(p.position)
                                 .arg(difference)));
        // The top prediction is the reference's argmax, its probability the softmax of it.
        Eigen::Index best = 0;
        want.maxCoeff(&best);
        QCOMPARE(p.top.front().id, int(best));
        const Eigen::ArrayXd e = (want.cast<double>().array() - want.maxCoeff()).exp();
        QVERIFY(std::abs(p.top.front().probability - 1.0 / e.sum()) < 1e-5);
    }
}

} // namespace

class TestModelForward : public QObject
{
    Q_OBJECT

private slots:
    void matchesReference_data();
    void matchesReference();
    void headsOffMatchReference_data() { matchesReference_data(); }
    void headsOffMatchReference();
    void interventionRecomputesFromTheFirstChangedLayer();
    void layerEditActsOnThatLayerOnly();
    void modelHeadIsAnExplorerHead();
    void badTextIsRefused();
    void rotaryHandWorked();
    void rotaryScoresDependOnDistanceOnly();
    void normsHandWorked();
    void activationsAtKnownPoints();
    void feedForwardHandWorked();
    void familyBlocksFollowTheirEquations();
    void nonFiniteValuesAreReportedOnce_data();
    void nonFiniteValuesAreReportedOnce();
};

void TestModelForward::matchesReference_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<int>("caseIndex");
    for (const QString& name : attn::test::modelFixtures()) {
        const QJsonArray cases = attn::test::expectedFor(name)[QLatin1String("cases")].toArray();
        for (int c = 0; c < cases.size(); ++c)
            QTest::addRow("%s #%d", qPrintable(name), c) << name << c;
    }
}

void TestModelForward::matchesReference()
{
    QFETCH(QString, folder);
    QFETCH(int, caseIndex);
    const QJsonObject expected = attn::test::expectedFor(folder);
    const QJsonObject c = expected[QLatin1String("cases")].toArray()[caseIndex].toObject();
    const auto model = loadedModelFixture(folder);
    QCOMPARE(model->config().layers, expected[QLatin1String("layers")].toInt());

    // The tokenizer gives the ids the Hugging Face library gave (token_ids.json).
    const std::vector<Token> tokens = modelTokens(*model, c[QLatin1String("text")].toString());
    const QJsonArray ids = c[QLatin1String("ids")].toArray();
    QCOMPARE(tokens.size(), std::size_t(ids.size()));
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        QCOMPARE(tokens[i].id, ids[int(i)].toInt());
        QCOMPARE(tokens[i].piece, c[QLatin1String("tokens")][int(i)].toString());
    }

    CpuBackend backend;
    const auto result = runModel(model, tokens, {}, backend);
    QCOMPARE(result->layerCount(), model->config().layers);
    const QJsonArray attention = c[QLatin1String("attention")].toArray();
    for (int l = 0; l < result->layerCount(); ++l) {
        const AttentionResult& layer = *result->layers[std::size_t(l)];
        QCOMPARE(int(layer.heads.size()), expected[QLatin1String("heads")].toInt());
        for (std::size_t h = 0; h < layer.heads.size(); ++h) {
            const double difference =
                maxDifference(layer.heads[h].weights, matrixOf(attention[l][int(h)]));
            if (!(difference < kAttentionTolerance))
                QFAIL(qPrintable(QStringLiteral("layer %1 head %2 attention differs by %3")
                                     .arg(l + 1)
                                     .arg(h + 1)
                                     .arg(difference)));
        }
    }
    const double hidden =
        relativeDifference(result->finalHidden, matrixOf(c[QLatin1String("hidden_last")]));
    QVERIFY2(hidden < kRelativeTolerance, qPrintable(QString::number(hidden)));
    compareLogits(*result, c[QLatin1String("logits")].toArray());
    QVERIFY(result->warnings.empty());
}

void TestModelForward::headsOffMatchReference()
{
    QFETCH(QString, folder);
    QFETCH(int, caseIndex);
    const QJsonObject c =
        attn::test::expectedFor(folder)[QLatin1String("cases")].toArray()[caseIndex].toObject();
    const auto model = loadedModelFixture(folder);
    const std::vector<Token> tokens = modelTokens(*model, c[QLatin1String("text")].toString());
    const Interventions off = headsOff(c[QLatin1String("heads_off")].toArray());
    QVERIFY(!off.headsOff.empty());

    CpuBackend backend;
    const auto result = runModel(model, tokens, off, backend);
    compareLogits(*result, c[QLatin1String("heads_off_logits")].toArray());
    const AttentionResult& top = *result->layers.back();
    const QJsonArray expected = c[QLatin1String("heads_off_attention_last_layer")].toArray();
    for (std::size_t h = 0; h < top.heads.size(); ++h)
        QVERIFY(maxDifference(top.heads[h].weights, matrixOf(expected[int(h)])) <
                kAttentionTolerance);
    // A head switched off still shows its attention; its columns of the concatenation are 0.
    for (const auto& [l, h] : off.headsOff) {
        const AttentionResult& layer = *result->layers[std::size_t(l)];
        QVERIFY(!layer.heads[std::size_t(h)].enabled);
        QCOMPARE(layer.heads[std::size_t(h)].weights.row(0).sum(), 1.0f);
        const int dv = layer.problem->weights->dV;
        QVERIFY(layer.concat().middleCols(h * dv, dv).isZero(0.0f));
    }
}

void TestModelForward::interventionRecomputesFromTheFirstChangedLayer()
{
    const auto model = loadedModelFixture(QStringLiteral("distilbert")); // three layers
    const std::vector<Token> tokens =
        modelTokens(*model, QStringLiteral("The cat sat on the [MASK]."));
    CpuBackend backend;
    const auto plain = runModel(model, tokens, {}, backend);
    QCOMPARE(plain->firstComputedLayer, 0);

    Interventions off;
    off.headsOff = {{1, 0}, {2, 1}};
    const auto reused = runModel(model, tokens, off, backend, {}, plain);
    QCOMPARE(reused->firstComputedLayer, 1);
    // The layer below is the previous run's own object; from layer 2 up it is recomputed.
    QCOMPARE(reused->layers[0].get(), plain->layers[0].get());
    QVERIFY(reused->layers[1].get() != plain->layers[1].get());
    // Exactly what a run from scratch gives.
    const auto fresh = runModel(model, tokens, off, backend);
    QCOMPARE(fresh->firstComputedLayer, 0);
    for (int l = 0; l < 3; ++l)
        QVERIFY(attn::test::sameResult(*reused->layers[std::size_t(l)],
                                       *fresh->layers[std::size_t(l)]));
    QVERIFY(attn::test::bitIdentical(reused->finalHidden, fresh->finalHidden));
    QVERIFY(!attn::test::bitIdentical(reused->finalHidden, plain->finalHidden));

    // Undoing it goes back to the checkpoint's numbers, again from layer 2.
    const auto undone = runModel(model, tokens, {}, backend, {}, reused);
    QCOMPARE(undone->firstComputedLayer, 1);
    QVERIFY(attn::test::bitIdentical(undone->predictions.front().logits,
                                     plain->predictions.front().logits));
    // Nothing changed: nothing is recomputed.
    QCOMPARE(runModel(model, tokens, {}, backend, {}, undone)->firstComputedLayer, 3);
}

void TestModelForward::layerEditActsOnThatLayerOnly()
{
    const auto model = loadedModelFixture(QStringLiteral("gpt2"));
    const std::vector<Token> tokens = modelTokens(*model, QStringLiteral("The cat sat on the"));
    CpuBackend backend;
    const auto plain = runModel(model, tokens, {}, backend);

    Interventions edit;
    edit.layers[1].score = ScoreKind::Dot; // no 1/sqrt(d_k) in the top layer
    const auto edited = runModel(model, tokens, edit, backend, {}, plain);
    QCOMPARE(edited->firstComputedLayer, 1);
    const AttentionResult& top = *edited->layers[1];
    QVERIFY(top.problem->score == ScoreKind::Dot);
    QVERIFY(plain->layers[1]->problem->score == ScoreKind::ScaledDot);
    // Its weights are the causal softmax of Q K^T (unscaled), worked here in double.
    for (const HeadResult& head : top.heads) {
        const Eigen::MatrixXd s = head.Q.cast<double>() * head.K.cast<double>().transpose();
        for (int i = 0; i < int(s.rows()); ++i) {
            const double max = s.row(i).head(i + 1).maxCoeff();
            const double sum = (s.row(i).head(i + 1).array() - max).exp().sum();
            for (int j = 0; j < int(s.cols()); ++j) {
                const double want = j <= i ? std::exp(s(i, j) - max) / sum : 0.0;
                QVERIFY(std::abs(head.weights(i, j) - want) < 1e-6);
            }
        }
    }
    // A replaced W_q of the wrong shape is refused with the layer and head named.
    Interventions wrong;
    wrong.layers[0].heads[2].Wq = Matrix::Zero(3, 3);
    try {
        runModel(model, tokens, wrong, backend);
        QFAIL("accepted a 3x3 W_q");
    } catch (const Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(
                     QLatin1String("layer 1: heads[2].W_q: expected 16x4, got 3x3")),
                 e.what());
    }
}

void TestModelForward::modelHeadIsAnExplorerHead()
{
    const auto model = loadedModelFixture(QStringLiteral("llama"));
    const std::vector<Token> tokens = modelTokens(*model, QStringLiteral("The cat sat on the mat"));
    CpuBackend backend;
    const auto result = runModel(model, tokens, {}, backend);
    const AttentionResult& layer = *result->layers[0];
    // The layer's problem: X the normalised input, the model's tokens, causal, rotary.
    QCOMPARE(layer.problem->queryTokens, tokens);
    QVERIFY(layer.problem->mask.causal);
    QVERIFY(layer.problem->rotary.enabled());
    QCOMPARE(int(layer.problem->rotary.inverseFrequencies.size()), model->config().dHead / 2);
    const Matrix x =
        backend.blockOps().norm(result->hidden[0], model->weights.layers[0].attentionNorm);
    QVERIFY(attn::test::bitIdentical(layer.queryInput(), x));
    // X is held once: by the problem, with no position matrices or key-side copy, and the
    // result's X_q and X_kv are that same matrix (a forward keeps every layer's result).
    QVERIFY(!layer.problem->hasPositions());
    QCOMPARE(layer.problem->keyEmbedding.size(), 0);
    QCOMPARE(layer.storedQueryInput.size(), 0);
    QCOMPARE(layer.storedKeyInput.size(), 0);
    QCOMPARE(&layer.queryInput(), &layer.problem->queryEmbedding);
    QCOMPARE(&layer.keyInput(), &layer.problem->queryEmbedding);
    for (const HeadResult& head : layer.heads) {
        // The rotary step is its own stage: the first token is not turned, the others are,
        // and a rotation keeps every pair's length.
        QCOMPARE(head.rotatedQ.rows(), head.Q.rows());
        QVERIFY((head.rotatedQ.row(0) - head.Q.row(0)).cwiseAbs().maxCoeff() < 1e-7f);
        QVERIFY((head.rotatedQ.row(3) - head.Q.row(3)).cwiseAbs().maxCoeff() > 1e-4f);
        QVERIFY(std::abs(head.rotatedK.row(3).norm() - head.K.row(3).norm()) < 1e-5f);
        for (int i = 0; i < int(head.weights.rows()); ++i) {
            QVERIFY(std::abs(head.weights.row(i).sum() - 1.0f) < 1e-5f);
            QVERIFY(head.weights.row(i).tail(head.weights.cols() - i - 1).isZero(0.0f));
        }
    }
}

void TestModelForward::badTextIsRefused()
{
    const auto model = loadedModelFixture(QStringLiteral("gpt2"));
    for (const QString& text : {QString(), QStringLiteral("   \n")}) {
        try {
            modelTokens(*model, text);
            QFAIL("accepted an empty text");
        } catch (const Error& e) {
            QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("text: the sentence is empty"));
        }
    }
    // The fixture was trained for 32 positions.
    QCOMPARE(model->config().maxPositions, 32);
    QVERIFY_THROWS_EXCEPTION(Error, modelTokens(*model, QStringLiteral("cat ").repeated(40)));
    QVERIFY(modelTokens(*model, QStringLiteral("cat ").repeated(15)).size() <= 32);
}

// d_k = 2, one frequency of 1 radian per position: the query (1, 0) at position p becomes
// (cos p, sin p), the key (0, 1) at p becomes (-sin p, cos p), so the score of query i and key j
// is cos i (-sin j) + sin i cos j = sin(i - j).
void TestModelForward::rotaryHandWorked()
{
    auto p = std::make_shared<Problem>();
    const int t = 4;
    for (int i = 0; i < t; ++i)
        p->queryTokens.push_back(Token(QStringLiteral("x"), i, 1));
    p->keyTokens = p->queryTokens;
    p->queryEmbedding = Matrix::Zero(t, 2);
    p->queryEmbedding.col(0).setOnes();
    p->keyIsPadding.assign(t, false);
    ModelWeights& w = p->editWeights();
    w.dModel = w.dK = w.dV = 2;
    w.heads.resize(1);
    w.heads[0].Wq = Matrix::Identity(2, 2);
    w.heads[0].Wk = Matrix{{0, 1}, {1, 0}}; // k = (0, 1)
    w.heads[0].Wv = Matrix::Identity(2, 2);
    w.heads[0].wAdditive = RowVector::Ones(2);
    w.heads[0].bilinear = Matrix::Identity(2, 2);
    w.Wo = Matrix::Identity(2, 2);
    p->score = ScoreKind::Dot;
    p->rotary.inverseFrequencies = {1.0f};
    p->validate();
    CpuBackend backend;
    const auto result = backend.compute(p, {});
    const HeadResult& head = result->heads[0];
    for (int i = 0; i < t; ++i) {
        QVERIFY(std::abs(head.rotatedQ(i, 0) - std::cos(double(i))) < 1e-6);
        QVERIFY(std::abs(head.rotatedQ(i, 1) - std::sin(double(i))) < 1e-6);
        QVERIFY(std::abs(head.rotatedK(i, 0) + std::sin(double(i))) < 1e-6);
        QVERIFY(std::abs(head.rotatedK(i, 1) - std::cos(double(i))) < 1e-6);
        QCOMPARE(head.Q(i, 0), 1.0f); // the projection itself is not turned
        for (int j = 0; j < t; ++j)
            QVERIFY(std::abs(head.rawScores(i, j) - std::sin(double(i - j))) < 1e-6);
    }
    // Starting at position 5 shifts every angle by 5 radians; the scores do not change.
    auto shifted = std::make_shared<Problem>(*p);
    shifted->rotary.firstPosition = 5;
    const auto later = backend.compute(shifted, {});
    QVERIFY(std::abs(later->heads[0].rotatedQ(0, 0) - std::cos(5.0)) < 1e-6);
    QVERIFY(maxDifference(later->heads[0].rawScores, head.rawScores) < 1e-5);
    // Odd d_k or a frequency count that is not d_k / 2 is refused.
    shifted->rotary.inverseFrequencies = {1.0f, 2.0f};
    QVERIFY_THROWS_EXCEPTION(Error, shifted->validate());
}

// The property rotary positions exist for (Su et al. 2021, eq. 16): with the same content at
// every position, the score of query i and key j depends on i - j only.
void TestModelForward::rotaryScoresDependOnDistanceOnly()
{
    const auto model = loadedModelFixture(QStringLiteral("qwen2"));
    const std::vector<Token> tokens =
        modelTokens(*model, QStringLiteral("cat cat cat cat cat cat cat"));
    CpuBackend backend;
    const auto result = runModel(model, tokens, {}, backend);
    const HeadResult& head = result->layers[0]->heads[0];
    // The first word is split differently (no leading space); the six " cat" tokens after it
    // are the same token, so their queries and keys differ by position alone.
    const int t = int(tokens.size());
    const int first = t - 6;
    for (int i = first; i < t; ++i)
        QCOMPARE(tokens[std::size_t(i)].piece, QStringLiteral("Ġcat"));
    for (int d = 0; d < 4; ++d)
        for (int i = first + d; i + 1 < t; ++i)
            QVERIFY(std::abs(head.rawScores(i, i - d) - head.rawScores(i + 1, i + 1 - d)) < 1e-4f);
    // Without the rotation (a layer edit cannot switch it off; the projection Q K^T shows it)
    // the scores of equal tokens are all equal: order is invisible.
    const Eigen::MatrixXf plain = head.Q * head.K.transpose();
    QVERIFY(std::abs(plain(first + 3, first) - plain(first + 3, first + 2)) < 1e-5f);
    QVERIFY(std::abs(head.rawScores(first + 3, first) - head.rawScores(first + 3, first + 2)) >
            1e-4f);
}

// LayerNorm of (1, 2, 3, 4): mean 2.5, biased variance 1.25, so (x - 2.5) / sqrt(1.25 + eps);
// RMSNorm: mean of squares 7.5, x / sqrt(7.5 + eps).
void TestModelForward::normsHandWorked()
{
    CpuBlockOps ops;
    const Matrix x{{1, 2, 3, 4}};
    NormWeights layer;
    layer.kind = NormKind::LayerNorm;
    layer.gain = RowVector::Constant(4, 2.0f);
    layer.bias = RowVector{{0.5f, 0.5f, 0.5f, 0.5f}};
    layer.eps = 1e-5f;
    const Matrix y = ops.norm(x, layer);
    const double s = 1.0 / std::sqrt(1.25 + 1e-5);
    for (int j = 0; j < 4; ++j)
        QVERIFY(std::abs(y(0, j) - (2.0 * (j + 1 - 2.5) * s + 0.5)) < 1e-6);
    NormWeights rms;
    rms.kind = NormKind::RmsNorm;
    rms.gain = RowVector{{1.0f, 1.0f, 1.0f, 3.0f}};
    rms.eps = 1e-6f;
    const Matrix z = ops.norm(x, rms);
    const double r = 1.0 / std::sqrt(7.5 + 1e-6);
    for (int j = 0; j < 4; ++j)
        QVERIFY(std::abs(z(0, j) - (j == 3 ? 3.0 : 1.0) * (j + 1) * r) < 1e-6);
}

// Values from the definitions: GELU(1) = Phi(1) = 0.8413447461; its tanh form gives
// 0.5 (1 + tanh(sqrt(2/pi) 1.044715)) = 0.8411919906; SiLU(1) = 1 / (1 + e^-1) = 0.7310585786.
void TestModelForward::activationsAtKnownPoints()
{
    QVERIFY(std::abs(activate(1.0f, Activation::GeluErf) - 0.8413447461) < 1e-6);
    QVERIFY(std::abs(activate(1.0f, Activation::GeluTanh) - 0.8411919906) < 1e-6);
    QVERIFY(std::abs(activate(-2.0f, Activation::GeluErf) - (-2.0 * 0.0227501319)) < 1e-6);
    QVERIFY(std::abs(activate(1.0f, Activation::Silu) - 0.7310585786) < 1e-6);
    QCOMPARE(activate(-3.0f, Activation::Relu), 0.0f);
    // The matrix forms agree with the scalar ones.
    CpuBlockOps ops;
    LinearWeights identity;
    identity.weight = Matrix::Identity(3, 3);
    const Matrix x{{-2.0f, 1.0f, 0.5f}};
    for (Activation a :
         {Activation::GeluErf, Activation::GeluTanh, Activation::Silu, Activation::Relu}) {
        const Matrix y = ops.dense(x, identity, a);
        for (int j = 0; j < 3; ++j)
            QVERIFY(std::abs(y(0, j) - activate(x(0, j), a)) < 1e-6f);
    }
}

// A 1 x 2 input through a 2 -> 2 -> 1 network, worked by hand.
void TestModelForward::feedForwardHandWorked()
{
    CpuBlockOps ops;
    const Matrix x{{1.0f, -1.0f}};
    FeedForwardWeights plain;
    plain.kind = FeedForwardKind::Plain;
    plain.activation = Activation::Relu;
    plain.in.weight = Matrix{{1, 2}, {3, 4}}; // x W = (-2, -2); + b = (1, -3) -> relu (1, 0)
    plain.in.bias = RowVector{{3.0f, -1.0f}};
    plain.out.weight = Matrix{{5}, {7}};
    plain.out.bias = RowVector{{0.5f}};
    QCOMPARE(ops.feedForward(x, plain)(0, 0), 5.5f);

    // Gated: (silu(x W_gate) * (x W_in)) W_out with x W_gate = (1, 0), x W_in = (-2, -2).
    FeedForwardWeights gated;
    gated.kind = FeedForwardKind::Gated;
    gated.activation = Activation::Silu;
    gated.gate.weight = Matrix{{1, 0}, {0, 0}};
    gated.in.weight = Matrix{{1, 2}, {3, 4}};
    gated.out.weight = Matrix{{1}, {1}};
    const double want = -2.0 / (1.0 + std::exp(-1.0)) + 0.0; // silu(0) * -2 = 0
    QVERIFY(std::abs(ops.feedForward(x, gated)(0, 0) - want) < 1e-6);

    // Logits x E^T + b.
    const Matrix e{{1, 0}, {0, 1}, {2, 2}};
    const Matrix logits = ops.logits(x, e, RowVector{{0.0f, 1.0f, 0.0f}});
    QCOMPARE(logits, (Matrix{{1.0f, 0.0f, 0.0f}}));
}

// The block forms the config flags select, against their equations: GPT-NeoX x + attn(ln1 x)
// + mlp(ln2 x) (Black et al. 2022, section 2.1), Phi the same with one norm, Gemma's
// embeddings times sqrt(d_model) = 4 (Gemma Team 2024, section 2), exact in float.
void TestModelForward::familyBlocksFollowTheirEquations()
{
    CpuBackend backend;
    CpuBlockOps ops;
    for (const char* name : {"pythia", "phi"}) {
        const auto model = loadedModelFixture(QString::fromLatin1(name));
        const auto r =
            runModel(model, modelTokens(*model, QStringLiteral("The cat sat on the")), {}, backend);
        for (int l = 0; l < 2; ++l) {
            const TransformerLayer& layer = model->weights.layers[std::size_t(l)];
            const Matrix& x = r->hidden[std::size_t(l)];
            const Matrix mlpInput = layer.feedForwardNorm.present()
                                        ? ops.norm(x, layer.feedForwardNorm)
                                        : ops.norm(x, layer.attentionNorm);
            const Matrix want = x + r->layers[std::size_t(l)]->output +
                                ops.feedForward(mlpInput, layer.feedForward);
            QVERIFY2(maxDifference(r->hidden[std::size_t(l) + 1], want) < 1e-5, name);
        }
    }
    const auto gemma = loadedModelFixture(QStringLiteral("gemma"));
    const std::vector<Token> tokens = modelTokens(*gemma, QStringLiteral("The cat sat on the"));
    const auto r = runModel(gemma, tokens, {}, backend);
    for (std::size_t i = 0; i < tokens.size(); ++i)
        for (int k = 0; k < 16; ++k)
            QCOMPARE(r->hidden[0](Eigen::Index(i), k),
                     4.0f * gemma->weights.tokenEmbedding(tokens[i].id, k));
}

void TestModelForward::nonFiniteValuesAreReportedOnce_data()
{
    QTest::addColumn<int>("index");
    const auto cases = attn::test::nonFiniteCases();
    for (std::size_t i = 0; i < cases.size(); ++i)
        QTest::newRow(cases[i].name) << int(i);
}

// A forward that leaves float32's range is reported at the first place it does, once, and
// gives no prediction: past that point the numbers depend on the backend's order of summation
// (tst_vulkan_model checks that the GPU reports the same). Before, the CPU carried on to a top
// 10 from infinite scores, and said each thing twice.
void TestModelForward::nonFiniteValuesAreReportedOnce()
{
    QFETCH(int, index);
    const attn::test::NonFiniteCase c = attn::test::nonFiniteCases()[std::size_t(index)];
    const auto model = attn::test::withWeight(*loadedModelFixture("gpt2"), c.place, c.value);
    CpuBackend backend;
    const auto result = runModel(model, modelTokens(*model, "The cat sat on the"), {}, backend);
    QCOMPARE(attn::test::warningList(result->warnings), c.warnings);
    QCOMPARE(result->predictions.size(), std::size_t(1));
    QCOMPARE(result->predictions.front().position, 4);
    QVERIFY(result->predictions.front().top.empty());
    // The same when an edit of layer 2 reuses layer 1 (as the model window's edits do).
    Interventions off;
    off.headsOff = {{1, 0}};
    const auto reused = runModel(model, result->tokens, off, backend, {}, result);
    QCOMPARE(reused->firstComputedLayer, 1);
    QCOMPARE(attn::test::warningList(reused->warnings), c.warnings);
    QVERIFY(reused->predictions.front().top.empty());
}

QTEST_GUILESS_MAIN(TestModelForward)
#include "tst_model_forward.moc"
