// Greedy decoding step by step and interventions on the three kinds of heads of an
// encoder-decoder model (the tiny Marian checkpoint tests/data/models/marian: 2 encoder heads,
// 4 decoder heads, 2 layers each). A head switched off leaves its weights as they were and
// takes its output out of Cat[H_1 .. H_h] W_O (Vaswani et al. 2017, eq. 5 of section 3.2.2).

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/model/encoder_decoder.h"
#include "core/model/generation.h"
#include "core/model/model_loader.h"
#include "support/model_fixtures.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace attn::core;
using attn::test::maxDifference;

namespace {

// The checkpoint without its generation settings: the references (expected_seq2seq.json,
// beam_reference.py) decode without transformers' logits processors.
std::shared_ptr<const Model> withoutGenerationSettings(const std::shared_ptr<const Model>& model)
{
    auto copy = std::make_shared<Model>(*model);
    copy->weights.config.generation = {};
    return copy;
}

std::shared_ptr<const Model> marian()
{
    static const std::shared_ptr<const Model> model =
        withoutGenerationSettings(loadModel(attn::test::modelFixture(QStringLiteral("marian"))));
    return model;
}

// The Marian fixture copied into `dir`, with `changes` over its generation_config.json (a key
// mapped to null leaves the file) and over its config.json.
QString marianCopy(const QTemporaryDir& dir, const QJsonObject& generationChanges,
                   const QJsonObject& configChanges = {})
{
    const QDir from(attn::test::modelFixture(QStringLiteral("marian")));
    for (const QString& file : from.entryList(QDir::Files))
        QFile::copy(from.filePath(file), dir.filePath(file));
    auto change = [&dir](const QString& file, const QJsonObject& changes) {
        QJsonObject object = attn::test::readJsonObject(dir.filePath(file));
        for (auto it = changes.begin(); it != changes.end(); ++it)
            if (it.value().isNull())
                object.remove(it.key());
            else
                object.insert(it.key(), it.value());
        QFile out(dir.filePath(file));
        if (out.open(QIODevice::WriteOnly | QIODevice::Truncate))
            out.write(QJsonDocument(object).toJson());
    };
    change(QStringLiteral("generation_config.json"), generationChanges);
    change(QStringLiteral("config.json"), configChanges);
    return dir.path();
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

// Every step's forward of `decoding` (built from the key/value cache) against the whole forward
// over the same target computed afresh: the decoder's self-attention and the cross-attention,
// every layer, head and row, to 1e-5, and the logits to 1e-4. The final forward is the whole
// forward itself: equal to the last bit.
void compareWithFullForwards(const std::shared_ptr<const Model>& model,
                             const std::vector<Token>& source, const GreedyDecoding& decoding,
                             const EncoderDecoderInterventions& interventions)
{
    CpuBackend backend;
    ForwardOptions scoring;
    scoring.keepIntermediates = false;
    std::vector<int> target{model->config().decoderStartToken};
    auto compare = [](const std::vector<std::shared_ptr<const AttentionResult>>& got,
                      const std::vector<std::shared_ptr<const AttentionResult>>& want,
                      double tolerance) {
        QCOMPARE(got.size(), want.size());
        for (std::size_t l = 0; l < want.size(); ++l) {
            QCOMPARE(got[l]->heads.size(), want[l]->heads.size());
            for (std::size_t h = 0; h < want[l]->heads.size(); ++h) {
                const Matrix& a = got[l]->heads[h].weights;
                const Matrix& b = want[l]->heads[h].weights;
                QCOMPARE(a.rows(), b.rows());
                QCOMPARE(a.cols(), b.cols());
                QVERIFY2(maxDifference(a, b) <= tolerance,
                         qPrintable(QStringLiteral("layer %1 head %2: %3")
                                        .arg(l + 1)
                                        .arg(h + 1)
                                        .arg(maxDifference(a, b))));
            }
        }
    };
    for (const GreedyStep& step : decoding.steps) {
        const auto full = runEncoderDecoderWith(model, source, decoderTokens(*model, target),
                                                interventions, backend, scoring);
        QCOMPARE(step.result->tokens.size(), target.size());
        compare(step.result->layers, full->layers, 1e-5);
        compare(step.result->crossLayers, full->crossLayers, 1e-5);
        QVERIFY(maxDifference(step.result->predictions.back().logits,
                              full->predictions.back().logits) < 1e-4);
        target.push_back(step.id);
    }
    const auto full =
        runEncoderDecoderWith(model, source, decoderTokens(*model, target), interventions, backend);
    compare(decoding.result->layers, full->layers, 0.0);
    compare(decoding.result->crossLayers, full->crossLayers, 0.0);
    compare(decoding.result->encoderLayers, full->encoderLayers, 0.0);
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
    void crossValuesOfZeroAreTheHeadOff();
    void encoderEditLeavesTheLayersBelow();
    void temperatureOnEncoderAndCross_data();
    void temperatureOnEncoderAndCross();
    void beamKeepsWhatGreedyDrops();
    void beamOfOneIsGreedy();
    void beamAtTheLengthCountsTheRunning();
    void beamWidthBelowOneIsNamed();
    void beamsOnTheTinyCheckpoints_data();
    void beamsOnTheTinyCheckpoints();
    void cachedBeamsAreTheFullForwards_data();
    void cachedBeamsAreTheFullForwards();
    void cachedGreedyWithHeadsOffIsTheFullForwards();
    void checkpointSettingsAreRead();
    void bannedTokenIsNotChosen();
    void forcedEndTokenAtTheCap();
    void malformedGenerationSettingsAreNamed_data();
    void malformedGenerationSettingsAreNamed();
    void decoderStartOutsideTheVocabularyIsNamed();
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

void TestEncoderDecoderSteps::crossValuesOfZeroAreTheHeadOff()
{
    // T5 has no value bias, so a head whose W_v is zero writes P 0 = 0, exactly what switching
    // it off puts into Cat[H_1 .. H_h].
    const auto t5 = loadModel(attn::test::modelFixture(QStringLiteral("t5")));
    const auto& head = t5->weights.layers[1].crossAttention->heads[2];
    QCOMPARE(head.bv.size(), Eigen::Index(0));
    const std::vector<Token> src = decoderTokens(*t5, {6, 5, 47, 4, 7, 8, 46, 1});
    const std::vector<Token> target = decoderTokens(*t5, {0, 40, 40});
    EncoderDecoderInterventions zero;
    zero.cross.layers[1].heads[2].Wv = Matrix::Zero(head.Wv.rows(), head.Wv.cols());
    EncoderDecoderInterventions off;
    off.cross.headsOff = {{1, 2}};
    CpuBackend backend;
    const auto base = runEncoderDecoderWith(t5, src, target, {}, backend);
    const auto a = runEncoderDecoderWith(t5, src, target, zero, backend);
    const auto b = runEncoderDecoderWith(t5, src, target, off, backend);
    QCOMPARE(maxDifference(a->crossLayers[1]->output, b->crossLayers[1]->output), 0.0);
    QCOMPARE(maxDifference(a->predictions[0].logits, b->predictions[0].logits), 0.0);
    QVERIFY(maxDifference(a->predictions[0].logits, base->predictions[0].logits) > 1e-5);
}

void TestEncoderDecoderSteps::encoderEditLeavesTheLayersBelow()
{
    // An edit on encoder layer 2 (its temperature and head 1's W_q): layer 1 computes as before,
    // bit for bit; layer 2's weights and what the decoder reads move.
    const std::vector<Token> target = decoderTokens(*marian(), {kStart, 36});
    EncoderDecoderInterventions edit;
    edit.encoder.layers[1].temperature = 2.0f;
    edit.encoder.layers[1].heads[0].Wq =
        marian()->weights.encoderLayers[1].attention->heads[0].Wq * 3.0f;
    CpuBackend backend;
    const auto base = runEncoderDecoderWith(marian(), source(), target, {}, backend);
    const auto changed = runEncoderDecoderWith(marian(), source(), target, edit, backend);
    QCOMPARE(maxDifference(changed->encoderLayers[0]->output, base->encoderLayers[0]->output), 0.0);
    QCOMPARE(changed->encoderLayers[1]->problem->temperature, 2.0f);
    QVERIFY(maxDifference(changed->encoderLayers[1]->heads[0].weights,
                          base->encoderLayers[1]->heads[0].weights) > 1e-4);
    QVERIFY(maxDifference(changed->encoderOutput, base->encoderOutput) > 1e-4);
    // The decoder's own self-attention settings are untouched.
    QCOMPARE(changed->layers[0]->problem->temperature, 1.0f);
}

void TestEncoderDecoderSteps::temperatureOnEncoderAndCross_data()
{
    QTest::addColumn<bool>("cross");
    QTest::newRow("encoder") << false;
    QTest::newRow("cross-attention") << true;
}

void TestEncoderDecoderSteps::temperatureOnEncoderAndCross()
{
    // softmax(s / 2) is softmax(s) with each weight's square root, renormalised: the temperature
    // of layer 1 of either kind, checked on every row of every head.
    QFETCH(bool, cross);
    const std::vector<Token> target = decoderTokens(*marian(), {kStart, 36, 36});
    EncoderDecoderInterventions edit;
    (cross ? edit.cross : edit.encoder).layers[0].temperature = 2.0f;
    CpuBackend backend;
    const auto base = runEncoderDecoderWith(marian(), source(), target, {}, backend);
    const auto changed = runEncoderDecoderWith(marian(), source(), target, edit, backend);
    const AttentionResult& before = cross ? *base->crossLayers[0] : *base->encoderLayers[0];
    const AttentionResult& after = cross ? *changed->crossLayers[0] : *changed->encoderLayers[0];
    for (std::size_t h = 0; h < before.heads.size(); ++h) {
        Matrix expected = before.heads[h].weights.cwiseSqrt();
        for (Eigen::Index i = 0; i < expected.rows(); ++i)
            expected.row(i) /= expected.row(i).sum();
        QVERIFY(maxDifference(after.heads[h].weights, expected) < 1e-5);
        QVERIFY(maxDifference(after.heads[h].weights, before.heads[h].weights) > 1e-4);
    }
}

namespace {

// A hand-made three-token model (0 the end token, 1 "a", 2 "b"): the probabilities of the next
// token after each prefix, the same after any prefix of two tokens.
NextLogProbabilities handModel(int* calls = nullptr)
{
    return [calls](const std::vector<int>& prefix) {
        static const std::map<std::vector<int>, std::vector<double>> table{
            {{}, {0.1, 0.5, 0.4}}, {{1}, {0.3, 0.45, 0.25}}, {{2}, {0.9, 0.05, 0.05}}};
        const auto found = table.find(prefix);
        const std::vector<double> p =
            found != table.end() ? found->second : std::vector<double>{0.5, 0.3, 0.2};
        if (calls)
            ++*calls;
        return Eigen::VectorXd(Eigen::Vector3d(std::log(p[0]), std::log(p[1]), std::log(p[2])));
    };
}

} // namespace

void TestEncoderDecoderSteps::beamKeepsWhatGreedyDrops()
{
    // Greedy writes a (0.5), a (0.45), end (0.5): log 0.1125 = -2.185 over 3 tokens.
    // Two beams: step 1 runs a (log 0.5) and b (log 0.4). Step 2 ranks b end (log 0.36 = -1.022),
    // a a (log 0.225 = -1.492), a end (log 0.15 = -1.897), a b (log 0.125 = -2.079): b end ends
    // (rank 0); a end ranks 2, below the two beams, and is dropped; a a and a b run on. Step 3:
    // a a end (log 0.1125) ranks first and ends the second hypothesis. Scores: b end
    // log(0.36) / 2 = -0.5108, a a end log(0.1125) / 3 = -0.7282.
    int calls = 0;
    const BeamSearchResult r = beamSearch(2, 3, 0, handModel(&calls));
    QCOMPARE(r.best.ids, std::vector<int>({2, 0}));
    QVERIFY(std::abs(r.best.logProbability - std::log(0.36)) < 1e-12);
    QVERIFY(std::abs(r.best.score - std::log(0.36) / 2.0) < 1e-12);
    QCOMPARE(r.hypotheses.size(), std::size_t(2));
    QCOMPARE(r.hypotheses[1].ids, std::vector<int>({1, 1, 0}));
    QVERIFY(std::abs(r.hypotheses[1].score - std::log(0.1125) / 3.0) < 1e-12);
    QCOMPARE(calls, 1 + 2 + 2); // one running hypothesis at the start, then two a step
}

void TestEncoderDecoderSteps::beamOfOneIsGreedy()
{
    const BeamSearchResult r = beamSearch(1, 3, 0, handModel());
    QCOMPARE(r.best.ids, std::vector<int>({1, 1, 0}));
    QVERIFY(std::abs(r.best.logProbability - std::log(0.1125)) < 1e-12);
}

void TestEncoderDecoderSteps::beamAtTheLengthCountsTheRunning()
{
    // Two steps only: b end (-0.5108) has ended; a a (log 0.225 / 2 = -0.7458) and a b
    // (log 0.125 / 2 = -1.0397) are cut by the length and compete; the two best stay.
    const BeamSearchResult r = beamSearch(2, 2, 0, handModel());
    QCOMPARE(r.best.ids, std::vector<int>({2, 0}));
    QCOMPARE(r.hypotheses.size(), std::size_t(2));
    QCOMPARE(r.hypotheses[1].ids, std::vector<int>({1, 1}));
    QVERIFY(std::abs(r.hypotheses[1].score - std::log(0.225) / 2.0) < 1e-12);
}

void TestEncoderDecoderSteps::beamWidthBelowOneIsNamed()
{
    try {
        beamSearch(0, 3, 0, handModel());
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("the beam width must be at least 1, "
                                                             "not 0"));
    }
}

void TestEncoderDecoderSteps::beamsOnTheTinyCheckpoints_data()
{
    QTest::addColumn<QString>("family");
    QTest::addColumn<int>("beams");
    for (const QString family : {"marian", "bart", "t5", "flan-t5"})
        for (int beams : {1, 2, 3, 4})
            QTest::newRow(qPrintable(family + QLatin1Char(' ') + QString::number(beams)))
                << family << beams;
}

void TestEncoderDecoderSteps::beamsOnTheTinyCheckpoints()
{
    // beam_expected.json: tests/data/models/beam_reference.py's float64 search over the NumPy
    // forwards; width 1 is the greedy decoding of expected_seq2seq.json.
    QFETCH(QString, family);
    QFETCH(int, beams);
    static const QJsonObject all = attn::test::readJsonObject(
        attn::test::modelFixturesDir() + QStringLiteral("/beam_expected.json"));
    const QJsonObject expected = all[family].toObject();
    QVERIFY(!expected.isEmpty());
    const auto model = withoutGenerationSettings(loadModel(attn::test::modelFixture(family)));
    std::vector<int> sourceIds;
    for (const QJsonValue& id : expected[QStringLiteral("source_ids")].toArray())
        sourceIds.push_back(id.toInt());
    const QJsonObject beam = expected[QStringLiteral("beams")][QString::number(beams)].toObject();
    std::vector<int> ids;
    for (const QJsonValue& id :
         (beams == 1 ? expected[QStringLiteral("greedy")] : beam[QStringLiteral("ids")]).toArray())
        ids.push_back(id.toInt());
    CpuBackend backend;
    const BeamDecoding decoding =
        decodeWithBeams(model, decoderTokens(*model, sourceIds),
                        expected[QStringLiteral("max_new_tokens")].toInt(), beams, {}, backend);
    QCOMPARE(decoding.search.best.ids, ids);
    QCOMPARE(decoding.chosen.generated, ids);
    if (beams > 1) {
        const double logProbability = beam[QStringLiteral("log_probability")].toDouble();
        QVERIFY2(std::abs(decoding.search.best.logProbability - logProbability) < 1e-4,
                 qPrintable(QString::number(decoding.search.best.logProbability)));
        QVERIFY(std::abs(decoding.search.best.score - beam[QStringLiteral("score")].toDouble()) <
                1e-4);
    }
    // The steps are the chosen hypothesis: its tokens, each scored after the ones before.
    QCOMPARE(decoding.chosen.steps.size(), ids.size());
    double sum = 0.0;
    for (std::size_t k = 0; k < ids.size(); ++k) {
        QCOMPARE(decoding.chosen.steps[k].id, ids[k]);
        QCOMPARE(decoding.chosen.steps[k].result->tokens.size(), k + 1);
        sum += std::log(double(decoding.chosen.steps[k].probability));
    }
    QVERIFY(std::abs(sum - decoding.search.best.logProbability) < 1e-4);
    QCOMPARE(decoding.chosen.result->tokens.size(), ids.size() + 1);
}

void TestEncoderDecoderSteps::cachedBeamsAreTheFullForwards_data()
{
    QTest::addColumn<QString>("family");
    for (const QString family : {"marian", "bart", "t5", "flan-t5"})
        QTest::newRow(qPrintable(family)) << family;
}

void TestEncoderDecoderSteps::cachedBeamsAreTheFullForwards()
{
    // Three beams decoded with the key/value cache choose what the search over whole forwards
    // chooses, and every step reads what the whole forward over its target reads.
    QFETCH(QString, family);
    const QJsonObject expected =
        attn::test::readJsonObject(attn::test::modelFixturesDir() +
                                   QStringLiteral("/beam_expected.json"))[family]
            .toObject();
    const auto model = withoutGenerationSettings(loadModel(attn::test::modelFixture(family)));
    std::vector<int> sourceIds;
    for (const QJsonValue& id : expected[QStringLiteral("source_ids")].toArray())
        sourceIds.push_back(id.toInt());
    const std::vector<Token> from = decoderTokens(*model, sourceIds);
    const int length = expected[QStringLiteral("max_new_tokens")].toInt();
    CpuBackend backend;
    ForwardOptions scoring;
    scoring.keepIntermediates = false;
    const int start = model->config().decoderStartToken;
    const BeamSearchResult whole =
        beamSearch(3, length, model->config().eosToken, [&](const std::vector<int>& ids) {
            std::vector<int> target{start};
            target.insert(target.end(), ids.begin(), ids.end());
            return logSoftmax(
                runEncoderDecoder(model, from, decoderTokens(*model, target), {}, backend, scoring)
                    ->predictions.back()
                    .logits);
        });
    const BeamDecoding cached = decodeWithBeams(model, from, length, 3, {}, backend);
    QCOMPARE(cached.search.best.ids, whole.best.ids);
    QCOMPARE(cached.search.hypotheses.size(), whole.hypotheses.size());
    for (std::size_t i = 0; i < whole.hypotheses.size(); ++i) {
        QCOMPARE(cached.search.hypotheses[i].ids, whole.hypotheses[i].ids);
        QVERIFY(std::abs(cached.search.hypotheses[i].logProbability -
                         whole.hypotheses[i].logProbability) < 1e-4);
    }
    compareWithFullForwards(model, from, cached.chosen, {});
}

void TestEncoderDecoderSteps::cachedGreedyWithHeadsOffIsTheFullForwards()
{
    // Heads switched off in the decoder's self-attention and in the cross-attention are in the
    // cached layers' weights: the cached steps read what the whole forwards read.
    EncoderDecoderInterventions off;
    off.decoder.headsOff = {{0, 1}, {1, 3}};
    off.cross.headsOff = {{1, 0}};
    off.encoder.headsOff = {{0, 0}};
    CpuBackend backend;
    const GreedyDecoding decoding = decodeGreedilyWith(marian(), source(), 4, off, backend);
    QCOMPARE(decoding.steps.size(), std::size_t(4));
    compareWithFullForwards(marian(), source(), decoding, off);
}

void TestEncoderDecoderSteps::checkpointSettingsAreRead()
{
    // The fixture's files as Marian's conversion writes them: the pad token 258 banned, 0 forced.
    const auto model = loadModel(attn::test::modelFixture(QStringLiteral("marian")));
    QCOMPARE(model->config().generation.bannedTokens, std::vector<int>({258}));
    QCOMPARE(model->config().generation.forcedEos, std::vector<int>({0}));
    QCOMPARE(model->config().generation.maxLength, 32);
    // generation_config.json wins over config.json key by key; a key only config.json gives
    // stays; the end token is never banned (NoBadWordsLogitsProcessor drops it).
    QTemporaryDir dir;
    const auto changed = loadModel(marianCopy(
        dir, {{QStringLiteral("max_length"), 7}, {QStringLiteral("bad_words_ids"), QJsonValue()}},
        {{QStringLiteral("bad_words_ids"),
          QJsonArray{QJsonArray{0}, QJsonArray{5}, QJsonArray{6, 7}}}}));
    QCOMPARE(changed->config().generation.maxLength, 7);
    QCOMPARE(changed->config().generation.bannedTokens, std::vector<int>({5}));
    QCOMPARE(changed->config().generation.unappliedBadWords, 1);
    // The end tokens the same way: the fixture's 0 from both files; a list in
    // generation_config.json wins (entries that are not numbers passed over); config.json's
    // stands where generation_config.json names none.
    QCOMPARE(eosTokenIds(*model), std::vector<int>({0}));
    QTemporaryDir listed;
    const auto ends = loadModel(marianCopy(
        listed, {{QStringLiteral("eos_token_id"), QJsonArray{5, QStringLiteral("x"), 7}}}));
    QCOMPARE(eosTokenIds(*ends), std::vector<int>({5, 7}));
    QTemporaryDir configOnly;
    const auto fromConfig =
        loadModel(marianCopy(configOnly, {{QStringLiteral("eos_token_id"), QJsonValue()}},
                             {{QStringLiteral("eos_token_id"), 9}}));
    QCOMPARE(eosTokenIds(*fromConfig), std::vector<int>({9}));
    // The decoder start token too (the fixture's 258 in config.json).
    QCOMPARE(model->config().decoderStartToken, 258);
    QTemporaryDir start;
    const auto started =
        loadModel(marianCopy(start, {{QStringLiteral("decoder_start_token_id"), 5}}));
    QCOMPARE(started->config().decoderStartToken, 5);
}

void TestEncoderDecoderSteps::bannedTokenIsNotChosen()
{
    // Greedy's first word is 36 (expected_seq2seq.json); banned, the next-best 19 is chosen.
    QTemporaryDir dir;
    const auto model = loadModel(marianCopy(
        dir, {{QStringLiteral("bad_words_ids"), QJsonArray{QJsonArray{36}, QJsonArray{258}}}}));
    CpuBackend backend;
    const GreedyDecoding decoding = decodeGreedily(model, source(), 2, {}, backend);
    QCOMPARE(decoding.generated.front(), 19);
    const RowVector& logits = decoding.steps.front().result->predictions.back().logits;
    for (Eigen::Index v = 0; v < logits.size(); ++v)
        if (v != 36 && v != 19)
            QVERIFY(logits(v) < logits(19));
    QVERIFY(logits(36) > logits(19));
    const BeamDecoding beams = decodeWithBeams(model, source(), 2, 2, {}, backend);
    QCOMPARE(beams.search.best.ids.front(), 19);
}

void TestEncoderDecoderSteps::forcedEndTokenAtTheCap()
{
    // forced_eos_token_id 0: the last step allowed writes the end token, where the model alone
    // writes 36 (kGenerated), greedily and with beams.
    const auto model = loadModel(attn::test::modelFixture(QStringLiteral("marian")));
    CpuBackend backend;
    QCOMPARE(decodeGreedily(model, source(), 3, {}, backend).generated,
             std::vector<int>({36, 36, 0}));
    QCOMPARE(decodeGreedily(model, source(), 1, {}, backend).generated, std::vector<int>({0}));
    const BeamDecoding beams = decodeWithBeams(model, source(), 3, 2, {}, backend);
    QCOMPARE(beams.search.best.ids.back(), 0);
    QCOMPARE(beams.search.best.ids.size(), std::size_t(3));
}

void TestEncoderDecoderSteps::malformedGenerationSettingsAreNamed_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("message");
    const QString badWords = QStringLiteral("bad_words_ids");
    QTest::newRow("not a list of lists")
        << badWords << QJsonValue(QJsonArray{258})
        << "generation_config.json: bad_words_ids[0]: expected a non-empty list of token ids, "
           "got 258";
    QTest::newRow("empty") << badWords << QJsonValue(QJsonArray{})
                           << "generation_config.json: bad_words_ids: an empty list; a list of "
                              "lists of token ids is needed";
    QTest::newRow("a number") << badWords << QJsonValue(258)
                              << "generation_config.json: bad_words_ids: expected a list of "
                                 "lists of token ids, got 258";
    QTest::newRow("outside the vocabulary")
        << badWords << QJsonValue(QJsonArray{QJsonArray{259}})
        << "generation_config.json: bad_words_ids[0][0]: expected a token id from 0 to 258, got "
           "259";
    // A length past the limit is said with the limit, and as written (not 2e+09).
    const QString maxLength = QStringLiteral("max_length");
    QTest::newRow("max_length too long")
        << maxLength << QJsonValue(2000000000.0)
        << "generation_config.json: max_length: expected a whole number of tokens from 1 to "
           "1000000, got 2000000000";
    QTest::newRow("max_length 0") << maxLength << QJsonValue(0)
                                  << "generation_config.json: max_length: expected a whole "
                                     "number of tokens from 1 to 1000000, got 0";
    QTest::newRow("decoder start outside the vocabulary")
        << QStringLiteral("decoder_start_token_id") << QJsonValue(99999)
        << "generation_config.json: decoder_start_token_id: expected a token id from 0 to 258, "
           "got 99999";
    QTest::newRow("max_length 2.5") << maxLength << QJsonValue(2.5)
                                    << "generation_config.json: max_length: expected a whole "
                                       "number of tokens from 1 to 1000000, got 2.5";
}

void TestEncoderDecoderSteps::malformedGenerationSettingsAreNamed()
{
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString folder = marianCopy(dir, {{key, value}});
    try {
        loadModel(folder);
        QFAIL("loaded");
    } catch (const Error& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
    }
}

void TestEncoderDecoderSteps::decoderStartOutsideTheVocabularyIsNamed()
{
    // config.json's id is checked with the rest of config.json, not when the decoder first
    // looks it up in the embedding.
    QTemporaryDir dir;
    const QString folder =
        marianCopy(dir, {{QStringLiteral("decoder_start_token_id"), QJsonValue()}},
                   {{QStringLiteral("decoder_start_token_id"), 99999}});
    try {
        loadModel(folder);
        QFAIL("loaded");
    } catch (const Error& e) {
        QVERIFY2(QString::fromStdString(e.what()).contains(
                     "config.json: decoder_start_token_id: expected a token id from 0 "
                     "to 258, got 99999"),
                 e.what());
    }
}

QTEST_GUILESS_MAIN(TestEncoderDecoderSteps)
#include "tst_encdec_steps.moc"
