// attention-explorer --model, run as a user runs it: the dump read back with a plain JSON
// parser and compared with the independent float64 reference of each tiny checkpoint
// (tests/data/models/*/expected.json), on the CPU and on Vulkan; the predictions printed; a
// figure of one layer; every bad input with its exit code and message.

#include "support/model_fixtures.h"
#include "support/raw_safetensors.h"
#include "support/run_executable.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using attn::test::matrixOf;
using attn::test::maxDifference;
using attn::test::rowOf;

namespace {

const QString kExe = QStringLiteral(ATTN_EXPLORER_EXE);

constexpr auto run = [](const QStringList& arguments) {
    return attn::test::runExplorer(arguments);
};

double relative(const attn::core::Matrix& a, const attn::core::Matrix& b)
{
    return maxDifference(a, b) / std::max(1.0, double(b.cwiseAbs().maxCoeff()));
}

} // namespace

class TestModelCommand : public QObject
{
    Q_OBJECT

private slots:
    void dumpMatchesReference_data();
    void dumpMatchesReference();
    void headsOffOnTheCommandLine();
    void modelInfo();
    void modelInfoReadsNoWeights();
    void modelTooBigForMemory();
    void figureOfOneLayer();
    void modelFiguresFillThePage();
    void badInput_data();
    void badInput();
    void pickleIsRefused();
    void sceneNamingAModel();
    void tokenIdPastTheEmbeddingTable_data();
    void tokenIdPastTheEmbeddingTable();
    void sceneValuesAreBlamedOnTheScene_data();
    void sceneValuesAreBlamedOnTheScene();
    void headPastTheModelsHeads();
    void modelInfoOfTheFamiliesFlags_data();
    void modelInfoOfTheFamiliesFlags();
    void brokenCheckpointExits3_data();
    void brokenCheckpointExits3();
    void encoderDecoderGenerates_data();
    void encoderDecoderGenerates();
    void encoderDecoderBeams();
    void decodingTooBigForMemory();
    void decodingStopsAtTheDecodersPositions();
};

void TestModelCommand::dumpMatchesReference_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("backend");
    for (const QString& name : attn::test::modelFixtures())
        for (const char* backend : {"cpu", "vulkan"})
            QTest::addRow("%s %s", qPrintable(name), backend)
                << name << QString::fromLatin1(backend);
}

void TestModelCommand::dumpMatchesReference()
{
    QFETCH(QString, folder);
    QFETCH(QString, backend);
    const QJsonObject expected = attn::test::expectedFor(folder);
    const QJsonObject c = expected[QLatin1String("cases")].toArray()[0].toObject();
    QTemporaryDir dir;
    const QString dump = dir.filePath(QStringLiteral("out.json"));
    const auto result =
        run({QStringLiteral("--model"), attn::test::modelFixture(folder), QStringLiteral("--text"),
             c[QLatin1String("text")].toString(), QStringLiteral("--top-k"), QStringLiteral("3"),
             QStringLiteral("--dump"), dump, QStringLiteral("--backend"), backend});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    const QJsonObject out = attn::test::readJsonObject(dump);
    if (backend == QLatin1String("vulkan") && qEnvironmentVariable("CI") != QLatin1String("true") &&
        out[QLatin1String("backend")].toString() != QLatin1String("Vulkan"))
        QSKIP("no Vulkan device (CI=true makes this a failure)");
    QCOMPARE(out[QLatin1String("backend")].toString(),
             backend == QLatin1String("cpu") ? QStringLiteral("CPU") : QStringLiteral("Vulkan"));
    QCOMPARE(out[QLatin1String("model")][QLatin1String("family")].toString(),
             expected[QLatin1String("family")].toString());
    QCOMPARE(out[QLatin1String("tokenIds")].toArray(), c[QLatin1String("ids")].toArray());

    // Every layer, every head: the full T x T weights as the reference computed them.
    const QJsonArray layers = out[QLatin1String("layers")].toArray();
    const QJsonArray attention = c[QLatin1String("attention")].toArray();
    QCOMPARE(layers.size(), attention.size());
    for (int l = 0; l < layers.size(); ++l) {
        const QJsonArray heads = layers[l][QLatin1String("heads")].toArray();
        QCOMPARE(heads.size(), attention[l].toArray().size());
        for (int h = 0; h < heads.size(); ++h)
            QVERIFY2(maxDifference(matrixOf(heads[h][QLatin1String("weights")]),
                                   matrixOf(attention[l][h])) < 2e-5,
                     qPrintable(QStringLiteral("layer %1 head %2").arg(l + 1).arg(h + 1)));
    }
    // The logits: one array after the last token (causal), one object per [MASK] (masked).
    const QJsonArray want = c[QLatin1String("logits")].toArray();
    if (expected[QLatin1String("causal")].toBool()) {
        QVERIFY(relative(rowOf(out[QLatin1String("logits")]),
                         rowOf(want[0][QLatin1String("values")])) < 5e-5);
        // The first of the top predictions printed is the reference's argmax.
        Eigen::Index best = 0;
        rowOf(want[0][QLatin1String("values")]).maxCoeff(&best);
        QCOMPARE(out[QLatin1String("topK")][0][QLatin1String("id")].toInt(), int(best));
        QVERIFY(result.out.startsWith(QLatin1String("Next token:")));
    } else {
        const QJsonArray logits = out[QLatin1String("logits")].toArray();
        QCOMPARE(logits.size(), want.size());
        for (int n = 0; n < want.size(); ++n) {
            QCOMPARE(logits[n][QLatin1String("position")].toInt(),
                     want[n][QLatin1String("position")].toInt());
            QVERIFY(relative(rowOf(logits[n][QLatin1String("logits")]),
                             rowOf(want[n][QLatin1String("values")])) < 5e-5);
        }
        QVERIFY(result.out.contains(QLatin1String("([MASK]):")));
    }
    QCOMPARE(out[QLatin1String("topK")].toArray().size(),
             expected[QLatin1String("causal")].toBool() ? 3 : want.size());
}

