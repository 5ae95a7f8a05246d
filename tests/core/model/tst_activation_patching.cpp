// Activation patching on the tiny checkpoints: every head and every residual row patched from
// a clean run into a corrupted one against an independent float64 NumPy computation
// (lens_reference.py), and the identities that hold on any model: a run patched from itself
// is unchanged, all heads of a layer are that layer's attention output, the last stream at the
// predicted position is the clean run's metric. Also the errors a user meets.

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/model/activation_patching.h"
#include "core/model/model_loader.h"
#include "core/tokenizers/hf_tokenizer.h"
#include "support/error_of.h"
#include "support/lens_fixtures.h"
#include "support/model_fixtures.h"

#include <QTest>

#include <cmath>
#include <numeric>

using namespace attn::core;

namespace {

// float32 recomputation against float64: the metric is a logit difference of order 1.
constexpr double kTolerance = 2e-5;

} // namespace

class TestActivationPatching : public QObject
{
    Q_OBJECT

private slots:
    void againstReference();
    void patchingARunIntoItselfChangesNothing_data();
    void patchingARunIntoItselfChangesNothing();
    void allHeadsAreTheAttentionOutput_data();
    void allHeadsAreTheAttentionOutput();
    void manyPatchesInSeveralBatches();
    void probabilityMetric();
    void metricTokens();
    void errors();
    void progressAndCancel();
};

void TestActivationPatching::againstReference()
{
    const QJsonObject expected = attn::test::lensExpected();
    const QJsonObject reference = expected["patching"].toObject();
    const auto model = attn::test::loadFixture(QStringLiteral("gpt2"));
    CpuBackend backend;
    PatchingMetric metric;
    metric.tokenA = reference["token_a"].toInt();
    metric.tokenB = reference["token_b"].toInt();
    const PatchingRuns runs =
        patchingRuns(model, attn::test::tokensOf(expected["clean"]),
                     attn::test::tokensOf(expected["corrupt"]), {}, metric, backend);
    QCOMPARE(runs.position, 4);
    const double clean = reference["clean"].toDouble();
    const double corrupt = reference["corrupt"].toDouble();
    QVERIFY(std::abs(runs.cleanMetric - clean) < kTolerance);
    QVERIFY(std::abs(runs.corruptMetric - corrupt) < kTolerance);
    const ActivationPatching result = activationPatching(runs, backend);
    QVERIFY(result.warnings.empty());
    const Matrix heads = attn::test::matrixOf(reference["heads"]);
    const Matrix positions = attn::test::matrixOf(reference["positions"]);
    QVERIFY(attn::test::maxDifference(result.headMetric, heads) < kTolerance);
    QVERIFY(attn::test::maxDifference(result.positionMetric, positions) < kTolerance);
    // The fraction restored, from the reference's own metrics.
    const Matrix headFraction =
        ((heads.array() - float(corrupt)) / float(clean - corrupt)).matrix();
    QVERIFY(attn::test::maxDifference(result.heads, headFraction) < 1e-4);
    // Position 1 is "The" in both prompts: patching it restores nothing (exactly, as the rows
    // are equal); the last stream at the last position is the clean run's (1).
    QCOMPARE(result.positions(0, 0), 0.0f);
    QVERIFY(std::abs(result.positions(1, 4) - 1.0f) < 1e-4f);
    // Above the last layer only the predicted position reaches the head.
    for (int p = 0; p < 4; ++p)
        QCOMPARE(result.positions(1, p), 0.0f);
}

void TestActivationPatching::patchingARunIntoItselfChangesNothing_data()
{
    attn::test::addSentenceRows({"gpt2", "llama", "bert"});
}

void TestActivationPatching::patchingARunIntoItselfChangesNothing()
{
    QFETCH(QString, name);
    QFETCH(QString, text);
    const auto model = attn::test::loadFixture(name);
    CpuBackend backend;
    const std::vector<Token> tokens = modelTokens(*model, text);
    PatchingMetric metric;
    metric.tokenA = 5;
    metric.tokenB = 9;
    Interventions off;
    off.headsOff = {{0, 0}};
    const PatchingRuns runs = patchingRuns(model, tokens, tokens, off, metric, backend);
    QCOMPARE(runs.cleanMetric, runs.corruptMetric);
    const ActivationPatching result = activationPatching(runs, backend);
    QVERIFY((result.headMetric.array() - float(runs.corruptMetric)).abs().maxCoeff() < 1e-5f);
    QVERIFY((result.positionMetric.array() - float(runs.corruptMetric)).abs().maxCoeff() < 1e-5f);
    QVERIFY(result.heads.isZero(0.0f));
    QCOMPARE(attn::test::warningList(result.warnings),
             QStringList{QStringLiteral("the clean and corrupted runs give the same metric (%1): "
                                        "there is nothing to restore")
                             .arg(QString::fromStdString(std::to_string(runs.cleanMetric)))});
}

