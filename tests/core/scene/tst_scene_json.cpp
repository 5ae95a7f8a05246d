// Scene files: round trips that reproduce the figure bit for bit, generated defaults for
// what a file leaves out, and a malformed corpus where every file must give a message that
// names the offending key (docs/SCENE_FORMAT.md).

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/scene_json.h"
#include "core/word_vectors.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

using namespace attn::core;

namespace {

QString scenesDir()
{
    return QStringLiteral(ATTN_TEST_DATA_DIR "/scenes");
}

QString validScene(const QString& name)
{
    return scenesDir() + QStringLiteral("/valid/") + name;
}

// What a call threw: the tests insist on attn::core::Error, never another type.
struct Outcome
{
    enum Kind { Nothing, AttnError, OtherException } kind = Nothing;
    std::string message;
};

template <typename F> Outcome outcomeOf(F&& f)
{
    try {
        f();
    } catch (const Error& error) {
        return {Outcome::AttnError, error.what()};
    } catch (const std::exception& error) {
        return {Outcome::OtherException, error.what()};
    } catch (...) {
        return {Outcome::OtherException, "(not a std::exception)"};
    }
    return {};
}

// Bit-for-bit: -0 vs 0 and every last ulp count, which operator== would not show.
template <typename Derived>
bool sameBits(const Eigen::DenseBase<Derived>& a, const Eigen::DenseBase<Derived>& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           (a.size() == 0 || std::memcmp(a.derived().data(), b.derived().data(),
                                         sizeof(float) * std::size_t(a.size())) == 0);
}

bool sameWeightBits(const ModelWeights& a, const ModelWeights& b)
{
    if (a.dModel != b.dModel || a.dK != b.dK || a.dV != b.dV || a.headCount() != b.headCount())
        return false;
    for (int h = 0; h < a.headCount(); ++h) {
        const HeadWeights& x = a.heads[std::size_t(h)];
        const HeadWeights& y = b.heads[std::size_t(h)];
        if (x.enabled != y.enabled || !sameBits(x.Wq, y.Wq) || !sameBits(x.Wk, y.Wk) ||
            !sameBits(x.Wv, y.Wv) || !sameBits(x.bq, y.bq) || !sameBits(x.bk, y.bk) ||
            !sameBits(x.bv, y.bv) || !sameBits(x.wAdditive, y.wAdditive) ||
            !sameBits(x.bilinear, y.bilinear))
            return false;
    }
    return sameBits(a.Wo, b.Wo) && sameBits(a.bo, b.bo);
}

// QCOMPARE-able names for the settings enums (their toString gives std::string_view).
template <typename Enum> QString name(Enum value)
{
    const std::string_view text = toString(value);
    return QString::fromLatin1(text.data(), qsizetype(text.size()));
}

// A scene that uses every part of the format: cross-attention, every mask, padding, a
// table embedding, a positional table, biases, a disabled head and non-default view.
Scene richScene()
{
    Scene scene = makeScene(QStringLiteral("The black cat ate the mouse ."), 8, 2, 42);
    scene.title = QStringLiteral("Le chat noir — cross-attention");
    scene.description = QStringLiteral("queries from the English, keys and values from the French");
    scene.source = QStringLiteral("Le chat noir a mangé la souris");
    scene.tokenizer = {TokenizerMode::Whitespace, true, SpecialTokens::Bert};
    scene.paddingToken = QStringLiteral("[PAD]");
    scene.paddingPositions = {3, 5};

    scene.embedding.kind = EmbeddingKind::Table;
    scene.embedding.seed = 9;
    scene.embedding.table[QStringLiteral("the")] = {0.1f, 0.2f,  0.3f, -0.4f,
                                                    0.5f, 1e-3f, 7.0f, -8.25f};
    scene.embedding.table[QStringLiteral("chat")] = {1.0f / 3.0f, 0, 0, 1, 0, 0, 0, -1e-7f};

    scene.positional.kind = PositionalKind::Table;
    scene.positional.table = Matrix(12, 8);
    for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 8; ++j)
            scene.positional.table(i, j) = std::sin(0.37f * float(i * 8 + j)) / float(j + 1);

    ModelWeights& w = scene.weights;
    w.heads[0].Wq(0, 0) = 0.1f; // the test of the number format looks for "0.1"
    w.heads[0].bq = RowVector::Constant(w.dK, 0.125f);
    w.heads[0].bk = RowVector::LinSpaced(w.dK, -1.0f, 1.0f);
    w.heads[0].bv = RowVector::Constant(w.dV, -0.3f);
    w.heads[1].enabled = false;
    w.bo = RowVector::LinSpaced(w.dModel, 0.01f, 0.08f);

