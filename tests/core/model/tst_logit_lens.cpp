// The logit lens and direct logit attribution on the tiny checkpoints: the lens's last layer is
// the model's own logits, each layer's top token, rank and probability and each part's share
// of a logit against an independent float64 NumPy computation (lens_reference.py), and the
// shares summing to the logit on every pre-norm family.

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/model/forward.h"
#include "core/model/logit_attribution.h"
#include "core/model/logit_lens.h"
#include "core/model/model_loader.h"
#include "support/error_of.h"
#include "support/lens_fixtures.h"
#include "support/model_fixtures.h"

#include <QTest>

#include <cmath>

using namespace attn::core;

namespace {

// Every part's term of an attribution, summed in double.
double sumOfTerms(const LogitAttribution& a)
{
    double sum = a.embedding + a.bias;
    for (Eigen::Index l = 0; l < a.heads.rows(); ++l)
        for (Eigen::Index h = 0; h < a.heads.cols(); ++h)
            sum += double(a.heads(l, h));
    for (double term : a.attentionBias)
        sum += term;
    for (double term : a.feedForward)
        sum += term;
    return sum;
}

} // namespace

class TestLogitLens : public QObject
{
    Q_OBJECT

private slots:
    void rankHandWorked();
    void lastLayerIsTheLogits_data();
    void lastLayerIsTheLogits();
    void lensAgainstReference();
    void lensFollowsAChosenToken();
    void lensErrors();
    void attributionAgainstReference();
    void attributionSumsToTheLogit_data();
    void attributionSumsToTheLogit();
    void attributionErrors();
};

// Logits [1, 3, 3, 0]: ids 1 and 2 tie, the lower id first, so the order is 1, 2, 0, 3.
void TestLogitLens::rankHandWorked()
{
    const RowVector logits{{1.0f, 3.0f, 3.0f, 0.0f}};
    QCOMPARE(rankOf(logits, 1), 1);
    QCOMPARE(rankOf(logits, 2), 2);
    QCOMPARE(rankOf(logits, 0), 3);
    QCOMPARE(rankOf(logits, 3), 4);
}

void TestLogitLens::lastLayerIsTheLogits_data()
{
    attn::test::addSentenceRows({"gpt2", "llama", "bert", "distilbert"});
}

// The lens's top row is the model's own head on its own last stream: the same logits at every
// position, to the bit, so the same top tokens, rank 1 and the same probabilities.
void TestLogitLens::lastLayerIsTheLogits()
{
    QFETCH(QString, name);
    QFETCH(QString, text);
    const auto model = attn::test::loadFixture(name);
    CpuBackend backend;
    ForwardOptions every;
    every.logitsAtEveryPosition = true;
    const auto run = runModel(model, modelTokens(*model, text), {}, backend, every);
    LensOptions options;
    options.topK = 3;
    const LogitLens lens = logitLens(*run, backend, options);
    const int layers = model->config().layers;
    const int t = int(run->tokens.size());
    QCOMPARE(lens.layerCount(), layers);
    QCOMPARE(lens.rank.rows(), Eigen::Index(layers));
    QCOMPARE(lens.rank.cols(), Eigen::Index(t));
    for (int i = 0; i < t; ++i) {
        const auto& top = lens.top[std::size_t(layers - 1)][std::size_t(i)];
        QCOMPARE(int(top.size()), 3);
        const RowVector logits = run->allLogits.row(i);
        Eigen::Index best = 0;
        logits.maxCoeff(&best);
        QCOMPARE(top.front().id, int(best));
        QCOMPARE(lens.followed[std::size_t(i)], int(best));
        QCOMPARE(lens.rank(layers - 1, i), 1);
        for (const Prediction& p : top)
            QCOMPARE(p.logit, logits(p.id));
    }
    // And the prediction the run printed, probability included.
    for (const PositionPrediction& prediction : run->predictions) {
        const auto& top = lens.top[std::size_t(layers - 1)][std::size_t(prediction.position)];
        for (std::size_t n = 0; n < top.size(); ++n) {
            QCOMPARE(top[n].id, prediction.top[n].id);
            QCOMPARE(top[n].probability, prediction.top[n].probability);
        }
    }
}

void TestLogitLens::lensAgainstReference()
{
    const QJsonObject expected = attn::test::lensExpected();
    QVERIFY(!expected.isEmpty());
    const auto model = attn::test::loadFixture(QStringLiteral("gpt2"));
    CpuBackend backend;
    const auto run = runModel(model, attn::test::tokensOf(expected["clean"]), {}, backend);
    const LogitLens lens = logitLens(*run, backend);
    const QJsonObject reference = expected["lens"].toObject();
    const QJsonArray own = reference["own"].toArray();
    const QJsonArray layers = reference["layers"].toArray();
    QCOMPARE(lens.layerCount(), int(layers.size()));
    for (int i = 0; i < own.size(); ++i)
        QCOMPARE(lens.followed[std::size_t(i)], own[i].toInt());
    for (int l = 0; l < layers.size(); ++l) {
        const QJsonObject layer = layers[l].toObject();
        for (int i = 0; i < own.size(); ++i) {
            QCOMPARE(lens.top[std::size_t(l)][std::size_t(i)].front().id, layer["top"][i].toInt());
            QCOMPARE(lens.rank(l, i), layer["rank"][i].toInt());
            QVERIFY(std::abs(lens.probability(l, i) - layer["probability"][i].toDouble()) < 1e-6);
        }
    }
    // Layer 1's lens at position 5 ranks the model's own prediction 154th of 413 (the reference's
    // number, written out): the lens is not the last layer's logits below the top.
    QCOMPARE(lens.rank(0, 4), 154);
}