void TestModelCommand::headsOffOnTheCommandLine()
{
    const QJsonObject c = attn::test::expectedFor(QStringLiteral("qwen2"))[QLatin1String("cases")]
                              .toArray()[1]
                              .toObject();
    QStringList pairs;
    for (const QJsonValue pair : c[QLatin1String("heads_off")].toArray())
        pairs << QStringLiteral("%1.%2").arg(pair[0].toInt()).arg(pair[1].toInt());
    QTemporaryDir dir;
    const QString dump = dir.filePath(QStringLiteral("off.json"));
    const auto result =
        run({QStringLiteral("--model"), attn::test::modelFixture(QStringLiteral("qwen2")),
             QStringLiteral("--text"), c[QLatin1String("text")].toString(),
             QStringLiteral("--heads-off"), pairs.join(QLatin1Char(',')), QStringLiteral("--dump"),
             dump, QStringLiteral("--backend"), QStringLiteral("cpu")});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    const QJsonObject out = attn::test::readJsonObject(dump);
    QCOMPARE(out[QLatin1String("headsOff")].toArray(), c[QLatin1String("heads_off")].toArray());
    QVERIFY(relative(rowOf(out[QLatin1String("logits")]),
                     rowOf(c[QLatin1String("heads_off_logits")][0][QLatin1String("values")])) <
            5e-5);
    const QJsonArray top =
        out[QLatin1String("layers")].toArray().last()[QLatin1String("heads")].toArray();
    const QJsonArray want = c[QLatin1String("heads_off_attention_last_layer")].toArray();
    for (int h = 0; h < top.size(); ++h)
        QVERIFY(maxDifference(matrixOf(top[h][QLatin1String("weights")]), matrixOf(want[h])) <
                2e-5);
}

void TestModelCommand::modelInfo()
{
    const auto result =
        run({QStringLiteral("--model"), attn::test::modelFixture(QStringLiteral("llama")),
             QStringLiteral("--model-info")});
    QCOMPARE(result.code, 0);
    for (const char* line :
         {"family:         llama, LlamaForCausalLM", "layers:         2",
          "heads:          4 (key/value heads 2), d_head 8", "dtype:          BF16",
          "tokenizer:      BPE (SentencePiece, byte fallback)", "context:        128 tokens",
          "positions:      rotary, theta 10000",
          // 50272 weights as float32, an eighth more and 64 MiB: 67335088 bytes
          "memory:         64.2 MiB to load"})
        QVERIFY2(result.out.contains(QLatin1String(line)), qPrintable(result.out));
}

// --model-info describes what config.json and the safetensors headers say: a weight that is
// NaN (which running the model refuses) is not read for it.
void TestModelCommand::modelInfoReadsNoWeights()
{
    QTemporaryDir dir;
    const QString folder =
        rawst::copyFixture(QStringLiteral("llama"), dir.filePath(QStringLiteral("model")));
    const QString weights = QDir(folder).filePath(QStringLiteral("model.safetensors"));
    rawst::File st = rawst::File::read(weights);
    st.poke16(QStringLiteral("model.layers.1.mlp.down_proj.weight"), 80 + 7, 0x7fc0);
    st.write(weights);
    auto result = run({QStringLiteral("--model"), folder, QStringLiteral("--model-info")});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains(QLatin1String("layers:         2")), qPrintable(result.out));
    result = run({QStringLiteral("--model"), folder, QStringLiteral("--text"),
                  QStringLiteral("cat"), QStringLiteral("--backend"), QStringLiteral("cpu")});
    QCOMPARE(result.code, 3);
    QVERIFY2(result.err.contains(QLatin1String("model.layers.1.mlp.down_proj.weight[1][7]: NaN")),
             qPrintable(result.err));
}

// A model bigger than the memory there is (here a budget of 1 MiB) is refused with both sizes
// before a weight is read, and is still described. The gpt2 fixture: 63048 bytes of float32, an
// eighth more and 64 MiB make 64.1 MiB.
void TestModelCommand::modelTooBigForMemory()
{
    const QStringList budget{QStringLiteral("ATTN_MEMORY_LIMIT_MIB=1")};
    auto result = attn::test::runExecutable(kExe,
                                            {QStringLiteral("--model"),
                                             attn::test::modelFixture(QStringLiteral("gpt2")),
                                             QStringLiteral("--model-info")},
                                            QString(), budget);
    QVERIFY2(result.code == 0, qPrintable(result.err));
    QVERIFY2(result.out.contains(QLatin1String(
                 "memory:         64.1 MiB to load, 1.0 MiB available (ATTN_MEMORY_LIMIT_MIB)")),
             qPrintable(result.out));
    result = attn::test::runExecutable(kExe,
                                       {QStringLiteral("--model"),
                                        attn::test::modelFixture(QStringLiteral("gpt2")),
                                        QStringLiteral("--text"), QStringLiteral("The cat"),
                                        QStringLiteral("--backend"), QStringLiteral("cpu")},
                                       QString(), budget);
    QCOMPARE(result.code, 3);
    QVERIFY2(result.err.contains(
                 QLatin1String("error: not enough memory: the model needs 64.1 MiB, 1.0 MiB are "
                               "available (ATTN_MEMORY_LIMIT_MIB)\n")),
             qPrintable(result.err));
}