    scene.score = ScoreKind::Additive;
    scene.normalization = Normalization::Softmax;
    scene.temperature = 0.7f;
    scene.fill = MaskFill::MinusNineE15;
    scene.mask.causal = false;
    scene.mask.window = 3;
    scene.mask.windowCausal = true;
    scene.mask.padding = true;
    scene.mask.customCells = {{0, 1}, {2, 3}};

    scene.view.view = QStringLiteral("heads");
    scene.view.colormap = QStringLiteral("cividis");
    scene.view.showValues = false;
    scene.view.valuePrecision = 4;
    scene.view.compareScore = QStringLiteral("dot");
    scene.view.theme = QStringLiteral("dark");
    return scene;
}

std::shared_ptr<const AttentionResult> compute(const Scene& scene)
{
    CpuBackend backend;
    return backend.compute(resolveProblem(scene), ComputeOptions{});
}

// Each malformed file and a substring its message must contain.
const std::vector<std::pair<const char*, const char*>>& malformedCases()
{
    static const std::vector<std::pair<const char*, const char*>> cases = {
        {"truncated.json", "invalid JSON at offset 122: unterminated object"},
        {"empty.json", "invalid JSON at offset 0: "},
        {"not_object.json", "expected a JSON object at the top level, got an array"},
        {"missing_text.json", "text: missing"},
        {"text_not_string.json", "text: expected a string, got 42"},
        {"missing_format.json", "format: missing"},
        {"wrong_format.json",
         "format: expected \"attention-explorer-scene\", got \"attention-explorer-result\""},
        {"newer_version.json",
         "this scene was written by a newer Attention Explorer (format version 3); "
         "this build reads version 2"},
        {"version_zero.json", "version: must be an integer >= 1, got 0"},
        {"version_string.json", "version: expected an integer, got a string"},
        {"heads_string.json", "model.heads: expected an integer, got a string"},
        {"heads_negative.json", "model.heads: must be between 1 and 256, got -2"},
        {"heads_zero.json", "model.heads: must be between 1 and 256, got 0"},
        {"heads_fraction.json", "model.heads: expected an integer, got 1.5"},
        {"heads_not_dividing.json",
         "model.heads: 3 does not divide d_model 64; give d_k and d_v explicitly"},
        {"d_model_huge.json", "model.d_model: must be between 1 and 8192, got 1000000000"},
        {"model_not_object.json", "model: expected an object, got an array"},
        {"seed_negative.json", "model.seed: must be a non-negative integer, got -1"},
        {"init_unknown.json",
         "model.init: unknown value \"he\"; expected xavier, identity or zeros"},
        {"temperature_string.json", "attention.temperature: expected a number, got a string"},
        {"temperature_zero.json", "attention.temperature: must be a positive finite number, got 0"},
        {"temperature_negative.json",
         "attention.temperature: must be a positive finite number, got -1"},
        {"score_unknown.json", "attention.score: unknown value \"dotproduct\"; "
                               "expected dot, scaled, additive, bilinear or cosine"},
        {"normalize_unknown.json", "attention.normalize: unknown value \"softermax\"; "
                                   "expected softmax, hard, relu, sparsemax or none"},
        {"fill_unknown.json", "attention.fill: unknown value \"-1e9\"; expected -inf or -9e15"},
        {"tokenizer_mode_unknown.json", "tokenizer.mode: unknown value \"words\"; "
                                        "expected word, character or whitespace"},
        {"tokenizer_special_unknown.json", "tokenizer.special: unknown value \"gpt\"; "
                                           "expected none, bert or sentence"},
        {"mask_causal_string.json", "mask.causal: expected true or false, got a string"},
        {"window_negative.json", "mask.window: must be null or a non-negative integer, got -5"},
        {"custom_negative.json",
         "mask.custom[1]: expected [query, key] with non-negative integers"},
        {"custom_not_pair.json",
         "mask.custom[0]: expected [query, key] with non-negative integers"},
        {"custom_out_of_range.json", "mask.custom[0]: "},
        {"padding_position_out_of_range.json", "padding.positions[0]: "},
        {"wq_wrong_shape.json", "heads[0].W_q: expected 4x4, got 4x3"},
        {"wk_ragged.json", "heads[0].W_k[3]: expected 4 numbers, got 3"},
        {"wv_too_many_rows.json", "heads[0].W_v: expected 4x4, got 5x4"},
        {"wq_not_matrix.json",
         "heads[0].W_q: expected a 4x4 matrix (an array of rows), got a string"},
        {"wq_nan_string.json", "heads[0].W_q[1][2]: expected a number, got a string"},
        {"wq_infinity_string.json", "heads[0].W_q[1][2]: expected a number, got a string"},
        {"wq_float_overflow.json", "heads[0].W_q[1][2]: 1e+39 is outside the float32 range"},
        {"wq_double_overflow.json", "the number 1e999 is outside the float32 range"},
        {"bq_wrong_length.json", "heads[0].b_q: expected 4 numbers, got 3"},
        {"enabled_not_bool.json", "heads[0].enabled: expected true or false, got 1"},
        {"heads_array_short.json", "heads: expected 3 head objects (model.heads), got 2"},
        {"heads_not_array.json", "heads: expected an array of 1 head object, got an object"},
        {"wo_wrong_shape.json", "W_o: expected 4x4, got 2x4"},
        {"bo_wrong_length.json", "b_o: expected 4 numbers, got 3"},
        {"embedding_table_width.json", "embedding.table[\"cat\"]: expected 4 numbers, got 3"},
        {"embedding_kind_unknown.json", "embedding.kind: unknown value \"glove\"; "
                                        "expected hashed, onehot, table or wordvectors"},
        {"wordvectors_without_file.json",
         "embedding.file: required when embedding.kind is \"wordvectors\""},
        {"wordvectors_missing_file.json", "embedding.file: "},
        {"positional_table_width.json", "positional.table: expected Nx4, got 5x3"},
        {"positional_table_missing.json",
         "positional.table: required when positional.kind is \"table\""},
        {"precision_too_large.json", "view.precision: must be between 0 and 9, got 40"},
        {"onehot_vocabulary_too_long.json",
         "embedding.vocabulary: 3 words for d_model 2; one-hot has one dimension per word"},
        // Checked by resolveProblem, which needs the tokens.
        {"source_empty.json", "source: the sentence has no tokens"},
    };
    return cases;
}

} // namespace

