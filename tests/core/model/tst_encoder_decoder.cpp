// The encoder-decoder forward (BART, Marian, T5) on the tiny checkpoints tests/data/models/bart,
// marian, t5 and flan-t5, against expected_seq2seq.json: a float64 NumPy forward written from
// modeling_bart and modeling_marian (reference.py), confirmed by PyTorch (torch_check.py), as
// make_tiny_models.py records; T5's written from the paper and modeling_t5's math
// (make_t5_models.py, confirmed by PyTorch there).

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/model/decoding_memory.h"
#include "core/model/encoder_decoder.h"
#include "core/model/model_loader.h"
#include "support/model_fixtures.h"
#include "support/raw_safetensors.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace attn::core;
using attn::test::matrixOf;
using attn::test::maxDifference;

namespace {

// float32 against float64: torch in float32 differs from the reference by 7e-7 on attention
// and 1.1e-6 (relative) on logits here.
constexpr double kAttentionTolerance = 1e-5;
constexpr double kRelativeTolerance = 2e-5;

QString folderOf(const QString& name)
{
    return attn::test::modelFixturesDir() + QLatin1Char('/') + name;
}

std::shared_ptr<const Model> fixture(const QString& name)
{
    static std::map<QString, std::shared_ptr<const Model>> loaded;
    auto& model = loaded[name];
    if (!model)
        model = loadModel(folderOf(name));
    return model;
}

std::shared_ptr<const Model> bart()
{
    return fixture(QStringLiteral("bart"));
}

QJsonObject expected(const QString& name = QStringLiteral("bart"))
{
    QFile file(folderOf(name) + QStringLiteral("/expected_seq2seq.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

std::vector<int> idsOf(const QJsonValue& array)
{
    std::vector<int> ids;
    for (const QJsonValue v : array.toArray())
        ids.push_back(v.toInt());
    return ids;
}

// Each layer's heads against the reference's [layer][head][query][key].
void compareAttention(const std::vector<std::shared_ptr<const AttentionResult>>& layers,
                      const QJsonValue& want, int heads, const char* what)
{
    const QJsonArray layersWanted = want.toArray();
    QCOMPARE(int(layers.size()), int(layersWanted.size()));
    for (std::size_t l = 0; l < layers.size(); ++l) {
        QCOMPARE(int(layers[l]->heads.size()), heads);
        for (int h = 0; h < heads; ++h) {
            const double difference = maxDifference(layers[l]->heads[std::size_t(h)].weights,
                                                    matrixOf(layersWanted[int(l)][h]));
            if (!(difference < kAttentionTolerance))
                QFAIL(qPrintable(QStringLiteral("%1 layer %2 head %3 differs by %4")
                                     .arg(what)
                                     .arg(l + 1)
                                     .arg(h + 1)
                                     .arg(difference)));
        }
    }
}

} // namespace

class TestEncoderDecoder : public QObject
{
    Q_OBJECT

private slots:
    void configReadsBothSides();
    void marianConfig();
    void marianPositionsAreSinusoidalHalves();
    void t5Config();
    void flanT5Config();
    void relativePositionBuckets_data();
    void relativePositionBuckets();
    void bucketsMatchTheReference_data();
    void bucketsMatchTheReference();
    void t5BiasIsSharedByTheStack();
    void t5SourceIsTokenizedAsTheLibraryDoes_data() { bucketsMatchTheReference_data(); }
    void t5SourceIsTokenizedAsTheLibraryDoes();
    void sourceIsTokenizedAsBartDoes();
    void forwardMatchesReference_data();
    void forwardMatchesReference();
    void greedyDecodingMatchesReference_data() { forwardMatchesReference_data(); }
    void greedyDecodingMatchesReference();
    void runModelDecodesOneStep();
    void decodingMemoryByHand();
    void decodingThatCannotFitIsRefused();
    void missingOrMisshapenTensorIsNamed_data();
    void missingOrMisshapenTensorIsNamed();
};

void TestEncoderDecoder::configReadsBothSides()
{
    const ModelConfig& c = bart()->config();
    QCOMPARE(QString(toString(c.family).data()), QStringLiteral("bart"));
    QVERIFY(c.encoderDecoder());
    QCOMPARE(c.encoderLayers, 2);
    QCOMPARE(c.encoderHeads, 4);
    QCOMPARE(c.encoderFeedForward, 40);
    QCOMPARE(c.layers, 3);
    QCOMPARE(c.heads, 2);
    QCOMPARE(c.dFeedForward, 48);
    QCOMPARE(c.dModel, 16);
    QCOMPARE(c.vocab, 261); // 4 specials, 256 bytes, <mask>
    QCOMPARE(c.positionOffset, 2);
    QCOMPARE(c.decoderStartToken, 2);
    QCOMPARE(c.eosToken, 2);
    QCOMPARE(c.placement, NormPlacement::Post);
    QCOMPARE(c.objective, Objective::CausalLm);
    // By hand: final_logits_bias 261; shared 261 x 16 = 4176; two position tables 2 x 34 x 16
    // = 1088; two embedding norms 64; an encoder layer 4 x (256 + 16) + 2 x 32 + (640 + 40) +
    // (640 + 16) = 2488, twice; a decoder layer 2 x 1088 + 3 x 32 + (768 + 48) + (768 + 16) =
    // 3872, three times: 22181, every value in model.safetensors.
    QCOMPARE(c.parameterCount(), 22181LL);
    const TransformerWeights& w = bart()->weights;
    QCOMPARE(int(w.encoderLayers.size()), 2);
    QCOMPARE(w.encoderLayers[0].attention->headCount(), 4);
    QCOMPARE(w.layers[2].crossAttention->headCount(), 2);
    QCOMPARE(int(w.lmBias.size()), 261);
}

void TestEncoderDecoder::marianConfig()
{
    const auto marian = fixture(QStringLiteral("marian"));
    const ModelConfig& c = marian->config();
    QCOMPARE(QString(toString(c.family).data()), QStringLiteral("marian"));
    QCOMPARE(c.architecture, QStringLiteral("MarianMTModel"));
    QCOMPARE(c.objective, Objective::CausalLm);
    QCOMPARE(c.encoderLayers, 2);
    QCOMPARE(c.encoderHeads, 2);
    QCOMPARE(c.heads, 4);
    QCOMPARE(c.positionOffset, 0);
    QCOMPARE(c.embeddingScale, 4.0f); // sqrt(16)
    QVERIFY(c.activation == Activation::Silu);
    QCOMPARE(c.decoderStartToken, 258); // <pad>, the last id
    QCOMPARE(c.eosToken, 0);
    QVERIFY(!marian->weights.embeddingNorm.present());
    QVERIFY(!marian->weights.encoderEmbeddingNorm.present());
    // By hand: final_logits_bias 259; shared 259 x 16 = 4144; the stored position tables 2 x 32
    // x 16 = 1024; no embedding norms; encoder layers 2 x 2488; decoder layers 2 x 3872: 18147.
    QCOMPARE(c.parameterCount(), 18147LL);
}

void TestEncoderDecoder::marianPositionsAreSinusoidalHalves()
{
    // d = 16: column i < 8 is sin(p / 10000^(2i/16)), column 8 + i cos of the same angle.
    const Matrix& table = fixture(QStringLiteral("marian"))->weights.positionEmbedding;
    QCOMPARE(table.rows(), Eigen::Index(32));
    QCOMPARE(table(0, 0), 0.0f);
    QCOMPARE(table(0, 8), 1.0f);
    QCOMPARE(table(3, 0), float(std::sin(3.0)));
    QCOMPARE(table(3, 8), float(std::cos(3.0)));
    QCOMPARE(table(5, 1), float(std::sin(5.0 / std::pow(10000.0, 2.0 / 16.0))));
    QCOMPARE(table(5, 9), float(std::cos(5.0 / std::pow(10000.0, 2.0 / 16.0))));
}

void TestEncoderDecoder::forwardMatchesReference_data()
{
    QTest::addColumn<QString>("folder");
    QTest::newRow("bart") << "bart";
    QTest::newRow("marian") << "marian";
    QTest::newRow("t5") << "t5";
    QTest::newRow("flan-t5") << "flan-t5";
}

void TestEncoderDecoder::t5Config()
{
    const auto t5 = fixture(QStringLiteral("t5"));
    const ModelConfig& c = t5->config();
    QCOMPARE(QString(toString(c.family).data()), QStringLiteral("t5"));
    QCOMPARE(c.architecture, QStringLiteral("T5ForConditionalGeneration"));
    QCOMPARE(c.objective, Objective::CausalLm);
    QCOMPARE(c.encoderLayers, 2);
    QCOMPARE(c.layers, 3);
    QCOMPARE(c.heads, 4);
    QCOMPARE(c.encoderHeads, 4);
    QCOMPARE(c.dHead, 4);
    QCOMPARE(c.dFeedForward, 32);
    QCOMPARE(c.vocab, 64);
    QVERIFY(c.positions == PositionKind::RelativeBias);
    QCOMPARE(c.relativeBuckets, 8);
    QCOMPARE(c.relativeMaxDistance, 16);
    QVERIFY(!c.scaledScores);
    QVERIFY(c.norm == NormKind::RmsNorm);
    QCOMPARE(c.placement, NormPlacement::Pre);
    QCOMPARE(c.normEps, 1e-6f);
    QVERIFY(c.feedForward == FeedForwardKind::Plain);
    QVERIFY(c.activation == Activation::Relu);
    QVERIFY(c.tiedEmbeddings);
    QCOMPARE(c.headInputScale, 0.25f); // 16^-0.5
    QCOMPARE(c.decoderStartToken, 0);
    QCOMPARE(c.eosToken, 1);
    // By hand: shared 64 x 16 = 1024; two bias tables 2 x 8 x 4 = 64; two final norms 32; an
    // encoder layer 4 x 16 x 16 + 2 x 16 x 32 + 2 x 16 = 2080, twice; a decoder layer 2080 +
    // 1024 + 16 = 3120, three times: 14640, what model.safetensors holds but the 32 values of
    // the EncDecAttention table transformers ignores.
    QCOMPARE(c.parameterCount(), 14640LL);
    const TransformerWeights& w = t5->weights;
    QCOMPARE(w.encoderRelativeBias.rows(), Eigen::Index(8));
    QCOMPARE(w.relativeBias.cols(), Eigen::Index(4));
    QCOMPARE(w.lmHead.size(), Eigen::Index(0)); // tied
    QVERIFY(w.encoderFinalNorm.present());
    QVERIFY(w.encoderFinalNorm.kind == NormKind::RmsNorm);
    QCOMPARE(w.encoderFinalNorm.bias.size(), Eigen::Index(0));
    QCOMPARE(w.encoderPositionEmbedding.size(), Eigen::Index(0));
    QVERIFY(!w.layers[0].attention->heads[0].bq.size());
}

void TestEncoderDecoder::flanT5Config()
{
    const auto flan = fixture(QStringLiteral("flan-t5"));
    const ModelConfig& c = flan->config();
    QCOMPARE(c.heads, 3);
    QCOMPARE(c.dHead, 6); // d_kv: 3 x 6 = 18, not d_model 16
    QVERIFY(c.feedForward == FeedForwardKind::Gated);
    QVERIFY(c.activation == Activation::GeluTanh); // gated-gelu means gelu_new
    QVERIFY(!c.tiedEmbeddings);
    QCOMPARE(c.headInputScale, 1.0f);
    // By hand: shared and lm_head 2 x 48 x 16 = 1536; bias tables 2 x 8 x 3 = 48; final norms
    // 32; an encoder layer 4 x 16 x 18 + 3 x 16 x 24 + 32 = 2336, twice; a decoder layer 2336
    // + 1152 + 16 = 3504, twice: 13296, every value in model.safetensors.
    QCOMPARE(c.parameterCount(), 13296LL);
    const TransformerWeights& w = flan->weights;
    QCOMPARE(w.lmHead.rows(), Eigen::Index(48));
    QVERIFY(w.layers[1].feedForward.gate.present());
    QCOMPARE(w.layers[1].crossAttention->Wo.rows(), Eigen::Index(18));
}

void TestEncoderDecoder::relativePositionBuckets_data()
{
    QTest::addColumn<int>("relative"); // j - i
    QTest::addColumn<bool>("bidirectional");
    QTest::addColumn<int>("buckets");
    QTest::addColumn<int>("maxDistance");
    QTest::addColumn<int>("bucket");
    // The tiny checkpoints' 8 buckets, max distance 16. Encoder: 4 per direction, distances 0
    // and 1 exact, then 2 + log(d / 2) / log(8) x 2 truncated, at most 3; keys after the query
    // from bucket 4 on.
    QTest::newRow("8/16 enc 0") << 0 << true << 8 << 16 << 0;
    QTest::newRow("8/16 enc -1") << -1 << true << 8 << 16 << 1;
    QTest::newRow("8/16 enc +1") << 1 << true << 8 << 16 << 5;
    QTest::newRow("8/16 enc -4") << -4 << true << 8 << 16 << 2;   // 2 + 0.67
    QTest::newRow("8/16 enc -8") << -8 << true << 8 << 16 << 3;   // 2 + 1.33
    QTest::newRow("8/16 enc +8") << 8 << true << 8 << 16 << 7;    // 4 + 3
    QTest::newRow("8/16 enc -99") << -99 << true << 8 << 16 << 3; // 2 + 3.75, the last
    // Decoder: 8 buckets for keys before the query (later keys, masked, share bucket 0);
    // distances 0-3 exact, then 4 + log(d / 4) / log(4) x 4.
    QTest::newRow("8/16 dec +3") << 3 << false << 8 << 16 << 0;
    QTest::newRow("8/16 dec -3") << -3 << false << 8 << 16 << 3;
    QTest::newRow("8/16 dec -5") << -5 << false << 8 << 16 << 4;   // 4 + 0.64
    QTest::newRow("8/16 dec -8") << -8 << false << 8 << 16 << 6;   // 4 + 2.0 exactly
    QTest::newRow("8/16 dec -16") << -16 << false << 8 << 16 << 7; // 4 + 4, the last
    // t5-small's 32 buckets, max distance 128, at the edges where the float32 logarithm
    // decides (the values torch's own formula gives, make_t5_models.py): 8 + log(d / 8) /
    // log(16) x 8 is exactly 2, 4, 6 at d = 16, 32, 64.
    QTest::newRow("32/128 enc -15") << -15 << true << 32 << 128 << 9;
    QTest::newRow("32/128 enc -16") << -16 << true << 32 << 128 << 10;
    QTest::newRow("32/128 enc -31") << -31 << true << 32 << 128 << 11;
    QTest::newRow("32/128 enc -32") << -32 << true << 32 << 128 << 12;
    QTest::newRow("32/128 enc -63") << -63 << true << 32 << 128 << 13;
    QTest::newRow("32/128 enc -64") << -64 << true << 32 << 128 << 14;
    QTest::newRow("32/128 enc +64") << 64 << true << 32 << 128 << 30;
    QTest::newRow("32/128 enc +200") << 200 << true << 32 << 128 << 31;
    QTest::newRow("32/128 dec -15") << -15 << false << 32 << 128 << 15;
    QTest::newRow("32/128 dec -16") << -16 << false << 32 << 128 << 16;
    QTest::newRow("32/128 dec -64") << -64 << false << 32 << 128 << 26;
    QTest::newRow("32/128 dec -127") << -127 << false << 32 << 128 << 31;
}

void TestEncoderDecoder::relativePositionBuckets()
{
    QFETCH(int, relative);
    QFETCH(bool, bidirectional);
    QFETCH(int, buckets);
    QFETCH(int, maxDistance);
    QFETCH(int, bucket);
    QCOMPARE(relativePositionBucket(relative, bidirectional, buckets, maxDistance), bucket);
}

void TestEncoderDecoder::bucketsMatchTheReference_data()
{
    QTest::addColumn<QString>("folder");
    QTest::newRow("t5") << "t5";
    QTest::newRow("flan-t5") << "flan-t5";
}

// Every j - i in [-40, 40], both directions, as make_t5_models.py computed them (its NumPy
// formula equals torch's on [-300, 300]).
void TestEncoderDecoder::bucketsMatchTheReference()
{
    QFETCH(QString, folder);
    const ModelConfig& c = fixture(folder)->config();
    const QJsonObject b = expected(folder)[QLatin1String("buckets")].toObject();
    const int first = b[QLatin1String("relative_from")].toInt();
    for (const bool bidirectional : {true, false}) {
        const std::vector<int> want =
            idsOf(b[QLatin1String(bidirectional ? "bidirectional" : "unidirectional")]);
        QCOMPARE(int(want.size()), 81);
        for (int k = 0; k < int(want.size()); ++k)
            QCOMPARE(relativePositionBucket(first + k, bidirectional, c.relativeBuckets,
                                            c.relativeMaxDistance),
                     want[std::size_t(k)]);
    }
}

// The first layer's table serves every layer of its stack: each encoder layer's problem has the
// same bias, (i, j) of head h = table(bucket(j - i), h); the cross-attention has none, and no
// score is divided by sqrt(d_kv).
void TestEncoderDecoder::t5BiasIsSharedByTheStack()
{
    const auto t5 = fixture(QStringLiteral("t5"));
    const QJsonObject e = expected(QStringLiteral("t5"));
    const std::vector<Token> source = decoderTokens(*t5, idsOf(e[QLatin1String("source_ids")]));
    const std::vector<Token> target = decoderTokens(*t5, idsOf(e[QLatin1String("target_ids")]));
    CpuBackend backend;
    const auto result = runEncoderDecoder(t5, source, target, {}, backend);
    const Matrix& table = t5->weights.encoderRelativeBias;
    const int t = int(source.size());
    const auto& first = result->encoderLayers[0]->problem->scoreBias;
    QVERIFY(first);
    QCOMPARE(result->encoderLayers[1]->problem->scoreBias, first);
    QCOMPARE((*first)(2 * t + 1, 3), table(6, 2)); // head 2, j - i = 2: bucket 4 + 2
    QCOMPARE((*first)(3 * t + 6, 0), table(3, 3)); // head 3, j - i = -6: bucket 2 + 1
    const Matrix& decoderTable = t5->weights.relativeBias;
    const int n = int(target.size());
    const auto& decoderBias = result->layers[2]->problem->scoreBias;
    QCOMPARE(decoderBias, result->layers[0]->problem->scoreBias);
    QCOMPARE((*decoderBias)(1 * n + 8, 0), decoderTable(6, 1)); // j - i = -8: bucket 6
    QVERIFY(!result->crossLayers[0]->problem->scoreBias);
    QVERIFY(result->layers[0]->problem->score == ScoreKind::Dot);
    QVERIFY(result->crossLayers[1]->problem->score == ScoreKind::Dot);
    QVERIFY(result->encoderLayers[0]->problem->score == ScoreKind::Dot);
}

// The Unigram tokenizer.json of the tiny T5 folders: the ids the tokenizers npm library gave
// make_t5_models.py ("▁Hi", "▁cat", ",", "▁the", ... then </s>). Every folder's source_text.
void TestEncoderDecoder::t5SourceIsTokenizedAsTheLibraryDoes()
{
    QFETCH(QString, folder);
    const QJsonObject e = expected(folder);
    std::vector<int> ids;
    for (const Token& t : modelTokens(*fixture(folder), e[QLatin1String("source_text")].toString()))
        ids.push_back(t.id);
    QCOMPARE(ids, idsOf(e[QLatin1String("source_ids")]));
}

void TestEncoderDecoder::sourceIsTokenizedAsBartDoes()
{
    // <s> H i Ġ c a t </s>: a byte-level vocabulary without merges, one token per byte.
    const std::vector<Token> tokens = modelTokens(*bart(), QStringLiteral("Hi cat"));
    std::vector<int> ids;
    for (const Token& t : tokens)
        ids.push_back(t.id);
    QCOMPARE(ids, idsOf(expected()[QLatin1String("source_ids")]));
}

void TestEncoderDecoder::forwardMatchesReference()
{
    QFETCH(QString, folder);
    const auto model = fixture(folder);
    const QJsonObject e = expected(folder);
    const QJsonObject c = e[QLatin1String("cases")].toArray()[0].toObject();
    // The ids as the reference tokenized the source (Marian's own tokenizer is SentencePiece).
    const std::vector<Token> source = decoderTokens(*model, idsOf(e[QLatin1String("source_ids")]));
    const std::vector<Token> target = decoderTokens(*model, idsOf(e[QLatin1String("target_ids")]));
    CpuBackend backend;
    const auto result = runEncoderDecoder(model, source, target, {}, backend);
    const int encoderHeads = model->config().encoderHeads;
    const int heads = model->config().heads;
    compareAttention(result->encoderLayers, c[QLatin1String("encoder_attention")], encoderHeads,
                     "encoder");
    compareAttention(result->layers, c[QLatin1String("decoder_attention")], heads, "decoder");
    compareAttention(result->crossLayers, c[QLatin1String("cross_attention")], heads, "cross");
    // Cross-attention: target positions x source positions.
    QCOMPARE(result->crossLayers[0]->heads[0].weights.rows(), Eigen::Index(target.size()));
    QCOMPARE(result->crossLayers[0]->heads[0].weights.cols(), Eigen::Index(source.size()));
    QVERIFY(maxDifference(result->finalHidden, matrixOf(c[QLatin1String("hidden_last")])) < 1e-4);
    const RowVector want = attn::test::rowOf(c[QLatin1String("logits_last")]);
    QCOMPARE(result->predictions.size(), std::size_t(1));
    QCOMPARE(result->predictions[0].position, int(target.size()) - 1);
    const double scale = double(want.cwiseAbs().maxCoeff());
    QVERIFY(maxDifference(result->predictions[0].logits, want) / scale < kRelativeTolerance);
}

void TestEncoderDecoder::greedyDecodingMatchesReference()
{
    QFETCH(QString, folder);
    // The reference decodes without transformers' logits processors (Marian's forced end token).
    auto copy = std::make_shared<Model>(*fixture(folder));
    copy->weights.config.generation = {};
    const std::shared_ptr<const Model> model = copy;
    const QJsonObject e = expected(folder);
    const std::vector<Token> source = decoderTokens(*model, idsOf(e[QLatin1String("source_ids")]));
    CpuBackend backend;
    const GreedyDecoding decoding =
        decodeGreedily(model, source, e[QLatin1String("max_new_tokens")].toInt(), {}, backend);
    QCOMPARE(decoding.generated, idsOf(e[QLatin1String("generated")]));
    std::vector<int> target;
    for (const Token& t : decoding.result->tokens)
        target.push_back(t.id);
    QCOMPARE(target, idsOf(e[QLatin1String("target_ids")]));
    QCOMPARE(decoding.result->layerCount(), model->config().layers);

    // Two new tokens at most: the first two of the reference's.
    const GreedyDecoding shortDecoding = decodeGreedily(model, source, 2, {}, backend);
    const std::vector<int> all = idsOf(e[QLatin1String("generated")]);
    QCOMPARE(shortDecoding.generated, std::vector<int>(all.begin(), all.begin() + 2));
}

void TestEncoderDecoder::runModelDecodesOneStep()
{
    // What the window and --dump without --generate run: the text as the source, the decoder
    // over its start token alone.
    const std::vector<Token> source = modelTokens(*bart(), QStringLiteral("Hi cat"));
    CpuBackend backend;
    const auto result = runModel(bart(), source, {}, backend);
    QCOMPARE(result->layerCount(), 3);
    QCOMPARE(int(result->encoderLayers.size()), 2);
    QCOMPARE(int(result->crossLayers.size()), 3);
    QCOMPARE(result->tokens.size(), std::size_t(1));
    QCOMPARE(result->tokens[0].id, 2);
    QCOMPARE(result->sourceTokens, source);
    QVERIFY(result->milliseconds > 0.0); // what the window and the dump report
    // The first greedy token is the most likely one after the start token.
    QCOMPARE(result->predictions.at(0).top.at(0).id,
             idsOf(expected()[QLatin1String("generated")]).front());
}

void TestEncoderDecoder::missingOrMisshapenTensorIsNamed_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("message");
    // A config that promises a third encoder layer, or a wider decoder feed-forward than stored.
    QTest::newRow("missing")
        << "bart"
        << "encoder_layers" << QJsonValue(3)
        << "model.safetensors: model.encoder.layers.2.self_attn_layer_norm.weight: missing";
    QTest::newRow("misshapen")
        << "bart"
        << "decoder_ffn_dim" << QJsonValue(50)
        << "model.safetensors: model.decoder.layers.0.fc1.weight: expected 50x16, got 48x16";
    // T5: a bias table of another number of buckets, a v1.0 checkpoint read as gated, an
    // untied head that is not there, a feed-forward kind T5Config does not know.
    QTest::newRow("t5 bias table")
        << "t5"
        << "relative_attention_num_buckets" << QJsonValue(10)
        << "model.safetensors: encoder.block.0.layer.0.SelfAttention.relative_attention_bias."
           "weight: expected 10x4, got 8x4";
    QTest::newRow("t5 gated")
        << "t5"
        << "feed_forward_proj" << QJsonValue(QStringLiteral("gated-gelu"))
        << "model.safetensors: encoder.block.0.layer.1.DenseReluDense.wi_0.weight: missing";
    QTest::newRow("t5 untied") << "t5"
                               << "tie_word_embeddings" << QJsonValue(false)
                               << "model.safetensors: lm_head.weight: missing";
    QTest::newRow("t5 feed_forward_proj")
        << "flan-t5"
        << "feed_forward_proj" << QJsonValue(QStringLiteral("gated-foo"))
        << "config.json: feed_forward_proj: 'gated-foo' is not supported (relu, gated-gelu";
    QTest::newRow("t5 three parts")
        << "flan-t5"
        << "feed_forward_proj" << QJsonValue(QStringLiteral("gated-gelu-new"))
        << "config.json: feed_forward_proj: 'gated-gelu-new' is not supported";
    QTest::newRow("t5 buckets")
        << "t5"
        << "relative_attention_num_buckets" << QJsonValue(2)
        << "config.json: relative_attention_num_buckets: must be at least 4, got 2";
    QTest::newRow("t5 max distance")
        << "t5"
        << "relative_attention_max_distance" << QJsonValue(4)
        << "config.json: relative_attention_max_distance: must be more than half of "
           "relative_attention_num_buckets (4), got 4";
}

void TestEncoderDecoder::missingOrMisshapenTensorIsNamed()
{
    QFETCH(QString, folder);
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString copy = rawst::copyFixture(folder, dir.filePath(QStringLiteral("m")));
    QFile file(QDir(copy).filePath(QStringLiteral("config.json")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject config = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    config[key] = value;
    rawst::writeAll(file.fileName(), QJsonDocument(config).toJson());
    try {
        loadModel(copy);
        QFAIL("loaded");
    } catch (const Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
}

void TestEncoderDecoder::decodingMemoryByHand()
{
    // tests/data/models/t5: 3 decoder layers, 4 heads of d_kv 4, d_model 16, vocabulary 64; 3
    // source tokens, 2 new tokens.
    const ModelConfig& c = fixture(QStringLiteral("t5"))->config();
    // The cross-attention's keys and values: 3 x 4 x 2 x 3 x 4 = 288 floats. One hypothesis'
    // self-attention keys and values at 2 tokens: 3 x 4 x 2 x 2 x 4 = 192.
    // A step's forward over t rows: per layer, 4 heads x (4 t 4 + t^2) + 4 heads x (2 t 4 +
    // 2 x 3 x 4 + 3 t) + 4 t 16 = 4 t^2 + 172 t + 96; 3 layers, the relative position bias
    // (4 heads x t x t), (3 + 2) t 16 hidden rows and 64 logits: 16 t^2 + 596 t + 352, for
    // t = 1, 2, 3 (the final forward): 964 + 1608 + 2284 = 4856. Greedy: (288 + 192 + 4856) x 4
    // bytes = 21344.
    QCOMPARE(decodingMemory(c, 3, 2, 1), std::int64_t(21344));
    // 16 beams: the search holds 32 hypotheses' keys and values and 16 x 64 candidates of 36
    // bytes: (288 + 32 x 192) x 4 + 36864 = 62592, more than the steps' 21344.
    QCOMPARE(decodingMemory(c, 3, 2, 16), std::int64_t(62592));
    // 2 beams: (288 + 4 x 192) x 4 + 2 x 64 x 36 = 8832, less than the steps'.
    QCOMPARE(decodingMemory(c, 3, 2, 2), std::int64_t(21344));
    // The decoder start token takes one of T5's 512 positions.
    QCOMPARE(decodedLength(c, 100000), 511);
    QCOMPARE(decodedLength(c, 40), 40);
}

void TestEncoderDecoder::decodingThatCannotFitIsRefused()
{
    const auto t5 = fixture(QStringLiteral("t5"));
    // 21344 bytes do not fit in 21343; 1 token (by hand as above: 288 + 96 + 964 + 1608 floats,
    // 11824 bytes) does.
    try {
        checkDecodingMemory(t5->config(), 3, 2, 1, {21343, "a test's budget"}, "--generate: ");
        QFAIL("no error");
    } catch (const Error& e) {
        QCOMPARE(QString::fromUtf8(e.what()),
                 QStringLiteral("--generate: decoding 2 tokens greedily needs 0.0 MiB for the "
                                "decoder's keys, values and attention weights; 0.0 MiB is "
                                "available (a test's budget): at most 1 token fits greedily"));
    }
    checkDecodingMemory(t5->config(), 3, 2, 1, {21344, "a test's budget"});
    checkDecodingMemory(t5->config(), 3, 2, 1, {-1, ""}); // unknown: not checked
    // Decoding itself refuses before the encoder runs.
    qputenv("ATTN_MEMORY_LIMIT_MIB", "1");
    CpuBackend backend;
    const std::vector<Token> source = modelTokens(*t5, QStringLiteral("Hi cat"));
    QVERIFY_THROWS_EXCEPTION(Error, decodeGreedily(t5, source, 511, {}, backend));
    QVERIFY_THROWS_EXCEPTION(Error, decodeWithBeams(t5, source, 511, 16, {}, backend));
    qunsetenv("ATTN_MEMORY_LIMIT_MIB");
}

QTEST_GUILESS_MAIN(TestEncoderDecoder)
#include "tst_encoder_decoder.moc"
