// The model loader: config.json of every family, the fixtures (tests/data/models, written by
// make_tiny_models.py) mapped into TransformerWeights and spot-checked against the raw bytes of
// the files (raw_safetensors.h decodes them independently), every kind of bad folder (missing,
// misshapen or out-of-file tensors, an unknown family, no tokenizer; built by patching a copy of
// a fixture), cancellation and progress, and the Hugging Face cache.
#include "core/error.h"
#include "core/model/checkpoint.h"
#include "core/model/model_config.h"
#include "core/model/model_loader.h"
#include "core/tokenizers/hf_tokenizer.h"
#include "support/raw_safetensors.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <functional>

using namespace attn::core;
using Mutation = std::function<void(const QString& folder)>;
using ConfigCheck = std::function<void(const ModelConfig&)>;

Q_DECLARE_METATYPE(Mutation)
Q_DECLARE_METATYPE(ConfigCheck)

namespace {

void expectError(const std::function<void()>& action, const QString& fragment)
{
    try {
        action();
    } catch (const Error& e) {
        const QString message = QString::fromStdString(e.what());
        QVERIFY2(message.contains(fragment),
                 qPrintable("message: " + message + "\nexpected: " + fragment));
        return;
    }
    QFAIL(qPrintable("no error; expected: " + fragment));
}

QJsonObject readJson(const QString& path)
{
    return QJsonDocument::fromJson(rawst::readAll(path)).object();
}

QJsonObject fixtureConfig(const QString& name)
{
    return readJson(rawst::fixture(name + "/config.json"));
}

QByteArray jsonBytes(const QJsonObject& object)
{
    return QJsonDocument(object).toJson();
}

// config.json of a copied fixture with some keys replaced (a null value removes the key).
Mutation patchConfig(const QJsonObject& changes)
{
    return [changes](const QString& folder) {
        const QString path = QDir(folder).filePath("config.json");
        QJsonObject config = readJson(path);
        for (auto it = changes.begin(); it != changes.end(); ++it) {
            if (it.value().isNull())
                config.remove(it.key());
            else
                config[it.key()] = it.value();
        }
        rawst::writeAll(path, jsonBytes(config));
    };
}

Mutation patchSafetensors(const QString& file, std::function<void(rawst::File&)> edit)
{
    return [file, edit](const QString& folder) {
        rawst::File st = rawst::File::read(QDir(folder).filePath(file));
        edit(st);
        st.write(QDir(folder).filePath(file));
    };
}

Mutation removeTensors(const QStringList& names)
{
    return patchSafetensors("model.safetensors", [names](rawst::File& st) {
        QJsonObject header = st.header();
        for (const QString& name : names)
            header.remove(name);
        st.setHeader(header);
    });
}

Mutation removeFiles(const QStringList& files)
{
    return [files](const QString& folder) {
        for (const QString& file : files)
            QFile::remove(QDir(folder).filePath(file));
    };
}

// The fixture as a loaded model (config, weights and tokenizer), read once per test function.
std::shared_ptr<const Model> load(const QString& name)
{
    return loadModel(rawst::fixture(name));
}

rawst::File rawFile(const QString& fixture, const QString& file = "model.safetensors")
{
    return rawst::File::read(QDir(rawst::fixture(fixture)).filePath(file));
}

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Tensors the loader leaves alone (attention-mask buffers, BERT's pooler and NSP head and its
// position_ids buffer); every other one in the fixture is a parameter.
bool ignoredTensor(const QString& name)
{
    return name == "__metadata__" || name.endsWith(".attn.bias") ||
           name.endsWith(".attn.masked_bias") || name.contains("pooler.") ||
           name.contains("seq_relationship") || name.endsWith("position_ids");
}

const char* const kFixtures[] = {
    "gpt2",   "gpt2-noprefix-f16", "bert",   "distilbert", "llama", "smollm",
    "qwen2",  "mistral",           "pythia", "gemma",      "opt",   "phi",
    "roberta"};

} // namespace

class TestModelLoader : public QObject
{
    Q_OBJECT

private:
    QByteArray m_savedEnvironment[6];
    static constexpr const char* kVariables[6] = {"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE",
                                                  "HF_HOME",      "XDG_CACHE_HOME",
                                                  "HOME",         "ATTN_MEMORY_LIMIT_MIB"};

private slots:
    void initTestCase()
    {
        for (int k = 0; k < 6; ++k)
            m_savedEnvironment[k] = qgetenv(kVariables[k]);
    }
    void cleanup()
    {
        for (int k = 0; k < 6; ++k) {
            if (m_savedEnvironment[k].isNull())
                qunsetenv(kVariables[k]);
            else
                qputenv(kVariables[k], m_savedEnvironment[k]);
        }
    }

    // ---- Every fixture: its config and the shape of its weights ------------------------------

    void fixtureConfigs_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<int>("dFeedForward");
        QTest::addColumn<int>("objective");
        QTest::addColumn<int>("activation");
        QTest::addColumn<bool>("rotary");
        QTest::addColumn<float>("eps");
        QTest::addColumn<bool>("tied");
        QTest::addColumn<int>("biases"); // qkv 4 | output 2 | feed-forward 1
        const int causal = int(Objective::CausalLm), masked = int(Objective::MaskedLm);
        const int tanh = int(Activation::GeluTanh), erf = int(Activation::GeluErf),
                  silu = int(Activation::Silu);
        QTest::newRow("gpt2") << "gpt2" << 64 << causal << tanh << false << 1e-5f << true
                              << 7; // n_inner null: 4d
        QTest::newRow("gpt2-noprefix-f16")
            << "gpt2-noprefix-f16" << 72 << causal << tanh << false << 1e-5f << true << 7;
        QTest::newRow("bert") << "bert" << 48 << masked << erf << false << 1e-12f << true << 7;
        QTest::newRow("distilbert")
            << "distilbert" << 48 << masked << erf << false << 1e-12f << true << 7;
        QTest::newRow("llama") << "llama" << 80 << causal << silu << true << 1e-5f << false << 0;
        QTest::newRow("smollm") << "smollm" << 64 << causal << silu << true << 1e-5f << true << 0;
        QTest::newRow("qwen2") << "qwen2" << 64 << causal << silu << true << 1e-6f << true << 4;
        QTest::newRow("mistral") << "mistral" << 48 << causal << silu << true << 1e-5f << false
                                 << 0;
    }
    void fixtureConfigs()
    {
        QFETCH(QString, fixture);
        QFETCH(int, dFeedForward);
        QFETCH(int, objective);
        QFETCH(int, activation);
        QFETCH(bool, rotary);
        QFETCH(float, eps);
        QFETCH(bool, tied);
        QFETCH(int, biases);
        // What the fixture script wrote about each model, read from its expected.json.
        const QJsonObject expected = readJson(rawst::fixture(fixture + "/expected.json"));
        const auto model = load(fixture);
        const ModelConfig& c = model->config();
        QCOMPARE(QString::fromStdString(std::string(toString(c.family))),
                 expected["family"].toString());
        QCOMPARE(c.modelType, expected["family"].toString());
        QCOMPARE(c.architecture, expected["architecture"].toString());
        QCOMPARE(c.dtype, expected["dtype"].toString());
        QCOMPARE(c.layers, expected["layers"].toInt());
        QCOMPARE(c.heads, expected["heads"].toInt());
        QCOMPARE(c.kvHeads, expected["kv_heads"].toInt());
        QCOMPARE(c.dModel, expected["d_model"].toInt());
        QCOMPARE(c.dHead, expected["d_head"].toInt());
        QCOMPARE(c.vocab, expected["vocab"].toInt());
        QCOMPARE(c.causal, expected["causal"].toBool());
        QCOMPARE(c.dFeedForward, dFeedForward);
        QCOMPARE(int(c.objective), objective);
        QCOMPARE(int(c.activation), activation);
        QCOMPARE(c.positions, rotary ? PositionKind::Rotary : PositionKind::Learned);
        QCOMPARE(int(c.norm), int(rotary ? NormKind::RmsNorm : NormKind::LayerNorm));
        QCOMPARE(c.feedForward, rotary ? FeedForwardKind::Gated : FeedForwardKind::Plain);
        const bool encoder = !c.causal;
        QCOMPARE(c.placement, encoder ? NormPlacement::Post : NormPlacement::Pre);
        QCOMPARE(c.normEps, eps);
        QCOMPARE(c.tiedEmbeddings, tied);
        QCOMPARE(int(c.qkvBias) * 4 + int(c.outputBias) * 2 + int(c.feedForwardBias), biases);
        QCOMPARE(c.tokenTypes, fixture == "bert" ? 2 : 0);
        QCOMPARE(c.slidingWindow.has_value(), fixture == "mistral");
        if (fixture == "mistral")
            QCOMPARE(*c.slidingWindow, 4096);
        QVERIFY(model->tokenizer);
        QCOMPARE(model->tokenizer->vocabSize(), expected["tokenizer_size"].toInt());
        QCOMPARE(model->name, fixture);
        QCOMPARE(loadModel(rawst::fixture(fixture) + "/")->name, fixture);
        QCOMPARE(model->folder, QFileInfo(rawst::fixture(fixture)).absoluteFilePath());
    }