class TestSceneJson : public QObject
{
    Q_OBJECT

private slots:
    void roundTripReproducesEveryField();
    void roundTripIsByteStable();
    void floatsRoundTripBitExact_data();
    void floatsRoundTripBitExact();
    void minimalSceneTakesDefaults();
    void partialWeightsAreFilledFromTheGenerator();
    void explicitHeadWidths();
    void handWorkedExample();
    void crossAttentionExample();
    void sentencesTheSceneWasNotMadeForLoad();
    void oneHotVocabularyIsKept();
    void wordVectorsResolveRelativeToTheScene();
    void unknownKeysAreIgnored();
    void documentationExamplesLoad();
    void largeSeedsRoundTripExactly();
    void validCorpusLoads_data();
    void validCorpusLoads();
    void malformedCorpus_data();
    void malformedCorpus();
    void malformedCorpusIsFullyListed();
    void millionTokenTextFailsFast_data();
    void millionTokenTextFailsFast();
    void nonFiniteWeightIsNotSaved();
    void errorNamesTheFileAndThePath();
    void saveReplacesExistingFile();
    void saveIntoMissingDirectoryLeavesNothing();
    void missingFileIsAnError();
};

void TestSceneJson::roundTripReproducesEveryField()
{
    const Scene original = richScene();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("scene.json"));
    saveScene(original, path);
    const Scene loaded = loadScene(path);

    QCOMPARE(loaded.title, original.title);
    QCOMPARE(loaded.description, original.description);
    QCOMPARE(loaded.text, original.text);
    QVERIFY(loaded.source.has_value());
    QCOMPARE(*loaded.source, *original.source);
    QVERIFY(loaded.tokenizer == original.tokenizer);
    QCOMPARE(loaded.paddingToken, original.paddingToken);
    QCOMPARE(loaded.paddingPositions, original.paddingPositions);

    QCOMPARE(name(loaded.embedding.kind), name(original.embedding.kind));
    QCOMPARE(loaded.embedding.seed, original.embedding.seed);
    QVERIFY(loaded.embedding.table == original.embedding.table);
    QCOMPARE(loaded.embedding.table.at(QStringLiteral("chat"))[0], 1.0f / 3.0f);
    QCOMPARE(loaded.embedding.wordVectorPath, original.embedding.wordVectorPath);
    QCOMPARE(name(loaded.positional.kind), name(original.positional.kind));
    QVERIFY(sameBits(loaded.positional.table, original.positional.table));

    QCOMPARE(loaded.seed, original.seed);
    QVERIFY(loaded.weights == original.weights);
    QVERIFY(sameWeightBits(loaded.weights, original.weights));
    QCOMPARE(loaded.weights.heads[0].Wq(0, 0), 0.1f);
    QCOMPARE(loaded.weights.heads[1].enabled, false);
    QCOMPARE(loaded.weights.heads[0].bq.size(), Eigen::Index(4));
    QCOMPARE(loaded.weights.heads[1].bq.size(), Eigen::Index(0));

    QCOMPARE(name(loaded.score), name(original.score));
    QCOMPARE(name(loaded.normalization), name(original.normalization));
    QCOMPARE(loaded.temperature, 0.7f);
    QCOMPARE(name(loaded.fill), name(original.fill));
    QVERIFY(loaded.mask == original.mask);
    QCOMPARE(loaded.mask.window, 3);
    QVERIFY(loaded.view == original.view);

    // The figure itself: the same numbers from the original and the reloaded scene.
    const auto before = compute(original);
    const auto after = compute(loaded);
    QCOMPARE(after->heads.size(), before->heads.size());
    QVERIFY(sameBits(after->queryInput(), before->queryInput()));
    QVERIFY(sameBits(after->keyInput(), before->keyInput()));
    for (std::size_t h = 0; h < before->heads.size(); ++h) {
        QVERIFY(sameBits(after->heads[h].weights, before->heads[h].weights));
        QVERIFY(sameBits(after->heads[h].output, before->heads[h].output));
    }
    QVERIFY(sameBits(after->output, before->output));
    QVERIFY(before->output.allFinite());
    QCOMPARE(before->output.rows(), Eigen::Index(9)); // 7 words + [CLS] + [SEP]
}

