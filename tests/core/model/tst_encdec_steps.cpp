// Greedy decoding step by step and interventions on the three kinds of heads of an
// encoder-decoder model (the tiny Marian checkpoint tests/data/models/marian: 2 encoder heads,
// 4 decoder heads, 2 layers each). A head switched off leaves its weights as they were and
// takes its output out of Cat[H_1 .. H_h] W_O (Vaswani et al. 2017, eq. 5 of section 3.2.2).

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/model/encoder_decoder.h"
#include "core/model/model_loader.h"
#include "support/model_fixtures.h"

#include <QTest>

#include <cmath>

using namespace attn::core;
using attn::test::maxDifference;

namespace {

std::shared_ptr<const Model> marian()
{
    static const std::shared_ptr<const Model> model =
        loadModel(attn::test::modelFixture(QStringLiteral("marian")));
    return model;
}

// "Hi cat" as the reference tokenized it, and its greedy translation (expected_seq2seq.json).
const std::vector<int> kSource{41, 74, 222, 68, 66, 85, 0};
const std::vector<int> kGenerated{36, 36, 36, 36, 36, 36, 36, 36};
constexpr int kStart = 258;

std::vector<Token> source()
{
    return decoderTokens(*marian(), kSource);
}

// Row `row` of head `head`'s W_O block (d_v rows per head) applied to that head's output: what
// the head adds to the layer's output.
Matrix headContribution(const AttentionResult& layer, int head)
{
    const Matrix& out = layer.heads[std::size_t(head)].output;
    const Matrix& wo = layer.problem->weights->Wo;
    return out * wo.middleRows(head * out.cols(), out.cols());
}

} // namespace

class TestEncoderDecoderSteps : public QObject
{
    Q_OBJECT

private slots:
    void crossHeadOffTakesItsOutputAway();
    void encoderHeadOffTakesItsOutputAway();
    void everyEncoderHeadOffChangesTheTranslation();
    void decoderInterventionsAsBefore();
    void greedyStepChoosesTheMostLikely();
    void stepsAreTheDecoding();
    void headOutsideTheLayerIsNamed_data();
    void headOutsideTheLayerIsNamed();
};

void TestEncoderDecoderSteps::crossHeadOffTakesItsOutputAway()
{
    const std::vector<Token> target = decoderTokens(*marian(), {kStart, 36, 36});
    CpuBackend backend;
    const auto base = runEncoderDecoder(marian(), source(), target, Interventions{}, backend);
    EncoderDecoderInterventions off;
    off.cross.headsOff = {{0, 1}};
    const auto changed = runEncoderDecoderWith(marian(), source(), target, off, backend);

    const AttentionResult& before = *base->crossLayers[0];
    const AttentionResult& after = *changed->crossLayers[0];
    QVERIFY(before.heads[1].enabled);
    QVERIFY(!after.heads[1].enabled);
    // Its weights are still computed (3 target x 7 source) and the same: the layer reads the same.
    QCOMPARE(after.heads[1].weights.rows(), Eigen::Index(3));
    QCOMPARE(after.heads[1].weights.cols(), Eigen::Index(7));
    QVERIFY(maxDifference(after.heads[1].weights, before.heads[1].weights) < 1e-6);
    // Cat[H_1 .. H_4] has zeros where head 2 was.
    const Matrix cat = after.concat();
    const Eigen::Index dv = after.heads[1].output.cols();
    QCOMPARE(cat.middleCols(dv, dv).cwiseAbs().maxCoeff(), 0.0f);
    // The layer's output lost exactly head 2's share: out_off = out - H_2 W_O[block 2].
    const Matrix expected = before.output - headContribution(before, 1);
    QVERIFY(maxDifference(after.output, expected) < 1e-5);
    // The other kinds are untouched, and the logits moved.
    QVERIFY(maxDifference(changed->encoderOutput, base->encoderOutput) == 0.0);
    QVERIFY(maxDifference(changed->layers[0]->output, base->layers[0]->output) == 0.0);
    QVERIFY(changed->interventions.empty()); // the decoder's own: none
    QVERIFY(maxDifference(changed->predictions[0].logits, base->predictions[0].logits) > 1e-4);
}

void TestEncoderDecoderSteps::encoderHeadOffTakesItsOutputAway()
{
    const std::vector<Token> target = decoderTokens(*marian(), {kStart});
    CpuBackend backend;
    const auto base = runEncoderDecoder(marian(), source(), target, Interventions{}, backend);
    EncoderDecoderInterventions off;
    off.encoder.headsOff = {{0, 0}};
    const auto changed = runEncoderDecoderWith(marian(), source(), target, off, backend);
    const AttentionResult& before = *base->encoderLayers[0];
    const AttentionResult& after = *changed->encoderLayers[0];
    QVERIFY(!after.heads[0].enabled);
    QVERIFY(after.heads[1].enabled);
    QVERIFY(maxDifference(after.heads[0].weights, before.heads[0].weights) < 1e-6);
    const Matrix expected = before.output - headContribution(before, 0);
    QVERIFY(maxDifference(after.output, expected) < 1e-5);
    // What the decoder reads changed, so its cross-attention did.
    QVERIFY(maxDifference(changed->encoderOutput, base->encoderOutput) > 1e-3);
    QVERIFY(maxDifference(changed->crossLayers[0]->heads[0].weights,
                          base->crossLayers[0]->heads[0].weights) > 1e-6);
}