    void weightShapes_data()
    {
        QTest::addColumn<QString>("fixture");
        for (const char* name : kFixtures)
            QTest::newRow(name) << QString(name);
    }
    void weightShapes()
    {
        QFETCH(QString, fixture);
        const auto model = load(fixture);
        const TransformerWeights& w = model->weights;
        const ModelConfig& c = w.config;
        const bool rotary = c.positions == PositionKind::Rotary;
        const bool encoder = c.placement == NormPlacement::Post;
        QCOMPARE(w.tokenEmbedding.rows(), c.vocab);
        QCOMPARE(w.tokenEmbedding.cols(), c.dModel);
        QCOMPARE(w.positionEmbedding.rows(), rotary ? 0 : c.maxPositions);
        QCOMPARE(w.tokenTypeEmbedding.rows(), c.tokenTypes);
        QCOMPARE(w.embeddingNorm.present(), encoder);
        QCOMPARE(w.finalNorm.present(), !encoder);
        QCOMPARE(int(w.layers.size()), c.layers);
        for (const TransformerLayer& layer : w.layers) {
            QVERIFY(layer.attention);
            const ModelWeights& a = *layer.attention;
            a.validate();
            QCOMPARE(a.headCount(), c.heads);
            QCOMPARE(a.dModel, c.dModel);
            QCOMPARE(a.dK, c.dHead);
            QCOMPARE(a.dV, c.dHead);
            QCOMPARE(a.Wo.rows(), c.heads * c.dHead);
            QCOMPARE(a.Wo.cols(), c.dModel);
            QCOMPARE(a.bo.size(), c.outputBias ? c.dModel : 0);
            for (const HeadWeights& head : a.heads) {
                QVERIFY(head.enabled);
                QCOMPARE(head.bq.size(), c.qkvBias ? c.dHead : 0);
                QCOMPARE(head.bk.size(), c.qkvBias ? c.dHead : 0);
                QCOMPARE(head.bv.size(), c.qkvBias ? c.dHead : 0);
            }
            // Phi's MLP reads the attention's normalised input: one norm per block.
            QCOMPARE(layer.feedForwardNorm.present(), !c.sharedBlockNorm);
            for (const NormWeights* norm : {&layer.attentionNorm, &layer.feedForwardNorm}) {
                if (!norm->present())
                    continue;
                QCOMPARE(int(norm->kind), int(c.norm));
                QCOMPARE(norm->eps, c.normEps);
                QCOMPARE(norm->gain.size(), c.dModel);
                QCOMPARE(norm->bias.size(), c.norm == NormKind::LayerNorm ? c.dModel : 0);
            }
            const FeedForwardWeights& ff = layer.feedForward;
            QCOMPARE(ff.kind, c.feedForward);
            QCOMPARE(int(ff.activation), int(c.activation));
            QCOMPARE(ff.in.weight.rows(), c.dModel);
            QCOMPARE(ff.in.weight.cols(), c.dFeedForward);
            QCOMPARE(ff.out.weight.rows(), c.dFeedForward);
            QCOMPARE(ff.out.weight.cols(), c.dModel);
            QCOMPARE(ff.gate.present(), c.feedForward == FeedForwardKind::Gated);
            QCOMPARE(ff.in.bias.size(), c.feedForwardBias ? c.dFeedForward : 0);
            QCOMPARE(ff.out.bias.size(), c.feedForwardBias ? c.dModel : 0);
        }
        QCOMPARE(w.headTransform.dense.present(), c.objective == Objective::MaskedLm);
        QCOMPARE(w.headTransform.norm.present(), c.objective == Objective::MaskedLm);
        QCOMPARE(w.lmBias.size(), c.objective == Objective::MaskedLm || c.headBias ? c.vocab : 0);
        QCOMPARE(w.lmHead.rows(), c.tiedEmbeddings ? 0 : c.vocab);
        QCOMPARE(w.outputEmbedding().rows(), c.vocab);
        QCOMPARE(w.outputEmbedding().cols(), c.dModel);
        QVERIFY(w.hasLanguageModelHead());
    }

    // parameterCount against the fixture itself: every tensor the loader uses, counted from the
    // file headers.
    void parameterCountMatchesTheFiles_data() { weightShapes_data(); }
    void parameterCountMatchesTheFiles()
    {
        QFETCH(QString, fixture);
        const QDir dir(rawst::fixture(fixture));
        long long count = 0;
        for (const QString& file : dir.entryList({"*.safetensors"})) {
            const QJsonObject header = rawst::File::read(dir.filePath(file)).header();
            for (auto it = header.begin(); it != header.end(); ++it) {
                if (ignoredTensor(it.key()))
                    continue;
                long long n = 1;
                for (const QJsonValue v : it.value().toObject()["shape"].toArray())
                    n *= v.toInteger();
                count += n;
            }
        }
        QCOMPARE(load(fixture)->config().parameterCount(), count);
    }

    // ---- The families past the first six: their flags and layouts --------------------------