void TestActivationPatching::allHeadsAreTheAttentionOutput_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("gpt2") << "gpt2";
    QTest::newRow("llama") << "llama";
    QTest::newRow("mistral") << "mistral";
}

// Cat[H_1 .. H_h] W_O + b_O with every H from the clean run is the clean layer's output; and
// the whole stream after the last layer patched is the clean run itself.
void TestActivationPatching::allHeadsAreTheAttentionOutput()
{
    QFETCH(QString, name);
    const auto model = attn::test::loadFixture(name);
    CpuBackend backend;
    PatchingMetric metric;
    metric.tokenA = 11;
    metric.tokenB = 3;
    const PatchingRuns runs = patchingRuns(
        model, modelTokens(*model, QStringLiteral("The cat sat on the mat")),
        modelTokens(*model, QStringLiteral("The dog sat on the mat")), {}, metric, backend);
    const int layers = model->config().layers;
    std::vector<int> all(std::size_t(model->config().heads));
    std::iota(all.begin(), all.end(), 0);
    std::vector<int> everyPosition(runs.corrupt->tokens.size());
    std::iota(everyPosition.begin(), everyPosition.end(), 0);
    std::vector<Patch> patches;
    for (int l = 0; l < layers; ++l) {
        patches.push_back(Patch{l, all, false, {}});
        patches.push_back(Patch{l, {}, true, {}});
    }
    patches.push_back(Patch{layers - 1, {}, false, everyPosition});
    patches.push_back(Patch{0, {}, false, everyPosition});
    const std::vector<double> metrics = patchedMetrics(runs, patches, backend);
    QVERIFY(std::abs(runs.cleanMetric - runs.corruptMetric) > 1e-3);
    for (int l = 0; l < layers; ++l)
        QVERIFY2(std::abs(metrics[std::size_t(2 * l)] - metrics[std::size_t(2 * l + 1)]) < 1e-5,
                 qPrintable(QStringLiteral("layer %1: %2 vs %3")
                                .arg(l + 1)
                                .arg(metrics[std::size_t(2 * l)])
                                .arg(metrics[std::size_t(2 * l + 1)])));
    QVERIFY(std::abs(metrics[std::size_t(2 * layers)] - runs.cleanMetric) < 1e-5);
    QVERIFY(std::abs(metrics[std::size_t(2 * layers + 1)] - runs.cleanMetric) < 1e-5);
}

// More rows than one batch carries (8192: 1700 runs of 5 tokens are two batches), in any order.
void TestActivationPatching::manyPatchesInSeveralBatches()
{
    const QJsonObject expected = attn::test::lensExpected();
    const QJsonObject reference = expected["patching"].toObject();
    const auto model = attn::test::loadFixture(QStringLiteral("gpt2"));
    CpuBackend backend;
    PatchingMetric metric{297, 298};
    const PatchingRuns runs =
        patchingRuns(model, attn::test::tokensOf(expected["clean"]),
                     attn::test::tokensOf(expected["corrupt"]), {}, metric, backend);
    std::vector<Patch> patches;
    for (int n = 0; n < 1700; ++n)
        patches.push_back(n % 2 ? Patch{1, {2}, false, {}} : Patch{0, {1}, false, {3}});
    const std::vector<double> metrics = patchedMetrics(runs, patches, backend);
    const double head = reference["heads"][1][2].toDouble();
    for (int n = 1; n < 1700; n += 2)
        QVERIFY(std::abs(metrics[std::size_t(n)] - head) < kTolerance);
    // (Runs side by side in one problem round as the product's tiles fall: float32 apart.)
    for (int n = 2; n < 1700; n += 2)
        QVERIFY(std::abs(metrics[std::size_t(n)] - metrics[0]) < 1e-5);
}

void TestActivationPatching::probabilityMetric()
{
    // softmax([0, ln 3, 0])[1] = 3 / 5.
    PatchingMetric metric;
    metric.tokenA = 1;
    QVERIFY(std::abs(metric.of(RowVector{{0.0f, std::log(3.0f), 0.0f}}) - 0.6) < 1e-7);
    metric.tokenB = 0;
    QVERIFY(std::abs(metric.of(RowVector{{0.5f, 2.0f, 0.0f}}) - 1.5) < 1e-7);
}