void TestSceneJson::roundTripIsByteStable()
{
    const Scene original = richScene();
    const QByteArray first = sceneToJson(original);
    const QByteArray second = sceneToJson(sceneFromJson(first));
    QCOMPARE(second, first);

    // Shortest round-trip decimals: 0.1f is written as 0.1, never as its double expansion.
    QVERIFY(first.contains("0.1,") || first.contains("0.1\n"));
    QVERIFY(!first.contains("0.10000000149011612"));
    QVERIFY(first.contains("\"temperature\": 0.7"));
    QVERIFY(first.contains("\"window\": 3"));
}

void TestSceneJson::floatsRoundTripBitExact_data()
{
    QTest::addColumn<float>("value");
    QTest::addColumn<QByteArray>("text"); // what must appear in the file ("" = not checked)

    QTest::newRow("0.1") << 0.1f << QByteArray("0.1");
    QTest::newRow("1/3") << 1.0f / 3.0f << QByteArray("0.33333334");
    QTest::newRow("-2.5") << -2.5f << QByteArray("-2.5");
    QTest::newRow("integer") << 3.0f << QByteArray("3");
    QTest::newRow("max") << FLT_MAX << QByteArray("3.4028235e+38");
    QTest::newRow("lowest") << -FLT_MAX << QByteArray("-3.4028235e+38");
    QTest::newRow("smallest normal") << FLT_MIN << QByteArray("1.1754944e-38");
    QTest::newRow("smallest subnormal")
        << std::numeric_limits<float>::denorm_min() << QByteArray("1e-45");
    QTest::newRow("2^24 + 2") << 16777218.0f << QByteArray("16777218");
    QTest::newRow("next after 1") << std::nextafter(1.0f, 2.0f) << QByteArray("1.0000001");
    QTest::newRow("xavier-like") << 0.61237246f << QByteArray("0.61237246");
}

void TestSceneJson::floatsRoundTripBitExact()
{
    QFETCH(float, value);
    QFETCH(QByteArray, text);
    Scene scene = makeScene(QStringLiteral("a b"), 4, 1, 3);
    scene.weights.heads[0].Wk(2, 1) = value;
    scene.weights.Wo(3, 0) = -value;
    const QByteArray json = sceneToJson(scene);
    const QRegularExpression written(QStringLiteral("\\s") +
                                     QRegularExpression::escape(QString::fromLatin1(text)) +
                                     QStringLiteral("[,\\n]"));
    QVERIFY2(written.match(QString::fromUtf8(json)).hasMatch(), text.constData());
    const Scene loaded = sceneFromJson(json);
    QVERIFY(sameWeightBits(loaded.weights, scene.weights));
    const float read = loaded.weights.heads[0].Wk(2, 1);
    QCOMPARE(std::memcmp(&read, &value, sizeof value), 0);
}

void TestSceneJson::minimalSceneTakesDefaults()
{
    const Scene scene = loadScene(validScene(QStringLiteral("minimal.json")));
    QCOMPARE(scene.text, QStringLiteral("This is a cat."));
    QVERIFY(!scene.source.has_value());
    QVERIFY(scene.title.isEmpty());
    QVERIFY(scene.tokenizer == TokenizerSettings{});
    QVERIFY(scene.paddingToken.isEmpty());
    QVERIFY(scene.paddingPositions.empty());
    QCOMPARE(name(scene.embedding.kind), name(EmbeddingKind::Hashed));
    QCOMPARE(scene.embedding.seed, std::uint64_t(1));
    QCOMPARE(name(scene.positional.kind), name(PositionalKind::None));
    QCOMPARE(scene.seed, std::uint64_t(1));
    QCOMPARE(scene.weights.dModel, 8);
    QCOMPARE(scene.weights.headCount(), 1);
    QCOMPARE(scene.weights.dK, 8);
    QCOMPARE(scene.weights.dV, 8);
    QVERIFY(scene.weights == makeWeights(8, 1, 8, 8, WeightInit::Xavier, 1));
    QCOMPARE(name(scene.score), name(ScoreKind::ScaledDot));
    QCOMPARE(name(scene.normalization), name(Normalization::Softmax));
    QCOMPARE(scene.temperature, 1.0f);
    QCOMPARE(name(scene.fill), name(MaskFill::NegativeInfinity));
    QVERIFY(scene.mask == MaskSpec{});
    QVERIFY(scene.view == ViewSettings{});
}