    void familyFlags_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<int>("dHead");
        QTest::addColumn<int>("rotaryDims"); // 0: learned positions
        QTest::addColumn<bool>("parallel");
        QTest::addColumn<bool>("sharedNorm");
        QTest::addColumn<float>("embeddingScale");
        QTest::addColumn<int>("positionOffset");
        QTest::addColumn<int>("activation");
        QTest::addColumn<bool>("gated");
        QTest::addColumn<bool>("rmsNorm");
        QTest::addColumn<bool>("tied");
        // pythia: d 32, 2 heads, rotary_pct 0.25 of d_head 16; phi: int(0.4 x 12) = 4.
        QTest::newRow("pythia") << "pythia" << 16 << 4 << true << false << 1.0f << 0
                                << int(Activation::GeluErf) << false << false << false;
        QTest::newRow("gemma") << "gemma" << 12 << 12 << false << false << 4.0f << 0
                               << int(Activation::GeluTanh) << true << true << true;
        QTest::newRow("opt") << "opt" << 4 << 0 << false << false << 1.0f << 2
                             << int(Activation::Relu) << false << false << true;
        QTest::newRow("phi") << "phi" << 12 << 4 << true << true << 1.0f << 0
                             << int(Activation::GeluTanh) << false << false << false;
    }
    void familyFlags()
    {
        QFETCH(QString, fixture);
        QFETCH(int, dHead);
        QFETCH(int, rotaryDims);
        QFETCH(bool, parallel);
        QFETCH(bool, sharedNorm);
        QFETCH(float, embeddingScale);
        QFETCH(int, positionOffset);
        QFETCH(int, activation);
        QFETCH(bool, gated);
        QFETCH(bool, rmsNorm);
        QFETCH(bool, tied);
        const ModelConfig c = load(fixture)->config();
        QCOMPARE(QString::fromUtf8(toString(c.family)), c.modelType);
        QCOMPARE(c.dHead, dHead);
        QCOMPARE(c.positions, rotaryDims ? PositionKind::Rotary : PositionKind::Learned);
        QCOMPARE(c.rotaryDims, rotaryDims);
        QCOMPARE(c.parallelResidual, parallel);
        QCOMPARE(c.sharedBlockNorm, sharedNorm);
        QCOMPARE(c.embeddingScale, embeddingScale);
        QCOMPARE(c.positionOffset, positionOffset);
        QCOMPARE(int(c.activation), activation);
        QCOMPARE(c.feedForward, gated ? FeedForwardKind::Gated : FeedForwardKind::Plain);
        QCOMPARE(int(c.norm), int(rmsNorm ? NormKind::RmsNorm : NormKind::LayerNorm));
        QCOMPARE(c.tiedEmbeddings, tied);
        QCOMPARE(c.placement, NormPlacement::Pre);
        QVERIFY(c.causal);
        QCOMPARE(c.objective, Objective::CausalLm);
    }

    // Partial rotary: the turned dimensions i < r/2 and i + r/2 move to i and i + d_head/2, the
    // others fill the rest of each half and get the frequency 0. Pythia's query_key_value rows
    // are head after head [q | k | v]; Phi's q_proj rows are heads side by side.
    void partialRotaryColumnOrder_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("tensor");
        QTest::addColumn<int>("firstRow"); // of head 1's q in the tensor
        QTest::addColumn<QVector<int>>("order");
        QTest::addColumn<QVector<double>>("frequencies");
        // d_head 16, r 4: [0 1 | 4..9 | 2 3 | 10..15]; theta^(-2i/4) for i < 2.
        QTest::newRow("pythia") << "pythia"
                                << "gpt_neox.layers.0.attention.query_key_value.weight" << 3 * 16
                                << QVector<int>{0, 1, 4,  5,  6,  7,  8,  9,
                                                2, 3, 10, 11, 12, 13, 14, 15}
                                << QVector<double>{1, 0.01, 0, 0, 0, 0, 0, 0};
        // d_head 12, r 4: [0 1 | 4..7 | 2 3 | 8..11].
        QTest::newRow("phi") << "phi"
                             << "model.layers.0.self_attn.q_proj.weight" << 12
                             << QVector<int>{0, 1, 4, 5, 6, 7, 2, 3, 8, 9, 10, 11}
                             << QVector<double>{1, 0.01, 0, 0, 0, 0};
    }
    void partialRotaryColumnOrder()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, tensor);
        QFETCH(int, firstRow);
        QFETCH(QVector<int>, order);
        QFETCH(QVector<double>, frequencies);
        const auto model = load(fixture);
        const rawst::File raw = rawFile(fixture);
        const int d = model->config().dModel;
        const HeadWeights& head = model->weights.layers[0].attention->heads[1];
        QCOMPARE(int(head.Wq.cols()), int(order.size()));
        for (int j = 0; j < order.size(); ++j)
            for (int i = 0; i < d; ++i) // W_q[i][j] = weight[row of dimension order[j]][i]
                QCOMPARE(head.Wq(i, j), raw.value(tensor, qint64(firstRow + order[j]) * d + i));
        const std::vector<float>& f = model->config().ropeInverseFrequencies;
        QCOMPARE(int(f.size()), int(frequencies.size()));
        for (int i = 0; i < frequencies.size(); ++i)
            QCOMPARE(f[std::size_t(i)], float(frequencies[i]));
    }

    // Gemma stores w for the gain 1 + w; OPT's position p is row p + 2 of its table,
    // RoBERTa's row padding_idx + 1 + p = p + 2.
    void gemmaGainsAndOptPositions()
    {
        const auto gemma = load("gemma");
        const rawst::File g = rawFile("gemma");
        for (qint64 k = 0; k < 16; ++k) {
            QCOMPARE(gemma->weights.layers[1].feedForwardNorm.gain(k),
                     1.0f + g.value("model.layers.1.post_attention_layernorm.weight", k));
            QCOMPARE(gemma->weights.finalNorm.gain(k), 1.0f + g.value("model.norm.weight", k));
        }
        const auto opt = load("opt");
        const rawst::File o = rawFile("opt");
        QCOMPARE(opt->weights.positionEmbedding.rows(), 32);
        for (qint64 k = 0; k < 16; ++k) {
            QCOMPARE(opt->weights.positionEmbedding(0, k),
                     o.value("model.decoder.embed_positions.weight", 2 * 16 + k));
            QCOMPARE(opt->weights.positionEmbedding(31, k),
                     o.value("model.decoder.embed_positions.weight", 33 * 16 + k));
        }
        const auto roberta = load("roberta");
        const rawst::File r = rawFile("roberta");
        QCOMPARE(roberta->config().maxPositions, 32);
        QCOMPARE(roberta->config().positionOffset, 2);
        QCOMPARE(roberta->config().objective, Objective::MaskedLm);
        QVERIFY(!roberta->config().causal);
        for (qint64 k = 0; k < 16; ++k)
            QCOMPARE(roberta->weights.positionEmbedding(0, k),
                     r.value("roberta.embeddings.position_embeddings.weight", 2 * 16 + k));
    }

    // XLM-R's checkpoints are RoBERTa's under another model_type: the RoBERTa fixture renamed
    // reads the same weights and predicts the same (its Unigram tokenizer aside).
    void xlmRobertaReadsAsRoberta()
    {
        QTemporaryDir dir;
        const QString folder = rawst::copyFixture("roberta", dir.filePath("xlmr"));
        patchConfig({{"model_type", "xlm-roberta"},
                     {"architectures", QJsonArray{"XLMRobertaForMaskedLM"}}})(folder);
        const auto xlmr = loadModel(folder);
        const auto roberta = load("roberta");
        QCOMPARE(QString::fromUtf8(toString(xlmr->config().family)), QString("xlm-roberta"));
        QCOMPARE(xlmr->config().objective, Objective::MaskedLm);
        QCOMPARE(xlmr->config().positionOffset, 2);
        QVERIFY(xlmr->weights.positionEmbedding == roberta->weights.positionEmbedding);
        QVERIFY(xlmr->weights.headTransform.dense.weight ==
                roberta->weights.headTransform.dense.weight);
        QVERIFY(xlmr->weights.lmBias == roberta->weights.lmBias);
        QCOMPARE(xlmr->config().parameterCount(), roberta->config().parameterCount());
    }

    // ---- Tensors against the raw bytes -----------------------------------------------------

    // GPT-2's Conv1D c_attn is d x 3d = q | k | v, already in the row convention: head h's W_k
    // is columns d + h d_head .. of it.
    void gpt2HeadsAreColumnSlices_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<int>("layer");
        QTest::newRow("gpt2 layer 0") << "gpt2"
                                      << "model.safetensors"
                                      << "transformer." << 0;
        QTest::newRow("gpt2 layer 1") << "gpt2"
                                      << "model.safetensors"
                                      << "transformer." << 1;
        QTest::newRow("gpt2-noprefix-f16 layer 1 (shard 2)") << "gpt2-noprefix-f16"
                                                             << "model-00002-of-00002.safetensors"
                                                             << "" << 1;
    }
    void gpt2HeadsAreColumnSlices()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, file);
        QFETCH(QString, prefix);
        QFETCH(int, layer);
        const auto model = load(fixture);
        const rawst::File raw = rawFile(fixture, file);
        const QString h = prefix + "h." + QString::number(layer) + ".";
        const RowMatrix cAttn = raw.matrix(h + "attn.c_attn.weight");
        const RowMatrix cAttnBias = raw.matrix(h + "attn.c_attn.bias");
        const int d = model->config().dModel, dHead = model->config().dHead;
        const ModelWeights& a = *model->weights.layers[std::size_t(layer)].attention;
        for (int head = 0; head < model->config().heads; ++head) {
            const HeadWeights& w = a.heads[std::size_t(head)];
            QVERIFY(w.Wq == cAttn.middleCols(head * dHead, dHead));
            QVERIFY(w.Wk == cAttn.middleCols(d + head * dHead, dHead));
            QVERIFY(w.Wv == cAttn.middleCols(2 * d + head * dHead, dHead));
            QVERIFY(w.bq == cAttnBias.middleCols(head * dHead, dHead));
            QVERIFY(w.bk == cAttnBias.middleCols(d + head * dHead, dHead));
            QVERIFY(w.bv == cAttnBias.middleCols(2 * d + head * dHead, dHead));
        }
        // One element by hand: head 1's W_k[2][3] is c_attn[2][d + 1 * d_head + 3].
        QCOMPARE(a.heads[1].Wk(2, 3),
                 raw.value(h + "attn.c_attn.weight", 2 * 3 * d + d + dHead + 3));
        QVERIFY(a.Wo == raw.matrix(h + "attn.c_proj.weight"));
        QVERIFY(a.bo == raw.matrix(h + "attn.c_proj.bias"));
        const TransformerLayer& l = model->weights.layers[std::size_t(layer)];
        QVERIFY(l.attentionNorm.gain == raw.matrix(h + "ln_1.weight"));
        QVERIFY(l.feedForwardNorm.bias == raw.matrix(h + "ln_2.bias"));
        QVERIFY(l.feedForward.in.weight == raw.matrix(h + "mlp.c_fc.weight"));
        QVERIFY(l.feedForward.out.weight == raw.matrix(h + "mlp.c_proj.weight"));
        QVERIFY(model->weights.lmHead.size() == 0); // tied to wte
    }

    // nn.Linear stores d_out x d_in: BERT's W_q for head h is columns h d_head .. of
    // query.weight^T. Old gamma/beta LayerNorm names are read as gain/bias.
    void bertWeightsAreTransposed()
    {
        const auto model = load("bert");
        const rawst::File raw = rawFile("bert");
        const int dHead = model->config().dHead;
        for (int layer = 0; layer < 2; ++layer) {
            const QString b = "bert.encoder.layer." + QString::number(layer) + ".";
            const TransformerLayer& l = model->weights.layers[std::size_t(layer)];
            const RowMatrix query = raw.matrix(b + "attention.self.query.weight");
            const RowMatrix key = raw.matrix(b + "attention.self.key.weight");
            const RowMatrix value = raw.matrix(b + "attention.self.value.weight");
            for (int head = 0; head < 3; ++head) {
                const HeadWeights& w = l.attention->heads[std::size_t(head)];
                QVERIFY(w.Wq == query.transpose().middleCols(head * dHead, dHead));
                QVERIFY(w.Wk == key.transpose().middleCols(head * dHead, dHead));
                QVERIFY(w.Wv == value.transpose().middleCols(head * dHead, dHead));
                QVERIFY(w.bk ==
                        raw.matrix(b + "attention.self.key.bias").middleCols(head * dHead, dHead));
            }
            // W_q[i][j] = query.weight[j][i], one element by hand.
            QCOMPARE(l.attention->heads[2].Wq(5, 1),
                     raw.value(b + "attention.self.query.weight", (2 * dHead + 1) * 24 + 5));
            QVERIFY(l.attention->Wo == raw.matrix(b + "attention.output.dense.weight").transpose());
            QVERIFY(l.attentionNorm.gain == raw.matrix(b + "attention.output.LayerNorm.gamma"));
            QVERIFY(l.attentionNorm.bias == raw.matrix(b + "attention.output.LayerNorm.beta"));
            QVERIFY(l.feedForward.in.weight ==
                    raw.matrix(b + "intermediate.dense.weight").transpose());
            QVERIFY(l.feedForward.out.weight == raw.matrix(b + "output.dense.weight").transpose());
            QVERIFY(l.feedForwardNorm.gain == raw.matrix(b + "output.LayerNorm.gamma"));
        }
        const TransformerWeights& w = model->weights;
        QVERIFY(w.tokenTypeEmbedding == raw.matrix("bert.embeddings.token_type_embeddings.weight"));
        QVERIFY(w.embeddingNorm.gain == raw.matrix("bert.embeddings.LayerNorm.gamma"));
        QVERIFY(w.headTransform.dense.weight ==
                raw.matrix("cls.predictions.transform.dense.weight").transpose());
        QVERIFY(w.headTransform.dense.bias == raw.matrix("cls.predictions.transform.dense.bias"));
        QCOMPARE(int(w.headTransform.activation), int(Activation::GeluErf));
        QVERIFY(w.headTransform.norm.gain ==
                raw.matrix("cls.predictions.transform.LayerNorm.gamma"));
        QCOMPARE(w.headTransform.norm.eps, 1e-12f);
        QVERIFY(w.lmBias == raw.matrix("cls.predictions.bias"));
        QCOMPARE(w.lmHead.size(), 0); // the decoder is tied to the word embeddings
    }

    void distilbertWeightsAreTransposed()
    {
        const auto model = load("distilbert");
        const rawst::File raw = rawFile("distilbert");
        const int dHead = model->config().dHead;
        for (int layer = 0; layer < 3; ++layer) {
            const QString b = "distilbert.transformer.layer." + QString::number(layer) + ".";
            const TransformerLayer& l = model->weights.layers[std::size_t(layer)];
            for (int head = 0; head < 2; ++head) {
                const HeadWeights& w = l.attention->heads[std::size_t(head)];
                QVERIFY(w.Wq == raw.matrix(b + "attention.q_lin.weight")
                                    .transpose()
                                    .middleCols(head * dHead, dHead));
                QVERIFY(w.Wv == raw.matrix(b + "attention.v_lin.weight")
                                    .transpose()
                                    .middleCols(head * dHead, dHead));
                QVERIFY(w.bq ==
                        raw.matrix(b + "attention.q_lin.bias").middleCols(head * dHead, dHead));
            }
            QVERIFY(l.attention->Wo == raw.matrix(b + "attention.out_lin.weight").transpose());
            QVERIFY(l.attentionNorm.gain == raw.matrix(b + "sa_layer_norm.weight"));
            QVERIFY(l.feedForward.in.weight == raw.matrix(b + "ffn.lin1.weight").transpose());
            QVERIFY(l.feedForwardNorm.bias == raw.matrix(b + "output_layer_norm.bias"));
        }
        const TransformerWeights& w = model->weights;
        QVERIFY(w.headTransform.dense.weight == raw.matrix("vocab_transform.weight").transpose());
        QVERIFY(w.headTransform.norm.gain == raw.matrix("vocab_layer_norm.weight"));
        QVERIFY(w.lmBias == raw.matrix("vocab_projector.bias"));
        QVERIFY(w.positionEmbedding ==
                raw.matrix("distilbert.embeddings.position_embeddings.weight"));
    }

    // Grouped-query attention: query head h reads kv head h / (heads / kvHeads); the heads of
    // a group hold copies of its W_k, W_v (and Qwen2's b_k, b_v).
    void groupedQueryHeads_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("llama 4/2, BF16") << "llama";
        QTest::newRow("smollm 3/1") << "smollm";
        QTest::newRow("qwen2 4/2, biases") << "qwen2";
        QTest::newRow("mistral 2/1, F16, head_dim") << "mistral";
    }
    void groupedQueryHeads()
    {
        QFETCH(QString, fixture);
        const auto model = load(fixture);
        const rawst::File raw = rawFile(fixture);
        const ModelConfig& c = model->config();
        const int group = c.heads / c.kvHeads, dHead = c.dHead;
        for (int layer = 0; layer < c.layers; ++layer) {
            const QString a = "model.layers." + QString::number(layer) + ".self_attn.";
            const RowMatrix q = raw.matrix(a + "q_proj.weight").transpose();
            const RowMatrix k = raw.matrix(a + "k_proj.weight").transpose();
            const RowMatrix v = raw.matrix(a + "v_proj.weight").transpose();
            const ModelWeights& w = *model->weights.layers[std::size_t(layer)].attention;
            for (int head = 0; head < c.heads; ++head) {
                const int kv = head / group;
                const HeadWeights& hw = w.heads[std::size_t(head)];
                QVERIFY(hw.Wq == q.middleCols(head * dHead, dHead));
                QVERIFY(hw.Wk == k.middleCols(kv * dHead, dHead));
                QVERIFY(hw.Wv == v.middleCols(kv * dHead, dHead));
                if (c.qkvBias) {
                    QVERIFY(hw.bq == raw.matrix(a + "q_proj.bias").middleCols(head * dHead, dHead));
                    QVERIFY(hw.bk == raw.matrix(a + "k_proj.bias").middleCols(kv * dHead, dHead));
                    QVERIFY(hw.bv == raw.matrix(a + "v_proj.bias").middleCols(kv * dHead, dHead));
                }
                QVERIFY(hw.Wk == w.heads[std::size_t(kv * group)].Wk); // copies within the group
            }
            // The last head's W_k[3][1] by hand: k_proj.weight[last kv * d_head + 1][3].
            const int lastKv = c.kvHeads - 1;
            QCOMPARE(w.heads.back().Wk(3, 1),
                     raw.value(a + "k_proj.weight", (lastKv * dHead + 1) * c.dModel + 3));
            QVERIFY(w.Wo == raw.matrix(a + "o_proj.weight").transpose());
            QCOMPARE(w.bo.size(), 0);
            const TransformerLayer& l = model->weights.layers[std::size_t(layer)];
            const QString m = "model.layers." + QString::number(layer) + ".mlp.";
            QVERIFY(l.feedForward.gate.weight == raw.matrix(m + "gate_proj.weight").transpose());
            QVERIFY(l.feedForward.in.weight == raw.matrix(m + "up_proj.weight").transpose());
            QVERIFY(l.feedForward.out.weight == raw.matrix(m + "down_proj.weight").transpose());
            QVERIFY(l.attentionNorm.gain == raw.matrix("model.layers." + QString::number(layer) +
                                                       ".input_layernorm.weight"));
        }
        QVERIFY(model->weights.finalNorm.gain == raw.matrix("model.norm.weight"));
        if (c.tiedEmbeddings)
            QCOMPARE(model->weights.lmHead.size(), 0);
        else
            QVERIFY(model->weights.lmHead == raw.matrix("lm_head.weight"));
        QVERIFY(model->weights.outputEmbedding() ==
                raw.matrix(c.tiedEmbeddings ? "model.embed_tokens.weight" : "lm_head.weight"));
    }

    // theta^(-2i/d_head) per pair of dimensions (no rope_scaling in the fixtures).
    void rotaryFrequencies_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<double>("theta");
        QTest::newRow("llama") << "llama" << 1e4;
        QTest::newRow("smollm") << "smollm" << 1e5;
        QTest::newRow("qwen2") << "qwen2" << 1e6;
        QTest::newRow("mistral") << "mistral" << 1e4;
    }
    void rotaryFrequencies()
    {
        QFETCH(QString, fixture);
        QFETCH(double, theta);
        const ModelConfig config = readModelConfig(rawst::fixture(fixture));
        QCOMPARE(config.ropeTheta, theta);
        QCOMPARE(int(config.ropeInverseFrequencies.size()), config.dHead / 2);
        for (int i = 0; i < config.dHead / 2; ++i)
            QCOMPARE(config.ropeInverseFrequencies[std::size_t(i)],
                     float(std::pow(theta, -2.0 * i / config.dHead)));
    }

    // A model head is a full explorer head: bilinear M = I (the bilinear score starts as the
    // dot product), w_additive from the seeded stream the explorer's own heads use.
    void explorerParametersOfModelHeads()
    {
        const auto model = load("qwen2");
        for (int layer = 0; layer < 2; ++layer) {
            for (int head = 0; head < 4; ++head) {
                const HeadWeights& w =
                    model->weights.layers[std::size_t(layer)].attention->heads[std::size_t(head)];
                QVERIFY(w.bilinear == Matrix::Identity(6, 6));
                Matrix expected(1, 6);
                initialiseMatrix(expected, WeightInit::Xavier, 1,
                                 "layers[" + std::to_string(layer) + "].heads[" +
                                     std::to_string(head) + "].w_additive");
                QVERIFY(w.wAdditive == expected.row(0));
                QVERIFY(w.wAdditive.norm() > 0);
            }
        }
        QVERIFY(model->weights.layers[0].attention->heads[0].wAdditive !=
                model->weights.layers[1].attention->heads[0].wAdditive);
    }

    // ---- config.json ------------------------------------------------------------------------

    void configKeys_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QJsonObject>("changes"); // null removes a key
        QTest::addColumn<ConfigCheck>("check");
        QTest::newRow("gpt2 n_inner given")
            << "gpt2" << QJsonObject{{"n_inner", 40}}
            << ConfigCheck([](const ModelConfig& c) { QCOMPARE(c.dFeedForward, 40); });
        QTest::newRow("gpt2 n_ctx for n_positions")
            << "gpt2" << QJsonObject{{"n_positions", QJsonValue::Null}}
            << ConfigCheck([](const ModelConfig& c) { QCOMPARE(c.maxPositions, 32); });
        for (const auto& [name, activation] :
             {std::pair{"gelu_new", Activation::GeluTanh},
              std::pair{"gelu_pytorch_tanh", Activation::GeluTanh},
              std::pair{"gelu", Activation::GeluErf}, std::pair{"relu", Activation::Relu},
              std::pair{"silu", Activation::Silu}}) {
            const Activation expected = activation;
            QTest::newRow(qPrintable(QString("gpt2 activation ") + name))
                << "gpt2" << QJsonObject{{"activation_function", name}}
                << ConfigCheck([expected](const ModelConfig& c) {
                       QCOMPARE(int(c.activation), int(expected));
                   });
        }
        QTest::newRow("bert hidden_act gelu_new")
            << "bert" << QJsonObject{{"hidden_act", "gelu_new"}}
            << ConfigCheck([](const ModelConfig& c) {
                   QCOMPARE(int(c.activation), int(Activation::GeluTanh));
               });
        QTest::newRow("distilbert activation relu")
            << "distilbert" << QJsonObject{{"activation", "relu"}}
            << ConfigCheck([](const ModelConfig& c) {
                   QCOMPARE(int(c.activation), int(Activation::Relu));
                   QCOMPARE(c.normEps, 1e-12f);
               });
        QTest::newRow("GPT2Model: no prediction")
            << "gpt2" << QJsonObject{{"architectures", QJsonArray{"GPT2Model"}}}
            << ConfigCheck([](const ModelConfig& c) { QCOMPARE(c.objective, Objective::None); });
        QTest::newRow("gpt2 without architectures: causal LM")
            << "gpt2" << QJsonObject{{"architectures", QJsonValue::Null}}
            << ConfigCheck([](const ModelConfig& c) {
                   QCOMPARE(c.objective, Objective::CausalLm);
                   QCOMPARE(c.architecture, QString());
               });
        QTest::newRow("BertModel: no prediction")
            << "bert" << QJsonObject{{"architectures", QJsonArray{"BertModel"}}}
            << ConfigCheck([](const ModelConfig& c) {
                   QCOMPARE(c.objective, Objective::None);
                   QVERIFY(!c.causal);
               });
        QTest::newRow("BertForSequenceClassification: the encoder only")
            << "bert" << QJsonObject{{"architectures", QJsonArray{"BertForSequenceClassification"}}}
            << ConfigCheck([](const ModelConfig& c) { QCOMPARE(c.objective, Objective::None); });
        QTest::newRow("BertForPreTraining: masked LM")
            << "bert" << QJsonObject{{"architectures", QJsonArray{"BertForPreTraining"}}}
            << ConfigCheck(
                   [](const ModelConfig& c) { QCOMPARE(c.objective, Objective::MaskedLm); });
        QTest::newRow("BertLMHeadModel as a decoder")
            << "bert"
            << QJsonObject{{"architectures", QJsonArray{"BertLMHeadModel"}}, {"is_decoder", true}}
            << ConfigCheck([](const ModelConfig& c) {
                   QCOMPARE(c.objective, Objective::CausalLm);
                   QVERIFY(c.causal);
               });
        QTest::newRow("DistilBertModel")
            << "distilbert" << QJsonObject{{"architectures", QJsonArray{"DistilBertModel"}}}
            << ConfigCheck([](const ModelConfig& c) { QCOMPARE(c.objective, Objective::None); });
        QTest::newRow("LlamaModel")
            << "llama" << QJsonObject{{"architectures", QJsonArray{"LlamaModel"}}}
            << ConfigCheck([](const ModelConfig& c) { QCOMPARE(c.objective, Objective::None); });
        QTest::newRow("llama without num_key_value_heads: MHA")
            << "llama" << QJsonObject{{"num_key_value_heads", QJsonValue::Null}}
            << ConfigCheck([](const ModelConfig& c) { QCOMPARE(c.kvHeads, 4); });
        QTest::newRow("llama head_dim given")
            << "llama" << QJsonObject{{"head_dim", 16}} << ConfigCheck([](const ModelConfig& c) {
                   QCOMPARE(c.dHead, 16);
                   QCOMPARE(int(c.ropeInverseFrequencies.size()), 8);
               });
        QTest::newRow("llama attention_bias, mlp_bias")
            << "llama" << QJsonObject{{"attention_bias", true}, {"mlp_bias", true}}
            << ConfigCheck([](const ModelConfig& c) {
                   QVERIFY(c.qkvBias && c.outputBias && c.feedForwardBias);
               });
        QTest::newRow("llama tie default false")
            << "smollm" << QJsonObject{{"tie_word_embeddings", QJsonValue::Null}}
            << ConfigCheck([](const ModelConfig& c) { QVERIFY(!c.tiedEmbeddings); });
        QTest::newRow("qwen2 tie default false")
            << "qwen2" << QJsonObject{{"tie_word_embeddings", QJsonValue::Null}}
            << ConfigCheck([](const ModelConfig& c) { QVERIFY(!c.tiedEmbeddings); });
        QTest::newRow("qwen2 sliding window off")
            << "qwen2" << QJsonObject{} << ConfigCheck([](const ModelConfig& c) {
                   QVERIFY(!c.slidingWindow);
                   QVERIFY(c.qkvBias && !c.outputBias && !c.feedForwardBias);
               });
        QTest::newRow("qwen2 sliding window on every layer")
            << "qwen2" << QJsonObject{{"use_sliding_window", true}, {"max_window_layers", 0}}
            << ConfigCheck([](const ModelConfig& c) {
                   QCOMPARE(c.slidingWindow, std::optional<int>(256));
               });
        QTest::newRow("qwen2 sliding window on no layer")
            << "qwen2" << QJsonObject{{"use_sliding_window", true}, {"max_window_layers", 2}}
            << ConfigCheck([](const ModelConfig& c) { QVERIFY(!c.slidingWindow); });
        QTest::newRow("mistral sliding_window null")
            << "mistral" << QJsonObject{{"sliding_window", QJsonValue::Null}}
            << ConfigCheck([](const ModelConfig& c) { QVERIFY(!c.slidingWindow); });
        QTest::newRow("rope_scaling linear")
            << "llama"
            << QJsonObject{{"rope_scaling", QJsonObject{{"type", "linear"}, {"factor", 4.0}}}}
            << ConfigCheck([](const ModelConfig& c) {
                   for (int i = 0; i < 4; ++i)
                       QCOMPARE(c.ropeInverseFrequencies[std::size_t(i)],
                                float(std::pow(1e4, -2.0 * i / 8) / 4));
               });
        QTest::newRow("rope_scaling default")
            << "llama" << QJsonObject{{"rope_scaling", QJsonObject{{"rope_type", "default"}}}}
            << ConfigCheck([](const ModelConfig& c) {
                   QCOMPARE(c.ropeInverseFrequencies[1], float(std::pow(1e4, -0.25)));
               });
        QTest::newRow("torch_dtype before the weights are read")
            << "llama" << QJsonObject{}
            << ConfigCheck([](const ModelConfig& c) { QCOMPARE(c.dtype, QString("BF16")); });
    }
    void configKeys()
    {
        QFETCH(QString, fixture);
        QFETCH(QJsonObject, changes);
        QFETCH(ConfigCheck, check);
        QTemporaryDir dir;
        rawst::writeAll(dir.filePath("config.json"), jsonBytes(fixtureConfig(fixture)));
        patchConfig(changes)(dir.path());
        check(readModelConfig(dir.path()));
    }

    // Llama 3.1 8B's rope_scaling: transformers' _compute_llama3_parameters, the expected
    // numbers computed by a separate float64 Python transcription of it.
    void ropeScalingLlama3()
    {
        QJsonObject config{{"model_type", "llama"},
                           {"architectures", QJsonArray{"LlamaForCausalLM"}},
                           {"hidden_size", 4096},
                           {"num_attention_heads", 32},
                           {"num_key_value_heads", 8},
                           {"num_hidden_layers", 32},
                           {"intermediate_size", 14336},
                           {"vocab_size", 128256},
                           {"max_position_embeddings", 131072},
                           {"rms_norm_eps", 1e-5},
                           {"rope_theta", 500000.0},
                           {"rope_scaling", QJsonObject{{"factor", 8.0},
                                                        {"low_freq_factor", 1.0},
                                                        {"high_freq_factor", 4.0},
                                                        {"original_max_position_embeddings", 8192},
                                                        {"rope_type", "llama3"}}}};
        const ModelConfig c = parseModelConfig(jsonBytes(config), "config.json");
        QCOMPARE(int(c.ropeInverseFrequencies.size()), 64);
        const std::pair<int, double> expected[] = {
            {0, 1.0},                     // high frequency: kept
            {1, 0.8146172338565447},      //
            {28, 0.0032114459947525913},  // wavelength just under 2048: kept
            {29, 0.002166570763503359},   // medium: blended
            {30, 0.0013718935677611381},  //
            {32, 0.0005248461609929547},  //
            {34, 0.00017850781276799638}, //
            {35, 9.556212353964683e-05},  // past 8192: divided by 8
            {63, 3.068925988914511e-07},  //
        };
        for (const auto& [i, value] : expected)
            QVERIFY2(std::abs(c.ropeInverseFrequencies[std::size_t(i)] / value - 1) < 1e-6,
                     qPrintable(QString("i = %1: %2 vs %3")
                                    .arg(i)
                                    .arg(c.ropeInverseFrequencies[std::size_t(i)])
                                    .arg(value)));
        QCOMPARE(c.parameterCount(), 8030261248LL); // Llama 3 8B, as published
        QCOMPARE(c.kvHeads, 8);
        QVERIFY(!c.tiedEmbeddings);
    }

    // Published sizes: gpt2 124,439,808; bert-base-uncased as BertForMaskedLM 109,514,298
    // (without the pooler: 108,891,648 for the encoder alone); TinyLlama 1.1B 1,100,048,384;
    // Qwen2-0.5B 494,032,768.
    void parameterCounts_data()
    {
        QTest::addColumn<QJsonObject>("config");
        QTest::addColumn<qlonglong>("count");
        QTest::newRow("gpt2") << QJsonObject{{"model_type", "gpt2"},
                                             {"architectures", QJsonArray{"GPT2LMHeadModel"}},
                                             {"n_embd", 768},
                                             {"n_head", 12},
                                             {"n_layer", 12},
                                             {"n_positions", 1024},
                                             {"n_inner", QJsonValue::Null},
                                             {"vocab_size", 50257}}
                              << 124439808LL;
        const QJsonObject bert{{"model_type", "bert"},
                               {"architectures", QJsonArray{"BertForMaskedLM"}},
                               {"hidden_size", 768},
                               {"num_attention_heads", 12},
                               {"num_hidden_layers", 12},
                               {"intermediate_size", 3072},
                               {"max_position_embeddings", 512},
                               {"type_vocab_size", 2},
                               {"vocab_size", 30522}};
        QTest::newRow("bert-base-uncased") << bert << 109514298LL;
        QJsonObject bertModel = bert;
        bertModel["architectures"] = QJsonArray{"BertModel"};
        QTest::newRow("bert-base-uncased encoder") << bertModel << 108891648LL;
        QTest::newRow("TinyLlama-1.1B")
            << QJsonObject{{"model_type", "llama"},
                           {"architectures", QJsonArray{"LlamaForCausalLM"}},
                           {"hidden_size", 2048},
                           {"num_attention_heads", 32},
                           {"num_key_value_heads", 4},
                           {"num_hidden_layers", 22},
                           {"intermediate_size", 5632},
                           {"max_position_embeddings", 2048},
                           {"vocab_size", 32000},
                           {"tie_word_embeddings", false}}
            << 1100048384LL;
        QTest::newRow("Qwen2-0.5B")
            << QJsonObject{{"model_type", "qwen2"},
                           {"architectures", QJsonArray{"Qwen2ForCausalLM"}},
                           {"hidden_size", 896},
                           {"num_attention_heads", 14},
                           {"num_key_value_heads", 2},
                           {"num_hidden_layers", 24},
                           {"intermediate_size", 4864},
                           {"max_position_embeddings", 32768},
                           {"vocab_size", 151936},
                           {"tie_word_embeddings", true}}
            << 494032768LL;
    }
    void parameterCounts()
    {
        QFETCH(QJsonObject, config);
        QFETCH(qlonglong, count);
        QCOMPARE(parseModelConfig(jsonBytes(config), "config.json").parameterCount(), count);
    }

    void configRefuses_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QJsonObject>("changes");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("unknown model_type")
            << "gpt2" << QJsonObject{{"model_type", "t5"}}
            << "config.json: model_type: 't5' is not supported (gpt2, bert, distilbert, "
               "llama, mistral, qwen2, gpt_neox, gemma, opt, phi, roberta, xlm-roberta, bart, "
               "marian)";
        QTest::newRow("no model_type") << "gpt2" << QJsonObject{{"model_type", QJsonValue::Null}}
                                       << "config.json: model_type: missing";
        QTest::newRow("gpt_neox rotary_pct 0")
            << "pythia" << QJsonObject{{"rotary_pct", 0}}
            << "config.json: rotary_pct: expected a number above 0 and at most 1, got 0";
        QTest::newRow("gpt_neox rotary_pct of an odd width") // int(16 x 0.3) = 4... 0.2: 3
            << "pythia" << QJsonObject{{"rotary_pct", 0.2}}
            << "config.json: rotary_pct: rotary positions need an even number of dimensions "
               "from 2 to d_head 16, got 3";
        QTest::newRow("roberta positions all before padding_idx + 1")
            << "roberta" << QJsonObject{{"max_position_embeddings", 2}}
            << "config.json: max_position_embeddings: 2 rows leave no position past "
               "pad_token_id 1 + 1";
        QTest::newRow("phi qk_layernorm") << "phi" << QJsonObject{{"qk_layernorm", true}}
                                          << "config.json: qk_layernorm: true (a LayerNorm on "
                                             "each head's q and k) is not supported";
        QTest::newRow("opt post-norm")
            << "opt" << QJsonObject{{"do_layer_norm_before", false}}
            << "config.json: do_layer_norm_before: false (post-norm, as in opt-350m) is not "
               "supported";
        QTest::newRow("opt projected embeddings")
            << "opt" << QJsonObject{{"word_embed_proj_dim", 8}}
            << "config.json: word_embed_proj_dim: a width other than hidden_size 16 "
               "(project_in / project_out) is not supported";
        QTest::newRow("opt sizes by its own keys") << "opt" << QJsonObject{{"ffn_dim", 0}}
                                                   << "config.json: ffn_dim: expected a positive "
                                                      "integer, got 0";
        QTest::newRow("size missing") << "bert" << QJsonObject{{"hidden_size", QJsonValue::Null}}
                                      << "config.json: hidden_size: missing";
        QTest::newRow("size not a number")
            << "llama" << QJsonObject{{"num_attention_heads", "4"}}
            << "config.json: num_attention_heads: expected a positive integer, got '4'";
        QTest::newRow("size fractional")
            << "gpt2" << QJsonObject{{"n_layer", 2.5}}
            << "config.json: n_layer: expected a positive integer, got 2.5";
        QTest::newRow("size past any model")
            << "gpt2" << QJsonObject{{"n_positions", 2147483648.0}}
            << "config.json: n_positions: must be at most 1000000000, got 2147483648";
        QTest::newRow("architectures a number")
            << "gpt2" << QJsonObject{{"architectures", 1e39}}
            << "config.json: architectures: expected an array of class names, got 1e+39";
        QTest::newRow("heads do not divide") << "gpt2" << QJsonObject{{"n_head", 5}}
                                             << "config.json: n_head: 5 does not divide n_embd 16";
        QTest::newRow("heads do not divide (bert)")
            << "bert" << QJsonObject{{"hidden_size", 25}}
            << "num_attention_heads: 3 does not divide hidden_size 25";
        QTest::newRow("kv heads do not divide")
            << "llama" << QJsonObject{{"num_key_value_heads", 3}}
            << "num_key_value_heads: 3 does not divide num_attention_heads 4";
        QTest::newRow("odd head_dim")
            << "llama" << QJsonObject{{"head_dim", 7}} << "even head dimension, got 7";
        QTest::newRow("rope dynamic")
            << "llama"
            << QJsonObject{{"rope_scaling", QJsonObject{{"type", "dynamic"}, {"factor", 2.0}}}}
            << "config.json: rope_scaling: type 'dynamic' is not supported (null, linear, llama3)";
        QTest::newRow("rope yarn")
            << "llama"
            << QJsonObject{{"rope_scaling", QJsonObject{{"rope_type", "yarn"}, {"factor", 2.0}}}}
            << "type 'yarn' is not supported";
        QTest::newRow("rope llama3 incomplete")
            << "llama"
            << QJsonObject{{"rope_scaling", QJsonObject{{"rope_type", "llama3"}, {"factor", 8.0}}}}
            << "rope_scaling: llama3 needs factor, low_freq_factor, high_freq_factor";
        QTest::newRow("rope linear without factor")
            << "llama" << QJsonObject{{"rope_scaling", QJsonObject{{"type", "linear"}}}}
            << "rope_scaling: factor: expected a positive number";
        QTest::newRow("unknown activation")
            << "gpt2" << QJsonObject{{"activation_function", "quick_gelu"}}
            << "config.json: activation_function: 'quick_gelu' is not supported";
        QTest::newRow("bert relative positions")
            << "bert" << QJsonObject{{"position_embedding_type", "relative_key"}}
            << "position_embedding_type: 'relative_key' is not supported";
        QTest::newRow("gpt2 inverse layer scaling")
            << "gpt2" << QJsonObject{{"scale_attn_by_inverse_layer_idx", true}}
            << "scale_attn_by_inverse_layer_idx: true is not supported";
        QTest::newRow("qwen2 window on some layers")
            << "qwen2" << QJsonObject{{"use_sliding_window", true}, {"max_window_layers", 1}}
            << "use_sliding_window: a window on only some layers";
        QTest::newRow("architectures not a list")
            << "gpt2" << QJsonObject{{"architectures", "GPT2LMHeadModel"}}
            << "architectures: expected an array of class names";
        QTest::newRow("eps not a number") << "gpt2" << QJsonObject{{"layer_norm_epsilon", "small"}}
                                          << "layer_norm_epsilon: expected a number";
        // Every size against the explorer's bounds as it is read, by its own key, before anything
        // is sized by it (a head_dim of 1e9 would size a 6 GB rotary table).
        QTest::newRow("head_dim past the width")
            << "llama" << QJsonObject{{"head_dim", 16384}}
            << "config.json: head_dim: 16384 is more than the 8192 this explorer supports";
        QTest::newRow("head_dim 1e9")
            << "llama" << QJsonObject{{"head_dim", 1e9}}
            << "config.json: head_dim: 1000000000 is more than the 8192 this explorer supports";
        QTest::newRow("n_embd 1e9, n_inner null")
            << "gpt2" << QJsonObject{{"n_embd", 1e9}}
            << "config.json: n_embd: 1000000000 is more than the 8192 this explorer supports";
        QTest::newRow("hidden_size past the width")
            << "bert" << QJsonObject{{"hidden_size", 8193}}
            << "config.json: hidden_size: 8193 is more than the 8192";
        QTest::newRow("n_head past the heads")
            << "gpt2" << QJsonObject{{"n_head", 512}}
            << "config.json: n_head: 512 is more than the 256 heads this explorer supports";
        QTest::newRow("num_key_value_heads past the heads")
            << "llama" << QJsonObject{{"num_key_value_heads", 300}}
            << "config.json: num_key_value_heads: 300 is more than the 256 heads this explorer "
               "supports";
        // Per layer: W_q, W_k, W_v, W_o 4 x 8192^2 = 268435456, their biases 4 x 8192, the MLP
        // 2 x 8192 x 1e9 + 1e9 + 8192, two LayerNorms 4 x 8192: 16385268509184; 1e9 of them
        // are past 2^63.
        QTest::newRow("weights past 64 bits")
            << "gpt2"
            << QJsonObject{{"n_embd", 8192}, {"n_head", 256}, {"n_inner", 1e9}, {"n_layer", 1e9}}
            << "config.json: n_layer: 1000000000 layers of 16385268509184 weights each are more "
               "than 2^63 weights";
    }
    void configRefuses()
    {
        QFETCH(QString, fixture);
        QFETCH(QJsonObject, changes);
        QFETCH(QString, fragment);
        QTemporaryDir dir;
        rawst::writeAll(dir.filePath("config.json"), jsonBytes(fixtureConfig(fixture)));
        patchConfig(changes)(dir.path());
        expectError([&] { readModelConfig(dir.path()); }, fragment);
    }

    void configFileProblems()
    {
        QTemporaryDir dir;
        expectError([&] { readModelConfig(dir.path()); }, "config.json: missing");
        rawst::writeAll(dir.filePath("config.json"), "{\"model_type\": ");
        expectError([&] { readModelConfig(dir.path()); }, "config.json: not valid JSON");
        rawst::writeAll(dir.filePath("config.json"), "[1]");
        expectError([&] { readModelConfig(dir.path()); }, "config.json: not a JSON object");
    }

    // ---- Folders that cannot be loaded -----------------------------------------------------

    void loadRefuses_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<Mutation>("mutation");
        QTest::addColumn<QString>("fragment");
        const QString cAttn1 = "transformer.h.1.attn.c_attn.weight";
        QTest::newRow("missing config.json")
            << "gpt2" << removeFiles({"config.json"}) << "config.json: missing";
        QTest::newRow("unknown model_type")
            << "gpt2" << patchConfig({{"model_type", "t5"}})
            << "config.json: model_type: 't5' is not supported (gpt2, bert, distilbert, "
               "llama, mistral, qwen2, gpt_neox, gemma, opt, phi, roberta, xlm-roberta, bart, "
               "marian)";
        QTest::newRow("missing tokenizer (vocab.json + merges.txt)")
            << "gpt2" << removeFiles({"vocab.json", "merges.txt"})
            << "model: no tokenizer (tokenizer.json";
        QTest::newRow("missing tokenizer (tokenizer.json)")
            << "llama" << removeFiles({"tokenizer.json"}) << "model: no tokenizer";
        QTest::newRow("missing tokenizer, merges.txt alone")
            << "gpt2" << removeFiles({"vocab.json"}) << "model: no tokenizer";
        QTest::newRow("missing tensor")
            << "gpt2" << removeTensors({"transformer.h.1.ln_2.weight"})
            << "model.safetensors: transformer.h.1.ln_2.weight: missing";
        QTest::newRow("missing untied lm_head") << "llama" << removeTensors({"lm_head.weight"})
                                                << "model.safetensors: lm_head.weight: missing";
        QTest::newRow("missing gpt_neox fused projection")
            << "pythia" << removeTensors({"gpt_neox.layers.1.attention.query_key_value.weight"})
            << "model.safetensors: gpt_neox.layers.1.attention.query_key_value.weight: missing";
        QTest::newRow("missing gemma final norm")
            << "gemma" << removeTensors({"model.norm.weight"})
            << "model.safetensors: model.norm.weight: missing";
        QTest::newRow("missing phi head bias") << "phi" << removeTensors({"lm_head.bias"})
                                               << "model.safetensors: lm_head.bias: missing";
        QTest::newRow("opt position table without its 2 offset rows")
            << "opt" << patchConfig({{"max_position_embeddings", 34}})
            << "model.safetensors: model.decoder.embed_positions.weight: expected 36x16, got "
               "34x16";
        QTest::newRow("missing MLM head") << "bert" << removeTensors({"cls.predictions.bias"})
                                          << "model.safetensors: cls.predictions.bias: missing";
        QTest::newRow("missing qwen2 bias")
            << "qwen2" << removeTensors({"model.layers.1.self_attn.v_proj.bias"})
            << "model.safetensors: model.layers.1.self_attn.v_proj.bias: missing";
        QTest::newRow("llama attention_bias without biases")
            << "llama" << patchConfig({{"attention_bias", true}})
            << "model.safetensors: model.layers.0.self_attn.q_proj.bias: missing";
        QTest::newRow("llama mlp_bias without biases")
            << "llama" << patchConfig({{"mlp_bias", true}})
            << "model.safetensors: model.layers.0.mlp.gate_proj.bias: missing";
        QTest::newRow("missing shard tensor")
            << "gpt2-noprefix-f16"
            << patchSafetensors("model-00002-of-00002.safetensors",
                                [](rawst::File& st) {
                                    QJsonObject header = st.header();
                                    header.remove("ln_f.bias");
                                    st.setHeader(header);
                                })
            << "model.safetensors.index.json: ln_f.bias: weight_map places it in "
               "model-00002-of-00002.safetensors, "
               "which has no such tensor";
        QTest::newRow("wrong shape") // "file: tensor: expected AxB, got CxD"
            << "gpt2"
            << patchSafetensors("model.safetensors",
                                [=](rawst::File& st) {
                                    QJsonObject header = st.header();
                                    QJsonObject entry = header[cAttn1].toObject();
                                    entry["shape"] = QJsonArray{16, 47};
                                    const QJsonArray offsets = entry["data_offsets"].toArray();
                                    entry["data_offsets"] =
                                        QJsonArray{offsets[0], offsets[1].toInteger() - 16 * 4};
                                    header[cAttn1] = entry;
                                    st.setHeader(header);
                                })
            << "model.safetensors: " + cAttn1 + ": expected 16x48, got 16x47";
        QTest::newRow("config and checkpoint disagree")
            << "gpt2" << patchConfig({{"vocab_size", 400}})
            << "model.safetensors: transformer.wte.weight: expected 400x16, got 413x16";
        QTest::newRow("wrong dtype")
            << "llama"
            << patchSafetensors("model.safetensors",
                                [](rawst::File& st) {
                                    QJsonObject header = st.header();
                                    QJsonObject entry =
                                        header["model.layers.0.self_attn.q_proj.weight"].toObject();
                                    entry["dtype"] = "I16";
                                    header["model.layers.0.self_attn.q_proj.weight"] = entry;
                                    st.setHeader(header);
                                })
            << "model.safetensors: model.layers.0.self_attn.q_proj.weight: dtype I16 cannot be "
               "read as weights";
        QTest::newRow("tensor outside the file")
            << "mistral"
            << patchSafetensors("model.safetensors",
                                [](rawst::File& st) {
                                    QJsonObject header = st.header();
                                    QJsonObject entry = header["lm_head.weight"].toObject();
                                    const qint64 begin =
                                        entry["data_offsets"].toArray()[0].toInteger();
                                    entry["data_offsets"] =
                                        QJsonArray{begin + st.data.size(),
                                                   begin + st.data.size() + 407 * 16 * 2};
                                    header["lm_head.weight"] = entry;
                                    st.setHeader(header);
                                })
            << "model.safetensors: tensor 'lm_head.weight': data_offsets [";
        QTest::newRow("header length past the file")
            << "bert" << Mutation([](const QString& folder) {
                   const QString path = QDir(folder).filePath("model.safetensors");
                   QByteArray bytes = rawst::readAll(path);
                   bytes.replace(0, 8, rawst::u64Bytes(std::uint64_t(bytes.size())));
                   rawst::writeAll(path, bytes);
               })
            << "model.safetensors: safetensors header length 73176 is larger than the 73168 bytes "
               "after it";
        QTest::newRow("duplicate tensor name")
            << "distilbert"
            << patchSafetensors("model.safetensors",
                                [](rawst::File& st) {
                                    const QByteArray entry =
                                        QJsonDocument(st.tensor("vocab_projector.bias"))
                                            .toJson(QJsonDocument::Compact);
                                    st.headerText = st.headerText.trimmed();
                                    st.headerText.insert(st.headerText.size() - 1,
                                                         ",\"vocab_projector.bias\":" + entry);
                                })
            << "model.safetensors: tensor 'vocab_projector.bias' is given twice";
        QTest::newRow("pytorch_model.bin only")
            << "gpt2" << Mutation([](const QString& folder) {
                   QFile::remove(QDir(folder).filePath("model.safetensors"));
                   rawst::writeAll(QDir(folder).filePath("pytorch_model.bin"), "PK\x03\x04");
               })
            << "pytorch_model.bin: PyTorch pickle weights are not read: a pickle can run arbitrary "
               "code when it is "
               "loaded, and it cannot be read safely without Python";
        QTest::newRow("shard missing")
            << "gpt2-noprefix-f16" << removeFiles({"model-00001-of-00002.safetensors"})
            << "model.safetensors.index.json: shard model-00001-of-00002.safetensors is missing";
        QTest::newRow("NaN weight (BF16)")
            << "llama"
            << patchSafetensors("model.safetensors",
                                [](rawst::File& st) {
                                    st.poke16("model.layers.1.mlp.down_proj.weight", 80 + 7,
                                              0x7fc0);
                                })
            << "model.safetensors: model.layers.1.mlp.down_proj.weight[1][7]: NaN; weights must be "
               "finite numbers";
        QTest::newRow("infinite weight (F32)")
            << "smollm"
            << patchSafetensors(
                   "model.safetensors",
                   [](rawst::File& st) { st.poke32("model.norm.weight", 4, 0xff800000u); })
            << "model.safetensors: model.norm.weight[4]: infinite";
    }
    void loadRefuses()
    {
        QFETCH(QString, fixture);
        QFETCH(Mutation, mutation);
        QFETCH(QString, fragment);
        QTemporaryDir dir;
        const QString folder = rawst::copyFixture(fixture, dir.filePath("model"));
        mutation(folder);
        expectError([&] { loadModel(folder); }, fragment);
    }

    // ---- Memory ------------------------------------------------------------------------------

    // The gpt2 fixture's 15762 weights are 63048 bytes as float32; with an eighth more and
    // 64 MiB: 67179793 bytes, 64.07 MiB. 64 MiB is refused before any weight is read; 65 MiB
    // loads.
    void refusesWhatDoesNotFitInMemory()
    {
        qputenv("ATTN_MEMORY_LIMIT_MIB", "64");
        expectError([&] { loadModel(rawst::fixture("gpt2")); },
                    "not enough memory: the model needs 64.1 MiB, 64.0 MiB are available "
                    "(ATTN_MEMORY_LIMIT_MIB)");
        qputenv("ATTN_MEMORY_LIMIT_MIB", "65");
        QCOMPARE(loadModel(rawst::fixture("gpt2"))->config().layers, 2);
        qputenv("ATTN_MEMORY_LIMIT_MIB", "lots");
        expectError([&] { loadModel(rawst::fixture("gpt2")); },
                    "ATTN_MEMORY_LIMIT_MIB: expected a whole number of MiB, got 'lots'");
    }

    // Memory that runs out all the same (a bad_alloc from inside the reading; here thrown by the
    // progress callback after the first layer) is an Error of the same kind, never bad_alloc.
    void runningOutWhileReadingIsAnError()
    {
        qputenv("ATTN_MEMORY_LIMIT_MIB", "100");
        LoadOptions options;
        options.progress = [](int, int) { throw std::bad_alloc(); };
        expectError([&] { loadModel(rawst::fixture("gpt2"), options); },
                    "not enough memory: the model needs 64.1 MiB; 100.0 MiB seemed available "
                    "(ATTN_MEMORY_LIMIT_MIB), "
                    "but it ran out while the weights were read");
    }

    // --model-info's reading: the same config, tokenizer and headers, no weight read (a NaN in
    // one is not seen; memory is not asked for).
    void infoReadsNoWeights()
    {
        QTemporaryDir dir;
        const QString folder = rawst::copyFixture("llama", dir.filePath("model"));
        patchSafetensors("model.safetensors", [](rawst::File& st) {
            st.poke16("model.layers.1.mlp.down_proj.weight", 80 + 7, 0x7fc0);
        })(folder);
        qputenv("ATTN_MEMORY_LIMIT_MIB", "1");
        const ModelInfo info = readModelInfo(folder);
        QCOMPARE(info.name, QString("model"));
        QCOMPARE(info.config.layers, 2);
        QCOMPARE(info.config.dtype, QString("BF16"));
        QCOMPARE(qint64(info.float32Bytes), qint64(201088));
        QVERIFY(info.tokenizer);
        expectError([&] { readModelInfo(dir.filePath("nothing")); }, "nothing: no such folder");
    }

    void missingTokenizerNamesTheFolder()
    {
        QTemporaryDir dir;
        const QString folder = rawst::copyFixture("bert", dir.filePath("my-bert"));
        QFile::remove(QDir(folder).filePath("vocab.txt"));
        expectError([&] { loadModel(folder); },
                    QFileInfo(folder).absoluteFilePath() + ": no tokenizer");
    }

    // Older BERT checkpoints keep the MLM bias only as cls.predictions.decoder.bias; a stored
    // (untied) decoder weight is used as the LM head.
    void bertDecoderBiasAndWeight()
    {
        QTemporaryDir dir;
        const QString folder = rawst::copyFixture("bert", dir.filePath("model"));
        const rawst::File raw = rawFile("bert");
        patchSafetensors("model.safetensors", [](rawst::File& st) {
            QJsonObject header = st.header();
            header["cls.predictions.decoder.bias"] = header.take("cls.predictions.bias");
            header["cls.predictions.decoder.weight"] =
                header.take("bert.embeddings.position_ids"); // a spare slot
            QJsonObject entry = header["cls.predictions.decoder.weight"].toObject();
            entry["dtype"] = "F32";
            entry["shape"] = QJsonArray{204, 24};
            const qint64 begin = st.data.size();
            entry["data_offsets"] = QJsonArray{begin, begin + 204 * 24 * 4};
            header["cls.predictions.decoder.weight"] = entry;
            for (int k = 0; k < 204 * 24; ++k) {
                const std::uint32_t bits = std::bit_cast<std::uint32_t>(float(k % 7) - 3.0f);
                for (int b = 0; b < 4; ++b)
                    st.data.append(char((bits >> (8 * b)) & 0xff));
            }
            st.setHeader(header);
        })(folder);
        const auto model = loadModel(folder);
        QVERIFY(model->weights.lmBias == raw.matrix("cls.predictions.bias"));
        QCOMPARE(model->weights.lmHead.rows(), 204);
        QCOMPARE(model->weights.lmHead(1, 2), float((24 + 2) % 7) - 3.0f);
        QVERIFY(&model->weights.outputEmbedding() == &model->weights.lmHead);
    }

    // 1e30 is a weight like any other for the loader; the forward reports non-finite results.
    void acceptsHugeFiniteWeights()
    {
        QTemporaryDir dir;
        const QString folder = rawst::copyFixture("gpt2", dir.filePath("model"));
        patchSafetensors("model.safetensors", [](rawst::File& st) {
            st.poke32("transformer.h.0.attn.c_attn.weight", 16 + 4,
                      std::bit_cast<std::uint32_t>(1e30f));
        })(folder);
        const auto model = loadModel(folder);
        QCOMPARE(model->weights.layers[0].attention->heads[1].Wk(0, 0),
                 1e30f); // column 16 + 4 = W_k head 1
    }

    // A checkpoint whose config names no class gets the head its tensors have.
    void missingArchitectures()
    {
        {
            QTemporaryDir dir;
            const QString folder = rawst::copyFixture("bert", dir.filePath("model"));
            patchConfig({{"architectures", QJsonValue::Null}})(folder);
            QCOMPARE(loadModel(folder)->config().objective, Objective::MaskedLm);
            QStringList head;
            for (const QString& name : rawFile("bert").header().keys())
                if (name.startsWith("cls."))
                    head << name;
            removeTensors(head)(folder);
            const auto model = loadModel(folder);
            QCOMPARE(model->config().objective, Objective::None);
            QVERIFY(!model->weights.hasLanguageModelHead());
            QVERIFY(!model->weights.headTransform.dense.present());
        }
        {
            QTemporaryDir dir;
            const QString folder = rawst::copyFixture("llama", dir.filePath("model"));
            patchConfig({{"architectures", QJsonValue::Null}})(folder);
            removeTensors({"lm_head.weight"})(folder);
            QCOMPARE(loadModel(folder)->config().objective, Objective::None);
        }
        {
            QTemporaryDir dir; // a bare GPT2Model: the same tensors, no prediction
            const QString folder = rawst::copyFixture("gpt2-noprefix-f16", dir.filePath("model"));
            patchConfig({{"architectures", QJsonArray{"GPT2Model"}}})(folder);
            const auto model = loadModel(folder);
            QCOMPARE(model->config().objective, Objective::None);
            QCOMPARE(model->config().dtype, QString("F16"));
        }
        {
            QTemporaryDir dir; // BertModel names have no "bert." prefix
            const QString folder = rawst::copyFixture("bert", dir.filePath("model"));
            patchConfig({{"architectures", QJsonArray{"BertModel"}}})(folder);
            patchSafetensors("model.safetensors", [](rawst::File& st) {
                QJsonObject header = st.header(), renamed;
                for (auto it = header.begin(); it != header.end(); ++it)
                    if (!it.key().startsWith("cls."))
                        renamed[it.key().startsWith("bert.") ? it.key().mid(5) : it.key()] =
                            it.value();
                st.setHeader(renamed);
            })(folder);
            const auto model = loadModel(folder);
            QCOMPARE(model->config().objective, Objective::None);
            QVERIFY(model->weights.tokenEmbedding ==
                    rawFile("bert").matrix("bert.embeddings.word_embeddings.weight"));
        }
    }

    // ---- Progress and cancellation ---------------------------------------------------------

    void progressAfterEachLayer_data() { weightShapes_data(); }
    void progressAfterEachLayer()
    {
        QFETCH(QString, fixture);
        std::vector<std::pair<int, int>> calls;
        LoadOptions options;
        options.progress = [&](int done, int total) { calls.emplace_back(done, total); };
        const auto model = loadModel(rawst::fixture(fixture), options);
        const int layers = model->config().layers;
        QCOMPARE(int(calls.size()), layers);
        for (int l = 0; l < layers; ++l)
            QCOMPARE(calls[std::size_t(l)], std::make_pair(l + 1, layers));
    }

    void cancel()
    {
        std::atomic<bool> cancel{true};
        LoadOptions options;
        int calls = 0;
        options.cancel = &cancel;
        options.progress = [&](int, int) { ++calls; };
        QVERIFY_THROWS_EXCEPTION(Cancelled, loadModel(rawst::fixture("gpt2"), options));
        QCOMPARE(calls, 0);

        // Cancelled while layer 1 of 3 is reported: nothing of layer 2 is read.
        cancel = false;
        options.progress = [&](int, int) {
            ++calls;
            cancel = true;
        };
        QVERIFY_THROWS_EXCEPTION(Cancelled, loadModel(rawst::fixture("distilbert"), options));
        QCOMPARE(calls, 1);

        // readTransformerWeights alone honours the flag the same way.
        cancel = true;
        const auto checkpoint = Checkpoint::open(rawst::fixture("llama"));
        QVERIFY_THROWS_EXCEPTION(
            Cancelled,
            readTransformerWeights(*checkpoint, readModelConfig(rawst::fixture("llama")), options));
    }

    // ---- The Hugging Face cache -------------------------------------------------------------

    void hubFolder()
    {
        for (const char* variable : kVariables)
            qunsetenv(variable);
        qputenv("HOME", "/home/someone");
        QCOMPARE(huggingFaceHubFolder(), QString("/home/someone/.cache/huggingface/hub"));
        qputenv("XDG_CACHE_HOME", "/xdg");
        QCOMPARE(huggingFaceHubFolder(), QString("/xdg/huggingface/hub"));
        qputenv("HF_HOME", "/hf");
        QCOMPARE(huggingFaceHubFolder(), QString("/hf/hub"));
        qputenv("HUGGINGFACE_HUB_CACHE", "/old-name");
        QCOMPARE(huggingFaceHubFolder(), QString("/old-name"));
        qputenv("HF_HUB_CACHE", "/hub-cache");
        QCOMPARE(huggingFaceHubFolder(), QString("/hub-cache"));
    }

    void resolvesCachedModels()
    {
        QTemporaryDir home;
        const QDir hub(home.filePath("hub"));
        // As huggingface_hub leaves it: blobs named by hash, snapshots of symbolic links to them,
        // refs/main naming the revision; an older snapshot beside it.
        const QString repo = hub.filePath("models--openai-community--gpt2");
        const QString snapshot = repo + "/snapshots/abc123";
        QDir().mkpath(snapshot);
        QDir().mkpath(repo + "/blobs");
        QDir().mkpath(repo + "/refs");
        for (const QString& file : QDir(rawst::fixture("gpt2")).entryList(QDir::Files)) {
            const QString blob = repo + "/blobs/" + QString::number(qHash(file), 16);
            QVERIFY(QFile::copy(rawst::fixture("gpt2/" + file), blob));
            QVERIFY(
                QFile::link("../../blobs/" + QFileInfo(blob).fileName(), snapshot + "/" + file));
        }
        rawst::writeAll(repo + "/refs/main", "abc123\n");
        rawst::copyFixture("smollm", repo + "/snapshots/older"); // not what refs/main names
        // No refs: the newest snapshot.
        rawst::copyFixture("smollm",
                           hub.filePath("models--HuggingFaceTB--SmolLM-135M/snapshots/r1"));
        // An id without organisation, as the hub's oldest repositories were cached.
        rawst::copyFixture("distilbert", hub.filePath("models--distilgpt2/snapshots/d1"));
        // The same name under two organisations.
        rawst::copyFixture("bert", hub.filePath("models--org-a--tiny-bert/snapshots/a1"));
        rawst::copyFixture("bert", hub.filePath("models--org-b--tiny-bert/snapshots/b1"));
        // refs/main naming a revision that is not there: the newest snapshot.
        rawst::copyFixture("qwen2", hub.filePath("models--Qwen--tiny/snapshots/q1"));
        QDir().mkpath(hub.filePath("models--Qwen--tiny/refs"));
        rawst::writeAll(hub.filePath("models--Qwen--tiny/refs/main"), "gone");
        // A repository whose download never finished.
        QDir().mkpath(hub.filePath("models--broken--model/snapshots"));

        for (const char* variable : kVariables)
            qunsetenv(variable);
        qputenv("HF_HOME", home.path().toUtf8());

        const QString gpt2 = QFileInfo(snapshot).absoluteFilePath();
        QCOMPARE(resolveModelFolder("openai-community/gpt2"), gpt2);
        QCOMPARE(resolveModelFolder("gpt2"), gpt2); // a bare id finds the organisation's copy
        QCOMPARE(resolveModelFolder("OpenAI-Community/GPT2"), gpt2);
        QCOMPARE(QFileInfo(resolveModelFolder("HuggingFaceTB/SmolLM-135M")).fileName(),
                 QString("r1"));
        QCOMPARE(QFileInfo(resolveModelFolder("SmolLM-135M")).fileName(), QString("r1"));
        QCOMPARE(QFileInfo(resolveModelFolder("distilgpt2")).fileName(), QString("d1"));
        QCOMPARE(QFileInfo(resolveModelFolder("Qwen/tiny")).fileName(), QString("q1"));
        expectError([] { resolveModelFolder("tiny-bert"); },
                    "tiny-bert: several cached models have this name (org-a/tiny-bert, "
                    "org-b/tiny-bert); give the full id");
        QCOMPARE(QFileInfo(resolveModelFolder("org-b/tiny-bert")).fileName(), QString("b1"));
        expectError([] { resolveModelFolder("gpt3"); },
                    "gpt3: neither a folder nor a model in the Hugging Face cache (" + home.path() +
                        "/hub has no models--gpt3 or models--*--gpt3)");
        expectError([] { resolveModelFolder("someone/gpt3"); },
                    "huggingface-cli download someone/gpt3");
        expectError([] { resolveModelFolder("broken/model"); }, "no snapshot in the cache");
        expectError([] { resolveModelFolder("/no/such/folder"); },
                    "/no/such/folder: no such folder");
        expectError([] { resolveModelFolder(""); }, "no model given");
        // A folder is taken as it is, even with a cache copy of the same name.
        QCOMPARE(resolveModelFolder(rawst::fixture("gpt2")),
                 QFileInfo(rawst::fixture("gpt2")).absoluteFilePath());

        // Loading by id reads the snapshot's links and names the model by its id.
        const auto model = loadModel("gpt2");
        QCOMPARE(model->name, QString("openai-community/gpt2"));
        QCOMPARE(model->folder, gpt2);
        QCOMPARE(model->config().layers, 2);
        QCOMPARE(loadModel(snapshot)->name, QString("openai-community/gpt2"));
        QCOMPARE(modelDisplayName(snapshot), QString("openai-community/gpt2"));
        QCOMPARE(modelDisplayName(snapshot + "/"), QString("openai-community/gpt2"));
        QCOMPARE(modelDisplayName("gpt2"), QString("gpt2"));
        QCOMPARE(modelDisplayName(rawst::fixture("gpt2")), QString("gpt2"));

        std::vector<std::pair<QString, QString>> listed;
        for (const CachedModel& cached : listCachedModels())
            listed.emplace_back(cached.id, QFileInfo(cached.folder).fileName());
        const std::vector<std::pair<QString, QString>> expected = {
            {"HuggingFaceTB/SmolLM-135M", "r1"},
            {"Qwen/tiny", "q1"},
            {"distilgpt2", "d1"},
            {"openai-community/gpt2", "abc123"},
            {"openai-community/gpt2", "older"},
            {"org-a/tiny-bert", "a1"},
            {"org-b/tiny-bert", "b1"},
        };
        QCOMPARE(listed, expected);

        // HF_HUB_CACHE wins over HF_HOME.
        QTemporaryDir other;
        qputenv("HF_HUB_CACHE", other.path().toUtf8());
        QVERIFY(listCachedModels().empty());
        expectError([] { resolveModelFolder("gpt2"); }, other.path() + " has no models--gpt2");
    }
};

QTEST_GUILESS_MAIN(TestModelLoader)
#include "tst_model_loader.moc"