void TestModelCommand::figureOfOneLayer()
{
    QTemporaryDir dir;
    const QString pdf = dir.filePath(QStringLiteral("layer2.pdf"));
    const auto result = run(
        {QStringLiteral("--model"), attn::test::modelFixture(QStringLiteral("gpt2")),
         QStringLiteral("--text"), QStringLiteral("The cat sat on the"), QStringLiteral("--layer"),
         QStringLiteral("2"), QStringLiteral("--view"), QStringLiteral("head:3"),
         QStringLiteral("--export"), pdf, QStringLiteral("--backend"), QStringLiteral("cpu")});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.read(5) == "%PDF-");
}

// --view grid|rollout|predictions at the default 1200 x 900: the figure fills the page (it
// was drawn in the top two thirds, the predictions in the top third), the grid names the
// tokens of its rows and columns, and no export carries the window's selection frame
// (Okabe-Ito blue #0072b2; --layer used to frame a head).
void TestModelCommand::modelFiguresFillThePage()
{
    QTemporaryDir dir;
    for (const QString& view :
         {QStringLiteral("grid"), QStringLiteral("rollout"), QStringLiteral("predictions")}) {
        const QString png = dir.filePath(view + QStringLiteral(".png"));
        const QString svg = dir.filePath(view + QStringLiteral(".svg"));
        for (const QString& path : {png, svg}) {
            const auto result =
                run({QStringLiteral("--model"), attn::test::modelFixture(QStringLiteral("gpt2")),
                     QStringLiteral("--text"), QStringLiteral("The cat sat on the"),
                     QStringLiteral("--layer"), QStringLiteral("1"), QStringLiteral("--view"), view,
                     QStringLiteral("--export"), path, QStringLiteral("--backend"),
                     QStringLiteral("cpu")});
            QVERIFY2(result.code == 0, qPrintable(result.err));
        }
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1200, 900));
        int top = image.height(), bottom = -1, left = image.width(), right = -1;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (image.pixel(x, y) != qRgb(255, 255, 255)) {
                    top = std::min(top, y);
                    bottom = std::max(bottom, y);
                    left = std::min(left, x);
                    right = std::max(right, x);
                }
        const QString box = QStringLiteral("%1: drawn from (%2, %3) to (%4, %5)")
                                .arg(view)
                                .arg(left)
                                .arg(top)
                                .arg(right)
                                .arg(bottom);
        // Most of the page, and centred on it (the old drawings ended two thirds down).
        QVERIFY2(bottom - top >= 0.7 * 900 && right - left >= 0.85 * 1200, qPrintable(box));
        QVERIFY2(std::abs((top + bottom) / 2.0 - 450) <= 90, qPrintable(box));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY2(!text.contains(QLatin1String("#0072b2"), Qt::CaseInsensitive), qPrintable(view));
        if (view == QLatin1String("grid"))
            for (const QString& token :
                 {QStringLiteral(">The<"), QStringLiteral(">“ cat”<"), QStringLiteral(">“ sat”<"),
                  QStringLiteral(">“ on”<"), QStringLiteral(">“ the”<")})
                QVERIFY2(text.count(token) == 2 + 4,
                         qPrintable(token)); // each layer's queries, each head's keys
    }
}