void TestActivationPatching::metricTokens()
{
    const auto model = attn::test::loadFixture(QStringLiteral("gpt2"));
    const PatchingMetric both = parsePatchingMetric(*model, QStringLiteral(" cat, dog"));
    QCOMPARE(both.tokenA, 297);
    QCOMPARE(both.tokenB, 298);
    // SentencePiece marks a word's start itself: " cat" is the word "▁cat", as "cat" is.
    const auto llama = attn::test::loadFixture(QStringLiteral("llama"));
    const int cat = parsePatchingMetric(*llama, QStringLiteral("cat")).tokenA;
    QCOMPARE(llama->tokenizer->pieceOf(cat), QStringLiteral("▁cat"));
    QCOMPARE(parsePatchingMetric(*llama, QStringLiteral(" cat")).tokenA, cat);
    const PatchingMetric stored = parsePatchingMetric(*model, QStringLiteral("Ġcat"));
    QCOMPARE(stored.tokenA, 297);
    QCOMPARE(stored.tokenB, -1);
    QCOMPARE(attn::test::errorOf([&] { parsePatchingMetric(*model, QStringLiteral(" cat sat")); }),
             QStringLiteral("metric token ' cat sat': is 2 tokens of the vocabulary (' cat', ' "
                            "sat'), not one; write one token, with its leading space where the "
                            "vocabulary has one"));
    QCOMPARE(attn::test::errorOf([&] { parsePatchingMetric(*model, QStringLiteral("a,b,c")); }),
             QStringLiteral("metric: expected \"A,B\" (the logit difference) or \"A\" (its "
                            "probability), got 3 tokens"));
    QCOMPARE(attn::test::errorOf([&] { parsePatchingMetric(*model, QStringLiteral(" cat,")); }),
             QStringLiteral("metric: a token is empty (write \"A,B\" or \"A\")"));
}

void TestActivationPatching::errors()
{
    const auto model = attn::test::loadFixture(QStringLiteral("gpt2"));
    CpuBackend backend;
    PatchingMetric metric{297, 298};
    QCOMPARE(attn::test::errorOf([&] {
                 patchingRuns(model, modelTokens(*model, QStringLiteral("The cat sat on the")),
                              modelTokens(*model, QStringLiteral("The cat sat")), {}, metric,
                              backend);
             }),
             QStringLiteral("activation patching needs prompts of the same length in tokens: the "
                            "clean prompt has 5 tokens, the corrupted one 3"));
    const std::vector<Token> tokens = modelTokens(*model, QStringLiteral("The cat"));
    QCOMPARE(attn::test::errorOf([&] {
                 patchingRuns(model, tokens, tokens, {}, PatchingMetric{297, 413}, backend);
             }),
             QStringLiteral("metric: token id 413 is outside the vocabulary (0 to 412)"));
    const PatchingRuns runs = patchingRuns(model, tokens, tokens, {}, metric, backend);
    QCOMPARE(attn::test::errorOf([&] {
                 patchedMetrics(runs, {Patch{2, {}, false, {}}}, backend);
             }),
             QStringLiteral("patch: layer 3: the model has 2 layers"));
    QCOMPARE(attn::test::errorOf([&] {
                 patchedMetrics(runs, {Patch{1, {4}, false, {}}}, backend);
             }),
             QStringLiteral("patch: layer 2 head 5: the layer has 4 heads"));
    QCOMPARE(attn::test::errorOf([&] {
                 patchedMetrics(runs, {Patch{1, {}, false, {2}}}, backend);
             }),
             QStringLiteral("patch: position 3: the prompts have 2 tokens"));
    const auto bert = attn::test::loadFixture(QStringLiteral("bert"));
    const std::vector<Token> plain = modelTokens(*bert, QStringLiteral("the cat"));
    QCOMPARE(attn::test::errorOf([&] {
                 patchingRuns(bert, plain, plain, {}, {5, 9}, backend);
             }),
             QStringLiteral("activation patching needs a prediction: the model has no "
                            "language-model head, or the clean text has no [MASK]"));
}

void TestActivationPatching::progressAndCancel()
{
    const auto model = attn::test::loadFixture(QStringLiteral("gpt2"));
    CpuBackend backend;
    const std::vector<Token> tokens = modelTokens(*model, QStringLiteral("The cat sat"));
    const PatchingRuns runs = patchingRuns(model, tokens, tokens, {}, {297, 298}, backend);
    PatchingOptions options;
    int calls = 0;
    options.progress = [&](int done, int total) {
        QCOMPARE(done, ++calls);
        QCOMPARE(total, 2); // one batch from layer 1: two layers
    };
    activationPatching(runs, backend, options);
    QCOMPARE(calls, 2);
    std::atomic<bool> cancel{true};
    options.cancel = &cancel;
    QVERIFY_THROWS_EXCEPTION(Cancelled, activationPatching(runs, backend, options));
}

QTEST_GUILESS_MAIN(TestActivationPatching)
#include "tst_activation_patching.moc"
