// The encoder-decoder forward (BART, Marian) on the tiny checkpoints tests/data/models/bart and
// marian, against expected_seq2seq.json: a float64 NumPy forward written from modeling_bart and
// modeling_marian (reference.py), confirmed by PyTorch (torch_check.py), as
// make_tiny_models.py records.

#include "core/cpu_backend.h"
#include "core/error.h"
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
    void sourceIsTokenizedAsBartDoes();
    void forwardMatchesReference_data();
    void forwardMatchesReference();
    void greedyDecodingMatchesReference_data() { forwardMatchesReference_data(); }
    void greedyDecodingMatchesReference();
    void runModelDecodesOneStep();
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
    const auto model = fixture(folder);
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
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("value");
    QTest::addColumn<QString>("message");
    // A config that promises a third encoder layer, or a wider decoder feed-forward than stored.
    QTest::newRow("missing")
        << "encoder_layers" << 3
        << "model.safetensors: model.encoder.layers.2.self_attn_layer_norm.weight: missing";
    QTest::newRow("misshapen")
        << "decoder_ffn_dim" << 50
        << "model.safetensors: model.decoder.layers.0.fc1.weight: expected 50x16, got 48x16";
}

void TestEncoderDecoder::missingOrMisshapenTensorIsNamed()
{
    QFETCH(QString, key);
    QFETCH(int, value);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString folder =
        rawst::copyFixture(QStringLiteral("bart"), dir.filePath(QStringLiteral("m")));
    QFile file(QDir(folder).filePath(QStringLiteral("config.json")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject config = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    config[key] = value;
    rawst::writeAll(file.fileName(), QJsonDocument(config).toJson());
    try {
        loadModel(folder);
        QFAIL("loaded");
    } catch (const Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
    }
}

QTEST_GUILESS_MAIN(TestEncoderDecoder)
#include "tst_encoder_decoder.moc"