void TestModelCommand::badInput_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QString gpt2 = attn::test::modelFixture(QStringLiteral("gpt2"));
    const QString text = QStringLiteral("The cat");
    QTest::newRow("no such folder")
        << QStringList{QStringLiteral("--model"), QStringLiteral("/nonexistent/model"),
                       QStringLiteral("--text"), text}
        << 3 << QStringLiteral("/nonexistent/model");
    QTest::newRow("no text") << QStringList{QStringLiteral("--model"), gpt2} << 2
                             << QStringLiteral("--model needs --text");
    QTest::newRow("sampling an encoder-decoder model")
        << QStringList{QStringLiteral("--model"),
                       attn::test::modelFixture(QStringLiteral("bart")),
                       QStringLiteral("--text"),
                       text,
                       QStringLiteral("--generate"),
                       QStringLiteral("3"),
                       QStringLiteral("--temperature"),
                       QStringLiteral("0.7")}
        << 3
        << QStringLiteral("--generate: an encoder-decoder model decodes greedily here; "
                          "--temperature, --top-k, --top-p, --repetition-penalty, --seed and "
                          "--stop are for decoder-only models");
    QTest::newRow("beams on a decoder-only model")
        << QStringList{QStringLiteral("--model"),    gpt2,
                       QStringLiteral("--text"),     text,
                       QStringLiteral("--generate"), QStringLiteral("3"),
                       QStringLiteral("--beam"),     QStringLiteral("2")}
        << 3
        << QStringLiteral("--beam: beam search is for encoder-decoder models (BART, Marian, T5); "
                          "this one generates greedily or by sampling");
    QTest::newRow("beams without --generate")
        << QStringList{QStringLiteral("--model"), gpt2,
                       QStringLiteral("--text"),  text,
                       QStringLiteral("--beam"),  QStringLiteral("2")}
        << 2 << QStringLiteral("--beam needs --seq2seq DIR, --seq2seq-train TASK or --generate N");
    QTest::newRow("empty text") << QStringList{QStringLiteral("--model"), gpt2,
                                               QStringLiteral("--text"), QStringLiteral(" ")}
                                << 3 << QStringLiteral("text: the sentence is empty");
    QTest::newRow("layer past the top")
        << QStringList{QStringLiteral("--model"), gpt2,
                       QStringLiteral("--text"),  text,
                       QStringLiteral("--layer"), QStringLiteral("3")}
        << 3 << QStringLiteral("--layer 3: the model has 2 layers");
    QTest::newRow("head past the last")
        << QStringList{QStringLiteral("--model"),     gpt2,
                       QStringLiteral("--text"),      text,
                       QStringLiteral("--heads-off"), QStringLiteral("1.5")}
        << 3 << QStringLiteral("--heads-off 1.5: the model has 2 layers of 4 heads");
    QTest::newRow("malformed heads")
        << QStringList{QStringLiteral("--model"),     gpt2,
                       QStringLiteral("--text"),      text,
                       QStringLiteral("--heads-off"), QStringLiteral("1-2")}
        << 2 << QStringLiteral("expected LAYER.HEAD pairs");
    QTest::newRow("mode without a layer")
        << QStringList{QStringLiteral("--model"), gpt2,
                       QStringLiteral("--text"),  text,
                       QStringLiteral("--mode"),  QStringLiteral("dot")}
        << 2 << QStringLiteral("--edit-layer N");
    QTest::newRow("source with a model")
        << QStringList{QStringLiteral("--model"),  gpt2,
                       QStringLiteral("--text"),   text,
                       QStringLiteral("--source"), QStringLiteral("Le chat")}
        << 2 << QStringLiteral("--source cannot be used with --model");
    QTest::newRow("layer without a model")
        << QStringList{QStringLiteral("--layer"), QStringLiteral("2")} << 2
        << QStringLiteral("--layer needs --model");
    QTest::newRow("too long for its positions")
        << QStringList{QStringLiteral("--model"), gpt2, QStringLiteral("--text"),
                       QStringLiteral("cat ").repeated(40)}
        << 3 << QStringLiteral("32");
}

void TestModelCommand::badInput()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, code);
    QFETCH(QString, message);
    const auto result = run(arguments << QStringLiteral("--backend") << QStringLiteral("cpu"));
    QCOMPARE(result.code, code);
    QVERIFY2(result.err.contains(message), qPrintable(result.err));
}

// A folder with only pytorch_model.bin: refused, with why and how to convert it.
void TestModelCommand::pickleIsRefused()
{
    QTemporaryDir dir;
    for (const char* name : {"config.json", "vocab.json", "merges.txt"})
        QVERIFY(QFile::copy(attn::test::modelFixture(QStringLiteral("gpt2")) + QLatin1Char('/') +
                                QLatin1String(name),
                            dir.filePath(QLatin1String(name))));
    QFile pickle(dir.filePath(QStringLiteral("pytorch_model.bin")));
    QVERIFY(pickle.open(QIODevice::WriteOnly));
    pickle.write("PK\x03\x04 not really a zip");
    pickle.close();
    const auto result = run(
        {QStringLiteral("--model"), dir.path(), QStringLiteral("--text"), QStringLiteral("cat")});
    QCOMPARE(result.code, 3);
    QVERIFY2(result.err.contains(QLatin1String("pytorch_model.bin")) &&
                 result.err.contains(QLatin1String("safe")),
             qPrintable(result.err));
}

// A scene file that names a checkpoint reopens the same run: its text, interventions and
// the layer and head it shows (the model folder relative to the scene).
void TestModelCommand::sceneNamingAModel()
{
    QTemporaryDir dir;
    const QString relative =
        QDir(dir.path()).relativeFilePath(attn::test::modelFixture(QStringLiteral("gpt2")));
    QFile scene(dir.filePath(QStringLiteral("gpt2-layer2.json")));
    QVERIFY(scene.open(QIODevice::WriteOnly));
    scene.write(
        QStringLiteral(
            R"({"format": "attention-explorer-scene", "version": 2, "text": "The cat sat on the",
        "view": {"view": "head:3"},
        "checkpoint": {"path": "%1", "layer": 2, "heads_off": [[1, 2]]}})")
            .arg(relative)
            .toUtf8());
    scene.close();
    const QString dump = dir.filePath(QStringLiteral("out.json"));
    auto result = run({scene.fileName(), QStringLiteral("--dump"), dump,
                       QStringLiteral("--backend"), QStringLiteral("cpu")});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    const QJsonObject out = attn::test::readJsonObject(dump);
    QCOMPARE(out[QLatin1String("headsOff")].toArray(), (QJsonArray{QJsonArray{1, 2}}));
    QCOMPARE(out[QLatin1String("tokens")].toArray().size(), 5);
    QVERIFY(!out[QLatin1String("layers")][0][QLatin1String("heads")][1][QLatin1String("enabled")]
                 .toBool());
    // The same run as the command line's own options give.
    const QString again = dir.filePath(QStringLiteral("again.json"));
    result = run({QStringLiteral("--model"), attn::test::modelFixture(QStringLiteral("gpt2")),
                  QStringLiteral("--text"), QStringLiteral("The cat sat on the"),
                  QStringLiteral("--heads-off"), QStringLiteral("1.2"), QStringLiteral("--dump"),
                  again, QStringLiteral("--backend"), QStringLiteral("cpu")});
    QCOMPARE(attn::test::readJsonObject(again)[QLatin1String("logits")],
             out[QLatin1String("logits")]);
    const QString png = dir.filePath(QStringLiteral("head3.png"));
    result = run({scene.fileName(), QStringLiteral("--export"), png, QStringLiteral("--backend"),
                  QStringLiteral("cpu")});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    QVERIFY(QFileInfo(png).size() > 1000);
}