void TestSceneJson::partialWeightsAreFilledFromTheGenerator()
{
    const Scene scene = loadScene(validScene(QStringLiteral("partial_weights.json")));
    const ModelWeights generated = makeWeights(4, 2, 2, 2, WeightInit::Xavier, 5);
    const ModelWeights& w = scene.weights;
    QCOMPARE(scene.seed, std::uint64_t(5));
    QCOMPARE(w.dK, 2);
    QCOMPARE(w.dV, 2);

    Matrix expectedWq(4, 2);
    expectedWq << 0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f;
    QVERIFY(sameBits(w.heads[0].Wq, expectedWq));
    QVERIFY(w.heads[0].Wq != generated.heads[0].Wq);
    QVERIFY(sameBits(w.heads[0].Wk, generated.heads[0].Wk));
    QVERIFY(sameBits(w.heads[0].Wv, generated.heads[0].Wv));
    QVERIFY(sameBits(w.heads[0].wAdditive, generated.heads[0].wAdditive));
    QVERIFY(sameBits(w.heads[0].bilinear, generated.heads[0].bilinear));
    QVERIFY(w.heads[0].enabled);
    QCOMPARE(w.heads[0].bq.size(), Eigen::Index(0));

    QVERIFY(!w.heads[1].enabled);
    QVERIFY(sameBits(w.heads[1].Wq, generated.heads[1].Wq));
    QVERIFY(sameBits(w.heads[1].Wk, generated.heads[1].Wk));
    QVERIFY(sameBits(w.heads[1].Wv, generated.heads[1].Wv));
    QVERIFY(sameBits(w.heads[1].bilinear, generated.heads[1].bilinear));
    QCOMPARE(w.heads[1].bk.size(), Eigen::Index(2));
    QCOMPARE(w.heads[1].bk(0), 0.25f);
    QCOMPARE(w.heads[1].bk(1), -0.5f);
    QVERIFY(sameBits(w.Wo, generated.Wo));
    QCOMPARE(w.bo.size(), Eigen::Index(0));
}

void TestSceneJson::explicitHeadWidths()
{
    const Scene scene = loadScene(validScene(QStringLiteral("explicit_head_widths.json")));
    QCOMPARE(scene.weights.dModel, 6);
    QCOMPARE(scene.weights.headCount(), 4);
    QCOMPARE(scene.weights.dK, 3);
    QCOMPARE(scene.weights.dV, 2);
    QCOMPARE(scene.weights.heads[3].Wq.rows(), Eigen::Index(6));
    QCOMPARE(scene.weights.heads[3].Wq.cols(), Eigen::Index(3));
    QCOMPARE(scene.weights.Wo.rows(), Eigen::Index(8));
    QCOMPARE(scene.weights.Wo.cols(), Eigen::Index(6));
}

// One-hot rows and identity projections: scores are the identity, so every softmax row is
// e/(e+3) on the diagonal and 1/(e+3) elsewhere, and with V = W_o = I that is the output.
void TestSceneJson::handWorkedExample()
{
    const Scene scene = loadScene(validScene(QStringLiteral("this_is_a_cat.json")));
    QCOMPARE(scene.title, QStringLiteral("This is a cat"));
    QCOMPARE(name(scene.embedding.kind), name(EmbeddingKind::Table));
    QCOMPARE(scene.embedding.table.size(), std::size_t(4));
    QCOMPARE(name(scene.score), name(ScoreKind::Dot));
    QCOMPARE(scene.view.valuePrecision, 3);
    QCOMPARE(scene.paddingToken, QStringLiteral("[PAD]"));

    const auto result = compute(scene);
    const double e = std::exp(1.0);
    const double diagonal = e / (e + 3.0); // 0.475367...
    const double other = 1.0 / (e + 3.0);  // 0.174877...
    QCOMPARE(result->output.rows(), Eigen::Index(4));
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            const double expected = i == j ? diagonal : other;
            QVERIFY2(std::abs(result->heads[0].weights(i, j) - expected) < 1e-6,
                     qPrintable(QStringLiteral("weights(%1, %2)").arg(i).arg(j)));
            QVERIFY(std::abs(result->output(i, j) - expected) < 1e-6);
        }
}