void TestLogitLens::lensFollowsAChosenToken()
{
    const auto model = attn::test::loadFixture(QStringLiteral("gpt2"));
    CpuBackend backend;
    const auto run =
        runModel(model, modelTokens(*model, QStringLiteral("The cat sat on the")), {}, backend);
    LensOptions options;
    options.token = 297; // 'Ġcat'
    const LogitLens lens = logitLens(*run, backend, options);
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(lens.followed[std::size_t(i)], 297);
        for (int l = 0; l < lens.layerCount(); ++l) {
            const auto& top = lens.top[std::size_t(l)][std::size_t(i)];
            QCOMPARE(lens.rank(l, i) == 1, top.front().id == 297);
            QVERIFY(lens.probability(l, i) <= top.front().probability);
        }
    }
}

void TestLogitLens::lensErrors()
{
    const auto model = attn::test::loadFixture(QStringLiteral("gpt2"));
    CpuBackend backend;
    const auto run =
        runModel(model, modelTokens(*model, QStringLiteral("The cat sat")), {}, backend);
    LensOptions options;
    options.token = 413;
    QCOMPARE(attn::test::errorOf([&] { logitLens(*run, backend, options); }),
             QStringLiteral("the logit lens: token id 413 is outside the vocabulary (0 to 412)"));
    std::atomic<bool> cancel{true};
    LensOptions cancelled;
    cancelled.cancel = &cancel;
    QVERIFY_THROWS_EXCEPTION(Cancelled, logitLens(*run, backend, cancelled));
}

void TestLogitLens::attributionAgainstReference()
{
    const QJsonObject expected = attn::test::lensExpected();
    const QJsonObject reference = expected["attribution"].toObject();
    const auto model = attn::test::loadFixture(QStringLiteral("gpt2"));
    CpuBackend backend;
    const auto run = runModel(model, attn::test::tokensOf(expected["clean"]), {}, backend);
    const LogitAttribution a = logitAttribution(*run);
    QCOMPARE(a.position, reference["position"].toInt());
    QCOMPARE(a.token, reference["token"].toInt());
    constexpr double tolerance = 2e-5;
    QVERIFY(std::abs(a.scale - reference["scale"].toDouble()) < tolerance);
    QVERIFY(std::abs(a.embedding - reference["embedding"].toDouble()) < tolerance);
    QVERIFY(std::abs(a.bias - reference["bias"].toDouble()) < tolerance);
    QVERIFY(std::abs(a.logit - reference["logit"].toDouble()) < tolerance);
    QVERIFY(attn::test::maxDifference(a.heads, attn::test::matrixOf(reference["heads"])) <
            tolerance);
    for (int l = 0; l < 2; ++l) {
        QVERIFY(std::abs(a.attentionBias[std::size_t(l)] -
                         reference["attention_bias"][l].toDouble()) < tolerance);
        QVERIFY(std::abs(a.feedForward[std::size_t(l)] - reference["feed_forward"][l].toDouble()) <
                tolerance);
    }
    QVERIFY(std::abs(sumOfTerms(a) - reference["logit"].toDouble()) < tolerance);
}

void TestLogitLens::attributionSumsToTheLogit_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("gpt2") << "gpt2";
    QTest::newRow("llama") << "llama"; // RMSNorm, no biases, grouped-query heads
    QTest::newRow("qwen2") << "qwen2";
}

void TestLogitLens::attributionSumsToTheLogit()
{
    QFETCH(QString, name);
    const auto model = attn::test::loadFixture(name);
    CpuBackend backend;
    Interventions off;
    off.headsOff = {{0, 1}};
    const auto run =
        runModel(model, modelTokens(*model, QStringLiteral("The cat sat on the")), off, backend);
    for (int token : {-1, 7}) {
        const LogitAttribution a = logitAttribution(*run, token);
        QCOMPARE(a.token, token < 0 ? run->predictions.front().top.front().id : token);
        QCOMPARE(a.logit, run->predictions.front().logits(a.token));
        QCOMPARE(a.heads(0, 1), 0.0f); // switched off: it wrote nothing
        QVERIFY2(std::abs(sumOfTerms(a) - double(a.logit)) < 1e-4 * std::max(1.0f, a.logit),
                 qPrintable(QStringLiteral("%1 vs %2").arg(sumOfTerms(a)).arg(a.logit)));
        QVERIFY(a.heads.cwiseAbs().maxCoeff() > 1e-4f);
    }
}

void TestLogitLens::attributionErrors()
{
    CpuBackend backend;
    const auto bert = attn::test::loadFixture(QStringLiteral("bert"));
    const auto masked =
        runModel(bert, modelTokens(*bert, QStringLiteral("the cat [MASK].")), {}, backend);
    QCOMPARE(attn::test::errorOf([&] { logitAttribution(*masked); }),
             QStringLiteral("direct logit attribution needs a pre-norm model (GPT-2, Llama): bert "
                            "normalises the residual stream after every layer, so no part's share "
                            "reaches the head unchanged"));
    const auto none = runModel(bert, modelTokens(*bert, QStringLiteral("the cat")), {}, backend);
    QCOMPARE(attn::test::errorOf([&] { logitAttribution(*none); }),
             QStringLiteral("direct logit attribution needs a prediction: the model has no "
                            "language-model head, or the text has no [MASK]"));
    const auto gpt2 = attn::test::loadFixture(QStringLiteral("gpt2"));
    const auto run = runModel(gpt2, modelTokens(*gpt2, QStringLiteral("The cat")), {}, backend);
    QCOMPARE(attn::test::errorOf([&] { logitAttribution(*run, 500); }),
             QStringLiteral(
                 "direct logit attribution: token id 500 is outside the vocabulary (0 to 412)"));
}

QTEST_GUILESS_MAIN(TestLogitLens)
#include "tst_logit_lens.moc"