// A tokenizer whose vocabulary is larger than the checkpoint's embedding table: "!" (id 0 of
// the tiny GPT-2) is given an id the 413-row table has no row for. Every path that reads the
// table refuses it with the forward pass's message; the embedding map read memory past the
// table (a point from nowhere, or a segmentation fault for a huge id).
void TestModelCommand::tokenIdPastTheEmbeddingTable_data()
{
    QTest::addColumn<int>("id");
    QTest::addColumn<QStringList>("arguments");
    for (const int id : {413, 5000, 2000000000})
        for (const char* view : {"embedding-space", "head:1"})
            QTest::addRow("id %d, %s", id, view)
                << id << QStringList{QStringLiteral("--view"), QLatin1String(view)};
}

void TestModelCommand::tokenIdPastTheEmbeddingTable()
{
    QFETCH(int, id);
    QFETCH(QStringList, arguments);
    QTemporaryDir dir;
    for (const char* name :
         {"config.json", "model.safetensors", "merges.txt", "tokenizer_config.json"})
        QVERIFY(QFile::copy(attn::test::modelFixture(QStringLiteral("gpt2")) + QLatin1Char('/') +
                                QLatin1String(name),
                            dir.filePath(QLatin1String(name))));
    QJsonObject vocab = attn::test::readJsonObject(
        attn::test::modelFixture(QStringLiteral("gpt2")) + QStringLiteral("/vocab.json"));
    QCOMPARE(vocab.value(QStringLiteral("!")).toInt(), 0);
    vocab.insert(QStringLiteral("!"), id);
    QFile file(dir.filePath(QStringLiteral("vocab.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(vocab).toJson());
    file.close();
    const QString out = dir.filePath(QStringLiteral("out.png"));
    const auto result =
        run(arguments + QStringList{QStringLiteral("--model"), dir.path(), QStringLiteral("--text"),
                                    QStringLiteral("!"), QStringLiteral("--export"), out,
                                    QStringLiteral("--backend"), QStringLiteral("cpu")});
    QCOMPARE(result.code, 3);
    const QString message =
        QStringLiteral("token 1 ('!'): id %1 is outside the model's 413-row embedding").arg(id);
    QVERIFY2(result.err.contains(message), qPrintable(result.err));
    QVERIFY(!QFile::exists(out));
}

// A scene that names a checkpoint: a layer, head or heads off the model lacks is blamed on the
// scene's key, not on an option that was never given.
void TestModelCommand::sceneValuesAreBlamedOnTheScene_data()
{
    QTest::addColumn<QString>("checkpoint");
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("message");
    QTest::newRow("layer 99")
        << QStringLiteral(R"("layer": 99)") << QString()
        << QStringLiteral("scene.json: checkpoint.layer 99: the model has 2 layers (1 to 2)");
    QTest::newRow("head 99")
        << QStringLiteral(R"("layer": 1, "head": 99)") << QString()
        << QStringLiteral(
               "scene.json: checkpoint.head 99: the model's layers have 4 heads (1 to 4)");
    QTest::newRow("head 99 beside a view")
        << QStringLiteral(R"("head": 99)") << QStringLiteral("head:2")
        << QStringLiteral("scene.json: checkpoint.head 99: the model's layers have 4 heads");
    QTest::newRow("view of head 9")
        << QStringLiteral(R"("layer": 2)") << QStringLiteral("head:9")
        << QStringLiteral("scene.json: view.view head:9: the model's layers have 4 heads (1 to 4)");
    QTest::newRow("heads off")
        << QStringLiteral(R"("heads_off": [[1, 5]])") << QString()
        << QStringLiteral(
               "scene.json: checkpoint.heads_off 1.5: the model has 2 layers of 4 heads");
}

void TestModelCommand::sceneValuesAreBlamedOnTheScene()
{
    QFETCH(QString, checkpoint);
    QFETCH(QString, view);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QFile scene(dir.filePath(QStringLiteral("scene.json")));
    QVERIFY(scene.open(QIODevice::WriteOnly));
    scene.write(QStringLiteral(
                    R"({"format": "attention-explorer-scene", "version": 2, "text": "The cat sat",
        %1 "checkpoint": {"path": "%2", %3}})")
                    .arg(view.isEmpty() ? QString()
                                        : QStringLiteral(R"("view": {"view": "%1"},)").arg(view),
                         attn::test::modelFixture(QStringLiteral("gpt2")), checkpoint)
                    .toUtf8());
    scene.close();
    for (const char* output : {"out.png", "out.csv"}) {
        const QString out = dir.filePath(QLatin1String(output));
        const auto result = run({scene.fileName(),
                                 QLatin1String(output).endsWith(QLatin1String(".png"))
                                     ? QStringLiteral("--export")
                                     : QStringLiteral("--export-matrix"),
                                 out, QStringLiteral("--backend"), QStringLiteral("cpu")});
        QCOMPARE(result.code, 3);
        QVERIFY2(result.err.contains(message), qPrintable(result.err));
        QVERIFY2(!result.err.contains(QLatin1String("--")), qPrintable(result.err));
        QVERIFY(!QFile::exists(out));
    }
}

// --view head:N past the model's heads, on the command line: refused before the run (a figure
// or matrix of another head, or none, with exit 0 otherwise).
void TestModelCommand::headPastTheModelsHeads()
{
    QTemporaryDir dir;
    for (const char* output : {"--export", "--export-matrix"}) {
        const QString out = dir.filePath(QLatin1String(output) == QLatin1String("--export")
                                             ? QStringLiteral("h.png")
                                             : QStringLiteral("h.csv"));
        const auto result =
            run({QStringLiteral("--model"), attn::test::modelFixture(QStringLiteral("gpt2")),
                 QStringLiteral("--text"), QStringLiteral("The cat"), QStringLiteral("--view"),
                 QStringLiteral("head:5"), QLatin1String(output), out, QStringLiteral("--backend"),
                 QStringLiteral("cpu")});
        QCOMPARE(result.code, 3);
        QVERIFY2(result.err.contains(
                     QLatin1String("--view head:5: the model's layers have 4 heads (1 to 4)")),
                 qPrintable(result.err));
        QVERIFY(!QFile::exists(out));
    }
}

// --model-info says what sets a family apart: partial rotary, parallel blocks, an offset.
void TestModelCommand::modelInfoOfTheFamiliesFlags_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QStringList>("lines");
    QTest::newRow("pythia") << "pythia"
                            << QStringList{"positions:      rotary on 4 of 16 head dimensions, "
                                           "theta 10000",
                                           "normalisation:  LayerNorm, before each sub-layer; "
                                           "attention and feed-forward side by side"};
    QTest::newRow("phi") << "phi"
                         << QStringList{"positions:      rotary on 4 of 12 head dimensions, "
                                        "theta 10000",
                                        "attention and feed-forward side by side"};
    QTest::newRow("opt") << "opt"
                         << QStringList{"positions:      learned, position p in row p + 2",
                                        "normalisation:  LayerNorm, before each sub-layer\n"};
    QTest::newRow("gemma") << "gemma"
                           << QStringList{"positions:      rotary, theta 10000",
                                          "heads:          2 (key/value heads 1), d_head 12"};
    QTest::newRow("bart") << "bart"
                          << QStringList{"layers:         encoder 2 (4 heads, feed-forward 40), "
                                         "decoder 3 with cross-attention",
                                         "positions:      learned, position p in row p + 2",
                                         "normalisation:  LayerNorm, after each residual sum",
                                         "parameters:     22181"};
    QTest::newRow("marian") << "marian"
                            << QStringList{"layers:         encoder 2 (2 heads, feed-forward "
                                           "40), decoder 2 with cross-attention",
                                           "positions:      sinusoidal (sin and cos halves), "
                                           "not learned",
                                           "parameters:     18147"};
    // By hand in tst_encoder_decoder (t5Config).
    QTest::newRow("t5") << "t5"
                        << QStringList{"layers:         encoder 2 (4 heads, feed-forward 32), "
                                       "decoder 3 with cross-attention",
                                       "positions:      relative bias per head, 8 buckets, the "
                                       "last from distance 16",
                                       "normalisation:  RMSNorm, before each sub-layer",
                                       "parameters:     14640"};
}

void TestModelCommand::modelInfoOfTheFamiliesFlags()
{
    QFETCH(QString, folder);
    QFETCH(QStringList, lines);
    const auto result = run({QStringLiteral("--model"), attn::test::modelFixture(folder),
                             QStringLiteral("--model-info")});
    QCOMPARE(result.code, 0);
    for (const QString& line : lines)
        QVERIFY2(result.out.contains(line), qPrintable(result.out));
}

// A checkpoint the registry cannot read (an unknown model_type, a tensor missing or of the
// wrong shape for its config) exits 3 naming the file and the key or the tensor.
void TestModelCommand::brokenCheckpointExits3_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QJsonObject>("changes");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown model_type")
        << "pythia" << QJsonObject{{QStringLiteral("model_type"), QStringLiteral("mbart")}}
        << "config.json: model_type: 'mbart' is not supported (gpt2, bert";
    QTest::newRow("misshapen relative position bias")
        << "t5" << QJsonObject{{QStringLiteral("relative_attention_num_buckets"), 10}}
        << "model.safetensors: encoder.block.0.layer.0.SelfAttention.relative_attention_bias."
           "weight: expected 10x4, got 8x4";
    QTest::newRow("unknown feed_forward_proj")
        << "flan-t5"
        << QJsonObject{{QStringLiteral("feed_forward_proj"), QStringLiteral("gated-foo")}}
        << "config.json: feed_forward_proj: 'gated-foo' is not supported (relu, gated-gelu";
    QTest::newRow("missing tensor")
        << "opt" << QJsonObject{{QStringLiteral("tie_word_embeddings"), false}}
        << "model.safetensors: lm_head.weight: missing";
    QTest::newRow("misshapen tensor")
        << "phi" << QJsonObject{{QStringLiteral("intermediate_size"), 65}}
        << "model.safetensors: model.layers.0.mlp.fc1.weight: expected 65x24, got 64x24";
    QTest::newRow("missing encoder-decoder tensor")
        << "bart" << QJsonObject{{QStringLiteral("encoder_layers"), 3}}
        << "model.safetensors: model.encoder.layers.2.self_attn_layer_norm.weight: missing";
    QTest::newRow("misshapen encoder-decoder tensor")
        << "bart" << QJsonObject{{QStringLiteral("decoder_ffn_dim"), 50}}
        << "model.safetensors: model.decoder.layers.0.fc1.weight: expected 50x16, got 48x16";
}