void TestSceneJson::crossAttentionExample()
{
    const Scene scene = loadScene(validScene(QStringLiteral("cross_attention.json")));
    QCOMPARE(*scene.source, QStringLiteral("Black cat ate the mouse"));
    QVERIFY(scene.tokenizer.lowercase);
    QCOMPARE(scene.weights.headCount(), 2);
    QCOMPARE(scene.weights.dK, 4);
    QCOMPARE(scene.seed, std::uint64_t(7));
    QCOMPARE(scene.mask.customCells.size(), std::size_t(2));
    QCOMPARE(scene.mask.customCells[1], std::make_pair(5, 0));
    QCOMPARE(scene.view.theme, QStringLiteral("dark"));
    const auto problem = resolveProblem(scene);
    QVERIFY(problem->cross);
    QCOMPARE(problem->queryCount(), 6);
    QCOMPARE(problem->keyCount(), 5);
}

// A one-hot scene narrower than its sentence, or a positional table shorter than
// it, loads and computes (these were errors): the words past d_model get hashed vectors,
// the positions past the table sinusoidal ones.
void TestSceneJson::sentencesTheSceneWasNotMadeForLoad()
{
    const Scene oneHot = loadScene(validScene(QStringLiteral("onehot_longer_sentence.json")));
    const std::vector<QString> four{QStringLiteral("one"), QStringLiteral("two"),
                                    QStringLiteral("three"), QStringLiteral("four")};
    QCOMPARE(oneHot.embedding.vocabulary, four); // kept: the first d_model words
    const auto problem = resolveProblem(oneHot);
    QCOMPARE(problem->queryFallback, (std::vector<bool>{false, false, false, false, true}));
    QVERIFY(problem->queryEmbedding.topRows(4) == Matrix::Identity(4, 4));
    QVERIFY(problem->queryEmbedding.row(4) ==
            hashedEmbedding(QStringLiteral("five"), oneHot.embedding.seed, 4));

    const Scene positions = loadScene(validScene(QStringLiteral("positional_table_shorter.json")));
    const auto p = resolveProblem(positions);
    QVERIFY(p->queryPosition.topRows(3) == positions.positional.table);
    PositionalSettings sinusoidal;
    sinusoidal.kind = PositionalKind::Sinusoidal;
    QVERIFY(p->queryPosition.row(3) == positionalEncoding(4, 4, sinusoidal).row(3));
}

// The one-hot vocabulary is saved, so the words a scene was made for keep their vectors
// after other words are typed, saved and opened again; older files without it get their
// sentence's words.
void TestSceneJson::oneHotVocabularyIsKept()
{
    Scene scene = loadScene(validScene(QStringLiteral("onehot_longer_sentence.json")));
    scene.text = QStringLiteral("five four cat");
    const Scene again = sceneFromJson(sceneToJson(scene));
    QCOMPARE(again.embedding.vocabulary, scene.embedding.vocabulary);
    const auto problem = resolveProblem(again);
    QCOMPARE(problem->queryFallback, (std::vector<bool>{true, false, true}));
    RowVector four = RowVector::Zero(4);
    four[3] = 1;
    QVERIFY(problem->queryEmbedding.row(1) == four);
    QVERIFY(sceneToJson(scene).contains("\"vocabulary\""));
}

void TestSceneJson::wordVectorsResolveRelativeToTheScene()
{
    const Scene scene = loadScene(validScene(QStringLiteral("word_vectors.json")));
    QCOMPARE(name(scene.embedding.kind), name(EmbeddingKind::WordVectors));
    QCOMPARE(scene.embedding.wordVectorPath, QStringLiteral("vectors.txt")); // as written
    QVERIFY(scene.embedding.wordVectors);
    QCOMPARE(scene.embedding.wordVectors->dimension(), 4);
    const float* cat = scene.embedding.wordVectors->find(QStringLiteral("cat"));
    QVERIFY(cat);
    QCOMPARE(cat[3], 0.5f);

    // Saved elsewhere, the path is kept as written (relative to the new file).
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString copy = dir.filePath(QStringLiteral("moved.json"));
    saveScene(scene, copy);
    const Outcome moved = outcomeOf([&] { loadScene(copy); });
    QCOMPARE(moved.kind, Outcome::AttnError);
    QVERIFY2(QString::fromStdString(moved.message)
                 .startsWith(QStringLiteral("moved.json: embedding.file: ")),
             moved.message.c_str());
    QVERIFY(QFile::copy(validScene(QStringLiteral("vectors.txt")),
                        dir.filePath(QStringLiteral("vectors.txt"))));
    QCOMPARE(loadScene(copy).embedding.wordVectors->size(), qsizetype(5));
}