void TestEncoderDecoderSteps::everyEncoderHeadOffChangesTheTranslation()
{
    // With the encoder's attention gone, no source word reaches another. This random tiny
    // model writes eight 36s whatever it reads (its smallest greedy gap is 1.48 logits), so
    // what changes is how sure each step is.
    CpuBackend backend;
    EncoderDecoderInterventions off;
    off.encoder.headsOff = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    const GreedyDecoding base =
        decodeGreedilyWith(marian(), source(), 2, EncoderDecoderInterventions{}, backend);
    QCOMPARE(base.generated, std::vector<int>({36, 36}));
    const GreedyDecoding changed = decodeGreedilyWith(marian(), source(), 2, off, backend);
    QCOMPARE(changed.steps.size(), std::size_t(2));
    for (std::size_t k = 0; k < 2; ++k)
        QVERIFY(std::abs(changed.steps[k].probability - base.steps[k].probability) > 1e-4f);
}

void TestEncoderDecoderSteps::decoderInterventionsAsBefore()
{
    // The decoder's interventions given alone or as the decoder's part of all three: one forward.
    const std::vector<Token> target = decoderTokens(*marian(), {kStart, 36});
    Interventions decoder;
    decoder.headsOff = {{1, 2}};
    EncoderDecoderInterventions all;
    all.decoder = decoder;
    CpuBackend backend;
    const auto a = runEncoderDecoder(marian(), source(), target, decoder, backend);
    const auto b = runEncoderDecoderWith(marian(), source(), target, all, backend);
    QVERIFY(!a->layers[1]->heads[2].enabled);
    QCOMPARE(b->interventions, decoder);
    QCOMPARE(maxDifference(a->predictions[0].logits, b->predictions[0].logits), 0.0);
}

void TestEncoderDecoderSteps::greedyStepChoosesTheMostLikely()
{
    CpuBackend backend;
    const GreedyStep step = greedyStep(marian(), source(), {kStart}, {}, backend);
    QCOMPARE(step.id, kGenerated[0]);
    QCOMPARE(step.result->tokens.size(), std::size_t(1));
    // p = exp(l_36) / sum_j exp(l_j), written out here in double.
    const RowVector& logits = step.result->predictions[0].logits;
    double sum = 0.0;
    for (Eigen::Index j = 0; j < logits.size(); ++j)
        sum += std::exp(double(logits(j)));
    QVERIFY(std::abs(double(step.probability) - std::exp(double(logits(36))) / sum) < 1e-6);
    QVERIFY(step.probability > 1.0f / 259.0f); // more than a uniform guess over 259 tokens
}

void TestEncoderDecoderSteps::stepsAreTheDecoding()
{
    CpuBackend backend;
    int seen = 0;
    const GreedyDecoding decoding =
        decodeGreedilyWith(marian(), source(), 3, EncoderDecoderInterventions{}, backend, {},
                           [&seen](const GreedyStep& step) {
                               ++seen;
                               QCOMPARE(step.result->tokens.size(), std::size_t(seen));
                           });
    QCOMPARE(seen, 3);
    QCOMPARE(decoding.generated, std::vector<int>({36, 36, 36}));
    QCOMPARE(decoding.steps.size(), std::size_t(3));
    // The decoder is causal: the cross-attention row step k read is row k of the final forward.
    const Matrix& final = decoding.result->crossLayers[1]->heads[3].weights;
    QCOMPARE(final.rows(), Eigen::Index(4));
    for (int k = 0; k < 3; ++k) {
        QCOMPARE(decoding.steps[std::size_t(k)].id, 36);
        const Matrix& row = decoding.steps[std::size_t(k)].result->crossLayers[1]->heads[3].weights;
        QVERIFY(maxDifference(row.bottomRows(1), final.row(k)) < 1e-5);
    }
}

void TestEncoderDecoderSteps::headOutsideTheLayerIsNamed_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("encoder") << 0 << "encoder: layer 2 head 3: the layer has 2 heads";
    QTest::newRow("cross") << 1 << "cross-attention: layer 2 head 5: the layer has 4 heads";
}

void TestEncoderDecoderSteps::headOutsideTheLayerIsNamed()
{
    QFETCH(int, kind);
    QFETCH(QString, message);
    EncoderDecoderInterventions off;
    (kind == 0 ? off.encoder : off.cross).headsOff = {{1, kind == 0 ? 2 : 4}};
    CpuBackend backend;
    try {
        runEncoderDecoderWith(marian(), source(), decoderTokens(*marian(), {kStart}), off, backend);
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(QString::fromUtf8(e.what()), message);
    }
}

QTEST_GUILESS_MAIN(TestEncoderDecoderSteps)
#include "tst_encdec_steps.moc"