void TestModelCommand::brokenCheckpointExits3()
{
    QFETCH(QString, folder);
    QFETCH(QJsonObject, changes);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString model = rawst::copyFixture(folder, dir.filePath(QStringLiteral("model")));
    QJsonObject config =
        attn::test::readJsonObject(QDir(model).filePath(QStringLiteral("config.json")));
    for (auto it = changes.begin(); it != changes.end(); ++it)
        config[it.key()] = it.value();
    rawst::writeAll(QDir(model).filePath(QStringLiteral("config.json")),
                    QJsonDocument(config).toJson());
    const auto result =
        run({QStringLiteral("--model"), model, QStringLiteral("--text"), QStringLiteral("The cat"),
             QStringLiteral("--backend"), QStringLiteral("cpu")});
    QCOMPARE(result.code, 3);
    QVERIFY2(result.err.contains(message), qPrintable(result.err));
}

void TestModelCommand::encoderDecoderGenerates_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("backend");
    for (const char* folder : {"bart", "t5", "flan-t5"})
        for (const char* backend : {"cpu", "vulkan"})
            QTest::addRow("%s %s", folder, backend) << folder << backend;
}

void TestModelCommand::encoderDecoderGenerates()
{
    // BART and T5: --text is the source; --generate decodes greedily from
    // decoder_start_token_id, as PyTorch's greedy decoding did (tests/data/models/FOLDER/
    // expected_seq2seq.json).
    QFETCH(QString, folder);
    QFETCH(QString, backend);
    QFile file(attn::test::modelFixture(folder) + QStringLiteral("/expected_seq2seq.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject e = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonObject c = e[QLatin1String("cases")].toArray()[0].toObject();
    QTemporaryDir dir;
    const QString dump = dir.filePath(QStringLiteral("out.json"));
    const auto result = run({QStringLiteral("--model"), attn::test::modelFixture(folder),
                             QStringLiteral("--text"), e[QLatin1String("source_text")].toString(),
                             QStringLiteral("--generate"), QStringLiteral("8"),
                             QStringLiteral("--dump"), dump, QStringLiteral("--backend"), backend});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    const QJsonObject out = attn::test::readJsonObject(dump);
    if (backend == QLatin1String("vulkan") && qEnvironmentVariable("CI") != QLatin1String("true") &&
        out[QLatin1String("backend")].toString() != QLatin1String("Vulkan"))
        QSKIP("no Vulkan device (CI=true makes this a failure)");
    QVERIFY(result.out.startsWith(QLatin1String("generated: ")));
    QCOMPARE(out[QLatin1String("generated")].toArray(), e[QLatin1String("generated")].toArray());
    QCOMPARE(out[QLatin1String("sourceIds")].toArray(), e[QLatin1String("source_ids")].toArray());
    QCOMPARE(out[QLatin1String("tokenIds")].toArray(), e[QLatin1String("target_ids")].toArray());
    QCOMPARE(out[QLatin1String("decoderLayers")], out[QLatin1String("layers")]);
    for (const auto& [key, want] : {std::pair{"encoderLayers", "encoder_attention"},
                                    std::pair{"decoderLayers", "decoder_attention"},
                                    std::pair{"crossLayers", "cross_attention"}}) {
        const QJsonArray layers = out[QLatin1String(key)].toArray();
        const QJsonArray attention = c[QLatin1String(want)].toArray();
        QCOMPARE(layers.size(), attention.size());
        for (int l = 0; l < layers.size(); ++l) {
            const QJsonArray heads = layers[l][QLatin1String("heads")].toArray();
            QCOMPARE(heads.size(), attention[l].toArray().size());
            for (int h = 0; h < heads.size(); ++h)
                QVERIFY2(
                    maxDifference(matrixOf(heads[h][QLatin1String("weights")]),
                                  matrixOf(attention[l][h])) < 2e-5,
                    qPrintable(QStringLiteral("%1 %2 head %3").arg(key).arg(l + 1).arg(h + 1)));
        }
    }
    QVERIFY(relative(rowOf(out[QLatin1String("logits")]), rowOf(c[QLatin1String("logits_last")])) <
            5e-5);
}

void TestModelCommand::encoderDecoderBeams()
{
    // Four beams on the tiny BART checkpoint choose 206 x5, 150 x3 where greedy writes 241,
    // 73 ... (tests/data/models/beam_expected.json, beam_reference.py's float64 search).
    QTemporaryDir dir;
    const QString dump = dir.filePath(QStringLiteral("out.json"));
    const auto result =
        run({QStringLiteral("--model"), attn::test::modelFixture(QStringLiteral("bart")),
             QStringLiteral("--text"), QStringLiteral("Hi cat"), QStringLiteral("--generate"),
             QStringLiteral("8"), QStringLiteral("--beam"), QStringLiteral("4"),
             QStringLiteral("--dump"), dump});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    const QJsonObject out = attn::test::readJsonObject(dump);
    QCOMPARE(out[QLatin1String("generated")].toArray(),
             QJsonArray({206, 206, 206, 206, 206, 150, 150, 150}));
    QCOMPARE(out[QLatin1String("crossLayers")]
                 .toArray()[0][QLatin1String("heads")][0][QLatin1String("weights")]
                 .toArray()
                 .size(),
             9); // the decoder start token and the eight words
}

// T5 has no length limit of its own but its 512 positions: 100000 tokens are 511 after the
// decoder start token. By hand (decodingMemory's list, as in tst_encoder_decoder) for the tiny t5
// and its 3 source tokens (Hi, cat, </s>), a step's forward over t rows keeps 16 t^2 + 596 t +
// 352 floats; for t = 1 ... 512: 16 x 44870400 + 596 x 131328 + 352 x 512 = 796378112, with
// 49056 floats of keys and values and 288 of cross keys and values 3185709824 bytes (3.0 GiB;
// the 64 beams' search takes only 25265280). In a budget of 100 MiB (104857600 bytes, in which
// the model itself loads: 64.1 MiB) 151 tokens fit (16 x 1182180 + 596 x 11628 + 352 x 152 +
// 14496 + 288 floats: 103653824 bytes), 152 do not (105518544). The request is refused before
// anything is decoded, with exit 3 as other input that cannot be used; a shorter decoding in the
// same budget runs.
void TestModelCommand::decodingTooBigForMemory()
{
    const QStringList budget{QStringLiteral("ATTN_MEMORY_LIMIT_MIB=100")};
    const QStringList t5{
        QStringLiteral("--model"),   attn::test::modelFixture(QStringLiteral("t5")),
        QStringLiteral("--text"),    QStringLiteral("Hi cat"),
        QStringLiteral("--backend"), QStringLiteral("cpu")};
    auto result = attn::test::runExecutable(
        kExe,
        t5 + QStringList{QStringLiteral("--generate"), QStringLiteral("100000"),
                         QStringLiteral("--beam"), QStringLiteral("64")},
        QString(), budget);
    QCOMPARE(result.code, 3);
    QVERIFY2(result.err.contains(QLatin1String(
                 "error: decoding 511 tokens with 64 beams needs 3.0 GiB for the decoder's keys, "
                 "values and attention weights; 100.0 MiB is available (ATTN_MEMORY_LIMIT_MIB): "
                 "at most 151 tokens fit with 64 beams\n")),
             qPrintable(result.err));
    result = attn::test::runExecutable(
        kExe,
        t5 + QStringList{QStringLiteral("--generate"), QStringLiteral("8"),
                         QStringLiteral("--beam"), QStringLiteral("4")},
        QString(), budget);
    QVERIFY2(result.code == 0, qPrintable(result.err));
    QVERIFY2(result.out.startsWith(QLatin1String("generated: ")), qPrintable(result.out));
}

// T5's n_positions bounds its decoding (the length it was trained for): asked for more, the
// command line decodes n_positions - 1 new tokens after the start token and says why it stopped.
void TestModelCommand::decodingStopsAtTheDecodersPositions()
{
    QTemporaryDir dir;
    const QString model = rawst::copyFixture(QStringLiteral("t5"), dir.filePath("model"));
    QJsonObject config =
        attn::test::readJsonObject(QDir(model).filePath(QStringLiteral("config.json")));
    config[QStringLiteral("n_positions")] = 6;
    rawst::writeAll(QDir(model).filePath(QStringLiteral("config.json")),
                    QJsonDocument(config).toJson());
    const QString dump = dir.filePath(QStringLiteral("out.json"));
    const QStringList t5{QStringLiteral("--model"),   model,
                         QStringLiteral("--text"),    QStringLiteral("Hi cat"),
                         QStringLiteral("--backend"), QStringLiteral("cpu"),
                         QStringLiteral("--dump"),    dump};
    const QString note = QStringLiteral("--generate 9: decoded 5 new tokens, as many as the "
                                        "decoder's 6 positions hold after its start token");
    auto result = run(t5 + QStringList{QStringLiteral("--generate"), QStringLiteral("9")});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    QVERIFY2(result.err.contains(note + QLatin1Char('\n')), qPrintable(result.err));
    QJsonObject out = attn::test::readJsonObject(dump);
    QCOMPARE(out[QLatin1String("generated")].toArray().size(), 5);
    QCOMPARE(out[QLatin1String("warnings")].toArray(), QJsonArray{note});
    // Five asked, five decoded: nothing to say.
    result = run(t5 + QStringList{QStringLiteral("--generate"), QStringLiteral("5")});
    QVERIFY2(result.code == 0, qPrintable(result.err));
    QVERIFY2(!result.err.contains(QLatin1String("positions hold")), qPrintable(result.err));
    out = attn::test::readJsonObject(dump);
    QCOMPARE(out[QLatin1String("generated")].toArray().size(), 5);
    QCOMPARE(out[QLatin1String("warnings")].toArray(), QJsonArray{});
}

QTEST_GUILESS_MAIN(TestModelCommand)
#include "tst_model_command.moc"