void TestSceneJson::unknownKeysAreIgnored()
{
    const Scene scene = loadScene(validScene(QStringLiteral("unknown_keys.json")));
    QCOMPARE(scene.text, QStringLiteral("This is a cat"));
    QCOMPARE(scene.weights.dModel, 4);
}

// Every ```json block of docs/SCENE_FORMAT.md is a valid scene, and the first is the
// hand-worked example file, so the documentation cannot drift from the format.
void TestSceneJson::documentationExamplesLoad()
{
    QFile doc(QStringLiteral(ATTN_TEST_DATA_DIR "/../../docs/SCENE_FORMAT.md"));
    QVERIFY(doc.open(QIODevice::ReadOnly));
    const QByteArray text = doc.readAll();
    const QByteArray open = "```json\n";
    QList<QByteArray> blocks;
    for (qsizetype at = text.indexOf(open); at >= 0; at = text.indexOf(open, at)) {
        const qsizetype begin = at + open.size();
        const qsizetype end = text.indexOf("```", begin);
        QVERIFY(end > begin);
        blocks.append(text.mid(begin, end - begin));
        at = end + 3;
    }
    QCOMPARE(blocks.size(), 3); // the example, the smallest scene, a scene of a real model
    for (const QByteArray& block : blocks) {
        const Outcome outcome = outcomeOf([&] { sceneFromJson(block); });
        QVERIFY2(outcome.kind == Outcome::Nothing, outcome.message.c_str());
    }
    const Scene example = loadScene(validScene(QStringLiteral("this_is_a_cat.json")));
    QCOMPARE(sceneToJson(sceneFromJson(blocks[0])), sceneToJson(example));
    QCOMPARE(sceneFromJson(blocks[1]).weights.dModel, 8);
    QCOMPARE(sceneFromJson(blocks[2]).checkpoint->layer, 4);
}

// Seeds beyond 2^53 would lose digits as doubles; QJsonValue keeps them as integers.
void TestSceneJson::largeSeedsRoundTripExactly()
{
    Scene scene = makeScene(QStringLiteral("a b c"), 4, 1, 1);
    scene.seed = (std::uint64_t(1) << 53) + 1;
    scene.embedding.seed = std::uint64_t(std::numeric_limits<std::int64_t>::max());
    const Scene loaded = sceneFromJson(sceneToJson(scene));
    QCOMPARE(loaded.seed, scene.seed);
    QCOMPARE(loaded.embedding.seed, scene.embedding.seed);

    scene.seed = std::uint64_t(1) << 63;
    const Outcome outcome = outcomeOf([&] { sceneToJson(scene); });
    QCOMPARE(outcome.kind, Outcome::AttnError);
    QVERIFY2(outcome.message.rfind("model.seed: 9223372036854775808 cannot be saved", 0) == 0,
             outcome.message.c_str());
}

void TestSceneJson::validCorpusLoads_data()
{
    QTest::addColumn<QString>("path");
    const QDir dir(scenesDir() + QStringLiteral("/valid"));
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 7);
    for (const QString& file : files)
        QTest::newRow(qPrintable(file)) << dir.filePath(file);
}

void TestSceneJson::validCorpusLoads()
{
    QFETCH(QString, path);
    const Outcome outcome = outcomeOf([&] {
        const Scene scene = loadScene(path);
        // And it survives its own round trip.
        const Scene again = sceneFromJson(sceneToJson(scene), QFileInfo(path).absolutePath());
        if (!sameWeightBits(again.weights, scene.weights))
            throw std::logic_error("weights changed in the round trip");
    });
    QVERIFY2(outcome.kind == Outcome::Nothing, outcome.message.c_str());
}

void TestSceneJson::malformedCorpus_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected"); // a substring the message must contain
    for (const auto& [file, expected] : malformedCases())
        QTest::newRow(file) << QString::fromLatin1(file) << QString::fromUtf8(expected);
}

void TestSceneJson::malformedCorpus()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    const QString path = scenesDir() + QStringLiteral("/malformed/") + file;
    QVERIFY2(QFileInfo::exists(path), qPrintable(path));

    const Outcome outcome = outcomeOf([&] { loadScene(path); });
    QVERIFY2(outcome.kind == Outcome::AttnError, outcome.kind == Outcome::Nothing
                                                     ? "loaded without an error"
                                                     : outcome.message.c_str());
    const QString message = QString::fromStdString(outcome.message);
    QVERIFY2(message.startsWith(file + QStringLiteral(": ")), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message));
}

// A file added to the corpus without an expected message would never be tested.
void TestSceneJson::malformedCorpusIsFullyListed()
{
    QStringList listed;
    for (const auto& [file, expected] : malformedCases())
        listed.append(QString::fromLatin1(file));
    listed.sort();
    const QStringList files =
        QDir(scenesDir() + QStringLiteral("/malformed")).entryList(QDir::Files, QDir::Name);
    QCOMPARE(files, listed);
}

void TestSceneJson::millionTokenTextFailsFast_data()
{
    QTest::addColumn<QString>("tokenizerMode");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("words") << QStringLiteral("word") << QStringLiteral("a ").repeated(1'000'000)
                           << QStringLiteral("text: 2000000 characters; the limit is 1048576");
    // Under the character limit, so the tokenizer's own cap must stop it.
    QTest::newRow("characters") << QStringLiteral("character")
                                << QStringLiteral("a").repeated(1'000'000)
                                << QStringLiteral("text: ");
}

void TestSceneJson::millionTokenTextFailsFast()
{
    QFETCH(QString, tokenizerMode);
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QJsonObject root{{"format", "attention-explorer-scene"},
                     {"version", 1},
                     {"text", text},
                     {"tokenizer", QJsonObject{{"mode", tokenizerMode}}}};
    const QByteArray json = QJsonDocument(root).toJson(QJsonDocument::Compact);

    QElapsedTimer timer;
    timer.start();
    const Outcome outcome = outcomeOf([&] { sceneFromJson(json); });
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY2(outcome.kind == Outcome::AttnError, outcome.message.c_str());
    QVERIFY2(QString::fromStdString(outcome.message).startsWith(expected), outcome.message.c_str());
}

// The file and the JSON path are kept apart from the message (core::Error::places), so that
// the window names its own control without reading the message back.
void TestSceneJson::errorNamesTheFileAndThePath()
{
    const QString path = scenesDir() + QStringLiteral("/malformed/wq_wrong_shape.json");
    try {
        loadScene(path);
        QFAIL("loaded without an error");
    } catch (const attn::core::Error& e) {
        QCOMPARE(e.where(), std::string("wq_wrong_shape.json"));
        QCOMPARE(e.places(), (std::vector<std::string>{"wq_wrong_shape.json", "heads[0].W_q"}));
        QCOMPARE(e.message(), std::string("expected 4x4, got 4x3"));
        QCOMPARE(std::string(e.what()),
                 std::string("wq_wrong_shape.json: heads[0].W_q: expected 4x4, got 4x3"));
    }
}

void TestSceneJson::nonFiniteWeightIsNotSaved()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("scene.json"));
    Scene scene = makeScene(QStringLiteral("a b c"), 4, 2, 1);
    saveScene(scene, path);
    const QByteArray good = sceneToJson(scene);

    scene.weights.heads[1].Wv(2, 1) = std::numeric_limits<float>::quiet_NaN();
    const Outcome outcome = outcomeOf([&] { saveScene(scene, path); });
    QCOMPARE(outcome.kind, Outcome::AttnError);
    QVERIFY2(outcome.message.rfind("heads[1].W_v[2][1]: cannot save nan", 0) == 0,
             outcome.message.c_str());

    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), good); // the old file is untouched
}

void TestSceneJson::saveReplacesExistingFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("scene.json"));
    Scene first = makeScene(QStringLiteral("first scene"), 4, 1, 1);
    first.title = QStringLiteral("first");
    saveScene(first, path);
    QCOMPARE(loadScene(path).title, QStringLiteral("first"));

    Scene second = makeScene(QStringLiteral("the second scene"), 8, 2, 2);
    second.title = QStringLiteral("second");
    saveScene(second, path);
    const Scene loaded = loadScene(path);
    QCOMPARE(loaded.title, QStringLiteral("second"));
    QCOMPARE(loaded.text, QStringLiteral("the second scene"));
    QVERIFY(sameWeightBits(loaded.weights, second.weights));
    // No temporary file is left beside it.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("scene.json")});
}

void TestSceneJson::saveIntoMissingDirectoryLeavesNothing()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString missing = dir.filePath(QStringLiteral("no/such/folder"));
    const QString path = missing + QStringLiteral("/scene.json");
    const Outcome outcome =
        outcomeOf([&] { saveScene(makeScene(QStringLiteral("x"), 4, 1, 1), path); });
    QCOMPARE(outcome.kind, Outcome::AttnError);
    QVERIFY2(outcome.message.find("scene.json") != std::string::npos, outcome.message.c_str());
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("no"))));
    QVERIFY(QDir(dir.path())
                .entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden)
                .isEmpty());
}

void TestSceneJson::missingFileIsAnError()
{
    const Outcome outcome =
        outcomeOf([] { loadScene(scenesDir() + QStringLiteral("/no-such-scene.json")); });
    QCOMPARE(outcome.kind, Outcome::AttnError);
    QVERIFY2(outcome.message.find("no-such-scene.json") != std::string::npos,
             outcome.message.c_str());
}

QTEST_GUILESS_MAIN(TestSceneJson)
#include "tst_scene_json.moc"
