#include "scene_json.h"

#include "atomic_file.h"
#include "enum_names.h"
#include "error.h"
#include "json_path_reader.h"
#include "limits.h"
#include "regular_file.h"
#include "scene_json_detail.h"
#include "word_vectors.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <array>
#include <climits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

// The format is documented key by key in docs/SCENE_FORMAT.md; keep the two in step.

namespace attn::core {

namespace scene_json_detail {

// Tokenizer names belong to the scene format (the tokenizer itself has no use for them).
constexpr EnumNames<TokenizerMode, 3> kModeNames{{{TokenizerMode::Word, "word"},
                                                  {TokenizerMode::Character, "character"},
                                                  {TokenizerMode::Whitespace, "whitespace"}}};
constexpr EnumNames<SpecialTokens, 3> kSpecialNames{{{SpecialTokens::None, "none"},
                                                     {SpecialTokens::Bert, "bert"},
                                                     {SpecialTokens::Sentence, "sentence"}}};

std::string_view modeName(TokenizerMode mode)
{
    return enumName(kModeNames, mode, "word");
}

std::string_view specialName(SpecialTokens special)
{
    return enumName(kSpecialNames, special, "none");
}

} // namespace scene_json_detail

using json_path::counted;
using json_path::describe;
using json_path::element;
using json_path::exactInteger;
using json_path::fail;
using json_path::formatNumber;
using json_path::ObjectReader;
using json_path::parseDocument;
using json_path::quoted;
using json_path::readMatrix;
using json_path::readNumbers;
using json_path::shape;
using json_path::toFloat;
using json_path::toInteger;
using scene_json_detail::kFormatName;
using scene_json_detail::modeName;
using scene_json_detail::specialName;

namespace {

// A generous 64 characters per token, checked before tokenizing so that a huge paste is
// refused at once; the tokenizer then enforces kMaxTokens itself.
constexpr qsizetype kMaxTextCharacters = qsizetype(kMaxTokens) * 64;
constexpr int kDefaultModelWidth = 8;
constexpr int kMaxValuePrecision = 9; // decimals in a cell; 9 significant digits exhaust a float32

constexpr std::array kTokenizerModes{TokenizerMode::Word, TokenizerMode::Character,
                                     TokenizerMode::Whitespace};
constexpr std::array kSpecialTokenSets{SpecialTokens::None, SpecialTokens::Bert,
                                       SpecialTokens::Sentence};
constexpr std::array kScoreKinds{ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::Additive,
                                 ScoreKind::Bilinear, ScoreKind::Cosine};
constexpr std::array kNormalizations{Normalization::Softmax, Normalization::Hard,
                                     Normalization::Relu, Normalization::Sparsemax,
                                     Normalization::None};
constexpr std::array kMaskFills{MaskFill::NegativeInfinity, MaskFill::MinusNineE15};
constexpr std::array kEmbeddingKinds{EmbeddingKind::Hashed, EmbeddingKind::OneHot,
                                     EmbeddingKind::Table, EmbeddingKind::WordVectors};
constexpr std::array kPositionalKinds{PositionalKind::None, PositionalKind::Sinusoidal,
                                      PositionalKind::Table};
constexpr std::array kWeightInits{WeightInit::Xavier, WeightInit::Identity, WeightInit::Zeros};

std::optional<TokenizerMode> parseMode(std::string_view name)
{
    return enumFromName(scene_json_detail::kModeNames, name);
}

std::optional<SpecialTokens> parseSpecial(std::string_view name)
{
    return enumFromName(scene_json_detail::kSpecialNames, name);
}

// ---- Reading --------------------------------------------------------------------------

// Format and version come first, so that a newer file is refused for what it is rather
// than for a key this build does not know.
void checkFormatAndVersion(const ObjectReader& top)
{
    const QJsonValue format = top.value("format");
    if (format.isUndefined())
        fail("format",
             std::string("missing; an Attention Explorer scene starts with \"format\": \"") +
                 kFormatName + "\"");
    if (!format.isString())
        fail("format", "expected a string, got " + describe(format));
    if (format.toString() != QLatin1String(kFormatName))
        fail("format",
             std::string("expected \"") + kFormatName + "\", got " + quoted(format.toString()));

    const QJsonValue version = top.value("version");
    if (version.isUndefined())
        fail("version",
             "missing; this build reads version " + std::to_string(Scene::kFormatVersion));
    // A whole number past what this build reads is a newer format, however large: 2^63 and
    // beyond are still whole numbers, if not int64 ones.
    const double x = version.toDouble();
    if (version.isDouble() && x > double(Scene::kFormatVersion) && x == std::trunc(x)) {
        const std::optional<std::int64_t> exact = exactInteger(version);
        throw Error("this scene was written by a newer Attention Explorer (format version " +
                    (exact ? std::to_string(*exact) : formatNumber(x)) +
                    "); this build reads version " + std::to_string(Scene::kFormatVersion));
    }
    toInteger(version, "version", 1, INT64_MAX); // below 1, a fraction, not a number
}

QString readSentence(const ObjectReader& top, const char* key)
{
    const QString text = top.string(key, QString());
    if (text.size() > kMaxTextCharacters)
        fail(key, std::to_string(text.size()) + " characters; the limit is " +
                      std::to_string(kMaxTextCharacters));
    return text;
}

struct ModelShape
{
    int dModel = kDefaultModelWidth;
    int heads = 1;
    int dK = kDefaultModelWidth;
    int dV = kDefaultModelWidth;
    WeightInit init = WeightInit::Xavier;
};

ModelShape readModelShape(const ObjectReader& model, Scene& scene)
{
    ModelShape m;
    m.dModel = int(model.integer("d_model", 1, kMaxModelWidth, kDefaultModelWidth));
    m.heads = int(model.integer("heads", 1, kMaxHeads, 1));
    const bool explicitWidths = model.has("d_k") && model.has("d_v");
    if (!explicitWidths && m.dModel % m.heads != 0)
        fail(model.pathOf("heads"), std::to_string(m.heads) + " does not divide d_model " +
                                        std::to_string(m.dModel) + "; give d_k and d_v explicitly");
    m.dK = int(model.integer("d_k", 1, kMaxModelWidth, m.dModel / m.heads));
    m.dV = int(model.integer("d_v", 1, kMaxModelWidth, m.dModel / m.heads));
    scene.seed = model.seed("seed", scene.seed);
    m.init = model.choice("init", WeightInit::Xavier, parseWeightInit, toString, kWeightInits);

    // Per-matrix sizes are bounded by kMaxModelWidth^2 except W_o, which grows with heads.
    const std::int64_t d = m.dModel, dk = m.dK, dv = m.dV, h = m.heads;
    const std::int64_t woElements = h * dv * d;
    const std::int64_t total = h * (2 * d * dk + d * dv + dk * dk + dk) + woElements;
    if (woElements > kMaxMatrixElements)
        fail(model.pathOf("heads"), "W_o would be " + shape(h * dv, d) + ", more than the " +
                                        std::to_string(kMaxMatrixElements) +
                                        " numbers a matrix may hold");
    if (total > kMaxWeightElements)
        fail(model.pathOf("d_model"), "these shapes need " + std::to_string(total) +
                                          " weights; the limit is " +
                                          std::to_string(kMaxWeightElements));
    return m;
}

// Weights the file leaves out are generated exactly as makeWeights would; biases are
// only ever what the file gives.
ModelWeights readWeights(const ObjectReader& top, const ModelShape& m, std::uint64_t seed)
{
    QJsonArray headArray;
    const bool headsGiven = top.has("heads");
    if (headsGiven) {
        const QJsonValue value = top.value("heads");
        if (!value.isArray())
            fail(top.pathOf("heads"), "expected an array of " + counted(m.heads, "head object") +
                                          ", got " + describe(value));
        headArray = value.toArray();
        if (headArray.size() != m.heads)
            fail(top.pathOf("heads"), "expected " + counted(m.heads, "head object") +
                                          " (model.heads), got " +
                                          std::to_string(headArray.size()));
    }

    ModelWeights weights = makeWeights(m.dModel, m.heads, m.dK, m.dV, m.init, seed);
    for (HeadWeights& head : weights.heads)
        head.bq = head.bk = head.bv = RowVector();
    weights.bo = RowVector();

    for (qsizetype i = 0; i < headArray.size(); ++i) {
        const std::string path = element(top.pathOf("heads"), i);
        const QJsonValue value = headArray.at(i);
        if (!value.isObject())
            fail(path, "expected an object, got " + describe(value));
        const ObjectReader head(value.toObject(), path);
        HeadWeights& w = weights.heads[std::size_t(i)];
        w.enabled = head.boolean("enabled", true);
        head.matrix("W_q", m.dModel, m.dK, w.Wq);
        head.matrix("W_k", m.dModel, m.dK, w.Wk);
        head.matrix("W_v", m.dModel, m.dV, w.Wv);
        head.vector("b_q", m.dK, w.bq);
        head.vector("b_k", m.dK, w.bk);
        head.vector("b_v", m.dV, w.bv);
        head.vector("w_additive", m.dK, w.wAdditive);
        head.matrix("bilinear", m.dK, m.dK, w.bilinear);
    }
    top.matrix("W_o", m.heads * m.dV, m.dModel, weights.Wo);
    top.vector("b_o", m.dModel, weights.bo);
    return weights;
}

// "layers": stacked blocks of attention + feed-forward (scene_layers.h). Optional, so that
// every older file reads as one attention layer; what a block leaves out is drawn as
// makeStackedLayer draws it. The first block's attention is the top-level weights.
void readLayers(const ObjectReader& top, const ModelShape& m, Scene& scene)
{
    if (!top.has("layers"))
        return;
    const QJsonValue value = top.value("layers");
    const QJsonArray layers = value.toArray();
    if (!value.isArray() || layers.isEmpty() || layers.size() > kMaxStackedLayers)
        fail("layers", "expected an array of 1 to " + std::to_string(kMaxStackedLayers) +
                           " layer objects, got " +
                           (value.isArray() ? counted(layers.size(), "object") : describe(value)));
    for (qsizetype i = 0; i < layers.size(); ++i) {
        const std::string path = element("layers", i);
        if (!layers.at(i).isObject())
            fail(path, "expected an object, got " + describe(layers.at(i)));
        const ObjectReader layer(layers.at(i).toObject(), path);
        const int dFeedForward =
            int(layer.integer("d_ff", 1, kMaxModelWidth, std::int64_t(2) * m.dModel));
        StackedLayer block = makeStackedLayer(scene.weights, int(i), dFeedForward, scene.seed);
        if (i > 0) {
            block.attention = readWeights(layer, m, layerSeed(scene.seed, int(i)));
        }
        layer.matrix("W_1", m.dModel, dFeedForward, block.W1);
        layer.vector("b_1", dFeedForward, block.b1);
        layer.matrix("W_2", dFeedForward, m.dModel, block.W2);
        layer.vector("b_2", m.dModel, block.b2);
        scene.layers.push_back(std::move(block));
    }
}

void readTokenizer(const ObjectReader& tokenizer, TokenizerSettings& out)
{
    out.mode = tokenizer.choice("mode", out.mode, parseMode, modeName, kTokenizerModes);
    out.lowercase = tokenizer.boolean("lowercase", out.lowercase);
    out.special =
        tokenizer.choice("special", out.special, parseSpecial, specialName, kSpecialTokenSets);
}

void readPadding(const ObjectReader& padding, Scene& scene)
{
    scene.paddingToken = padding.string("token", scene.paddingToken);
    if (!padding.has("positions"))
        return;
    const std::string path = padding.pathOf("positions");
    const QJsonValue value = padding.value("positions");
    if (!value.isArray())
        fail(path, "expected an array of token positions, got " + describe(value));
    const QJsonArray array = value.toArray();
    scene.paddingPositions.reserve(std::size_t(array.size()));
    for (qsizetype i = 0; i < array.size(); ++i)
        scene.paddingPositions.push_back(int(toInteger(array.at(i), element(path, i), 0, INT_MAX)));
}

// The table and the file name; the file itself is loaded by loadWordVectors, last.
void readEmbedding(const ObjectReader& embedding, int dModel, EmbeddingSettings& out)
{
    out.kind = embedding.choice("kind", out.kind, parseEmbeddingKind, toString, kEmbeddingKinds);
    out.seed = embedding.seed("seed", out.seed);
    out.wordVectorPath = embedding.string("file", out.wordVectorPath);
    if (embedding.has("vocabulary")) {
        const std::string path = embedding.pathOf("vocabulary");
        const QJsonValue value = embedding.value("vocabulary");
        if (!value.isArray())
            fail(path, "expected an array of words, one per dimension, got " + describe(value));
        const QJsonArray words = value.toArray();
        if (words.size() > dModel)
            fail(path, counted(words.size(), "word") + " for d_model " + std::to_string(dModel) +
                           "; one-hot has one dimension per word");
        for (qsizetype i = 0; i < words.size(); ++i) {
            if (!words.at(i).isString())
                fail(element(path, i), "expected a word, got " + describe(words.at(i)));
            out.vocabulary.push_back(words.at(i).toString());
        }
    }
    if (!embedding.has("table"))
        return;
    const std::string path = embedding.pathOf("table");
    const QJsonValue value = embedding.value("table");
    if (!value.isObject())
        fail(path, "expected an object mapping each token to " + counted(dModel, "number") +
                       ", got " + describe(value));
    const QJsonObject table = value.toObject();
    if (std::int64_t(table.size()) * dModel > kMaxMatrixElements)
        fail(path, counted(table.size(), "row") + " of " + std::to_string(dModel) +
                       " numbers is more than the " + std::to_string(kMaxMatrixElements) +
                       " allowed");
    for (auto it = table.begin(); it != table.end(); ++it) {
        std::vector<float> row(std::size_t(dModel), 0.0f);
        readNumbers(it.value(), path + "[" + quoted(it.key()) + "]", dModel, row.data());
        out.table.emplace(it.key(), std::move(row));
    }
}

void readPositional(const ObjectReader& positional, int dModel, PositionalSettings& out)
{
    out.kind = positional.choice("kind", out.kind, parsePositionalKind, toString, kPositionalKinds);
    positional.matrix("table", -1, dModel, out.table);
    if (out.kind == PositionalKind::Table && !positional.has("table"))
        fail(positional.pathOf("table"), "required when positional.kind is \"table\"");
}

void readAttention(const ObjectReader& attention, Scene& scene)
{
    scene.score = attention.choice("score", scene.score, parseScoreKind, toString, kScoreKinds);
    scene.normalization = attention.choice("normalize", scene.normalization, parseNormalization,
                                           toString, kNormalizations);
    scene.fill = attention.choice("fill", scene.fill, parseMaskFill, toString, kMaskFills);
    if (!attention.has("temperature"))
        return;
    const std::string path = attention.pathOf("temperature");
    const QJsonValue value = attention.value("temperature");
    auto refuse = [&] { fail(path, "must be a positive finite number, got " + describe(value)); };
    if (value.isDouble() && !(value.toDouble() > 0.0))
        refuse();
    scene.temperature = toFloat(value, [&] { return path; });
    if (!(scene.temperature > 0.0f)) // below the smallest float32
        refuse();
}

void readMask(const ObjectReader& mask, MaskSpec& out)
{
    out.causal = mask.boolean("causal", out.causal);
    out.windowCausal = mask.boolean("window_causal", out.windowCausal);
    out.padding = mask.boolean("padding", out.padding);

    const QJsonValue window = mask.value("window");
    if (!window.isUndefined() && !window.isNull()) {
        const std::optional<std::int64_t> n = exactInteger(window);
        if (!window.isDouble() || !n || *n < 0 || *n > INT_MAX)
            fail(mask.pathOf("window"),
                 "must be null or a non-negative integer, got " + describe(window));
        out.window = int(*n);
    }

    if (!mask.has("custom"))
        return;
    const std::string path = mask.pathOf("custom");
    const QJsonValue custom = mask.value("custom");
    if (!custom.isArray())
        fail(path, "expected an array of [query, key] cells, got " + describe(custom));
    const QJsonArray cells = custom.toArray();
    out.customCells.reserve(std::size_t(cells.size()));
    for (qsizetype c = 0; c < cells.size(); ++c) {
        const QJsonArray cell = cells.at(c).toArray(); // empty unless an array
        std::optional<std::int64_t> i, j;
        if (cells.at(c).isArray() && cell.size() == 2 && cell.at(0).isDouble() &&
            cell.at(1).isDouble()) {
            i = exactInteger(cell.at(0));
            j = exactInteger(cell.at(1));
        }
        if (!i || !j || *i < 0 || *j < 0 || *i > INT_MAX || *j > INT_MAX)
            fail(element(path, c), "expected [query, key] with non-negative integers");
        out.customCells.emplace_back(int(*i), int(*j));
    }
}

// A matrix whose shape the file alone cannot check (a model head's W_q: the model is read
// later): rows of equal length, checked against the model when it computes.
Matrix readAnyMatrix(const QJsonValue& value, const std::string& path)
{
    const QJsonArray rows = value.toArray();
    const qsizetype cols = value.isArray() && !rows.isEmpty() ? rows.at(0).toArray().size() : 0;
    if (cols == 0)
        fail(path, "expected a matrix (an array of rows of numbers), got " + describe(value));
    return readMatrix(value, path, -1, cols);
}

void readLayerEdit(const ObjectReader& edit, LayerEdit& out)
{
    if (edit.has("score"))
        out.score =
            edit.choice("score", ScoreKind::ScaledDot, parseScoreKind, toString, kScoreKinds);
    if (edit.has("normalize"))
        out.normalization = edit.choice("normalize", Normalization::Softmax, parseNormalization,
                                        toString, kNormalizations);
    if (edit.has("fill"))
        out.fill =
            edit.choice("fill", MaskFill::NegativeInfinity, parseMaskFill, toString, kMaskFills);
    if (edit.has("temperature")) {
        const std::string path = edit.pathOf("temperature");
        const QJsonValue value = edit.value("temperature");
        out.temperature = toFloat(value, [&] { return path; });
        if (!(*out.temperature > 0.0f))
            fail(path, "must be a positive finite number, got " + describe(value));
    }
    if (edit.has("mask")) {
        MaskSpec mask;
        readMask(edit.section("mask"), mask);
        out.mask = mask;
    }
    const QJsonValue heads = edit.value("heads");
    if (heads.isUndefined())
        return;
    if (!heads.isArray())
        fail(edit.pathOf("heads"), "expected an array of head edits, got " + describe(heads));
    for (qsizetype k = 0; k < heads.toArray().size(); ++k) {
        const std::string path = element(edit.pathOf("heads"), k);
        const QJsonValue item = heads.toArray().at(k);
        if (!item.isObject())
            fail(path, "expected an object, got " + describe(item));
        const ObjectReader head(item.toObject(), path);
        if (!head.has("head"))
            fail(head.pathOf("head"), "missing; which head (from 1) this edit replaces");
        HeadEdit& e = out.heads[int(head.integer("head", 1, kMaxHeads, 1)) - 1];
        if (head.has("W_q"))
            e.Wq = readAnyMatrix(head.value("W_q"), head.pathOf("W_q"));
        if (head.has("W_k"))
            e.Wk = readAnyMatrix(head.value("W_k"), head.pathOf("W_k"));
        if (head.has("W_v"))
            e.Wv = readAnyMatrix(head.value("W_v"), head.pathOf("W_v"));
    }
}

// "heads_off" and "edits" of a checkpoint (or of its "encoder" or "cross" object).
void readInterventions(const ObjectReader& checkpoint, Interventions& out)
{
    const QJsonValue off = checkpoint.value("heads_off");
    if (!off.isUndefined()) {
        const std::string path = checkpoint.pathOf("heads_off");
        if (!off.isArray())
            fail(path, "expected an array of [layer, head] pairs, got " + describe(off));
        const QJsonArray pairs = off.toArray();
        for (qsizetype k = 0; k < pairs.size(); ++k) {
            const QJsonArray pair = pairs.at(k).toArray();
            if (!pairs.at(k).isArray() || pair.size() != 2)
                fail(element(path, k), "expected [layer, head], both from 1");
            const auto layer = toInteger(pair.at(0), element(element(path, k), 0), 1, INT_MAX);
            const auto head = toInteger(pair.at(1), element(element(path, k), 1), 1, kMaxHeads);
            out.headsOff.insert({int(layer) - 1, int(head) - 1});
        }
    }
    const QJsonValue edits = checkpoint.value("edits");
    if (!edits.isUndefined()) {
        const std::string path = checkpoint.pathOf("edits");
        if (!edits.isArray())
            fail(path, "expected an array of layer edits, got " + describe(edits));
        for (qsizetype k = 0; k < edits.toArray().size(); ++k) {
            const QJsonValue item = edits.toArray().at(k);
            if (!item.isObject())
                fail(element(path, k), "expected an object, got " + describe(item));
            const ObjectReader edit(item.toObject(), element(path, k));
            if (!edit.has("layer"))
                fail(edit.pathOf("layer"), "missing; which layer (from 1) this edit changes");
            readLayerEdit(edit, out.layers[int(edit.integer("layer", 1, INT_MAX, 1)) - 1]);
        }
    }
}

// "checkpoint": the real model a scene runs its text through (format version 2).
CheckpointReference readCheckpoint(const ObjectReader& checkpoint, const QString& baseDir)
{
    CheckpointReference out;
    out.path = checkpoint.string("path", QString());
    if (out.path.isEmpty())
        fail(checkpoint.pathOf("path"), "missing; the model folder or Hugging Face id");
    // A relative folder lives beside the scene; anything else is a folder or an id as given.
    const QFileInfo relative(QDir(baseDir.isEmpty() ? QDir::currentPath() : baseDir), out.path);
    out.resolved = QFileInfo(out.path).isRelative() && relative.isDir()
                       ? relative.absoluteFilePath()
                       : out.path;
    out.layer = int(checkpoint.integer("layer", 1, INT_MAX, 1)) - 1;
    out.head = int(checkpoint.integer("head", 1, kMaxHeads, 1)) - 1;

    readInterventions(checkpoint, out.interventions);
    // An encoder-decoder model's other two kinds of heads; a file without them has none.
    if (checkpoint.has("encoder"))
        readInterventions(checkpoint.section("encoder"), out.encoderInterventions);
    if (checkpoint.has("cross"))
        readInterventions(checkpoint.section("cross"), out.crossInterventions);
    out.kind = checkpoint.string("kind", out.kind);
    if (checkpoint.has("kind") && out.kind != QLatin1String("encoder") &&
        out.kind != QLatin1String("decoder") && out.kind != QLatin1String("cross"))
        fail(checkpoint.pathOf("kind"), "expected \"encoder\", \"decoder\" or \"cross\", got \"" +
                                            out.kind.toStdString() + "\"");
    return out;
}

void readView(const ObjectReader& view, ViewSettings& out)
{
    out.view = view.string("view", out.view);
    out.colormap = view.string("colormap", out.colormap);
    out.showValues = view.boolean("show_values", out.showValues);
    out.valuePrecision = int(view.integer("precision", 0, kMaxValuePrecision, out.valuePrecision));
    out.compareScore = view.string("compare_score", out.compareScore);
    out.theme = view.string("theme", out.theme);
    out.transposed = view.boolean("transpose", out.transposed);
    out.colorScale = view.string("color_scale", out.colorScale);
    out.layer = int(view.integer("layer", 1, kMaxStackedLayers, 1)) - 1;
    if (out.colorScale != QLatin1String("fixed") && out.colorScale != QLatin1String("data"))
        fail(view.pathOf("color_scale"),
             "expected \"fixed\" or \"data\", got \"" + out.colorScale.toStdString() + "\"");
}

// Last of the reading: the file may be large, so every cheap check has passed first.
void loadWordVectors(const QString& baseDir, int dModel, EmbeddingSettings& embedding)
{
    if (embedding.kind != EmbeddingKind::WordVectors)
        return;
    if (embedding.wordVectorPath.isEmpty())
        fail("embedding.file", "required when embedding.kind is \"wordvectors\"");
    const QString path = baseDir.isEmpty() || QFileInfo(embedding.wordVectorPath).isAbsolute()
                             ? embedding.wordVectorPath
                             : QDir(baseDir).filePath(embedding.wordVectorPath);
    std::shared_ptr<const WordVectors> vectors;
    try {
        vectors = std::make_shared<const WordVectors>(WordVectors::load(path));
    } catch (const Error& error) {
        fail("embedding.file", error.what());
    }
    if (vectors->dimension() != dModel)
        fail("embedding.file", embedding.wordVectorPath.toStdString() + " has " +
                                   std::to_string(vectors->dimension()) +
                                   "-dimensional vectors; model.d_model is " +
                                   std::to_string(dModel));
    embedding.wordVectors = std::move(vectors);
}

} // namespace

Scene sceneFromJson(const QByteArray& json, const QString& baseDir)
{
    const ObjectReader top(parseDocument(json), std::string());
    checkFormatAndVersion(top);
    if (!top.has("text"))
        fail("text", "missing; a scene needs the sentence to attend over");

    Scene scene;
    scene.text = readSentence(top, "text");
    const QJsonValue source = top.value("source");
    if (!source.isUndefined() && !source.isNull())
        scene.source = readSentence(top, "source");
    scene.title = top.string("title", scene.title);
    scene.description = top.string("description", scene.description);

    const ModelShape model = readModelShape(top.section("model"), scene);
    readTokenizer(top.section("tokenizer"), scene.tokenizer);
    readPadding(top.section("padding"), scene);
    readEmbedding(top.section("embedding"), model.dModel, scene.embedding);
    readPositional(top.section("positional"), model.dModel, scene.positional);
    readAttention(top.section("attention"), scene);
    readMask(top.section("mask"), scene.mask);
    readView(top.section("view"), scene.view);
    if (top.has("checkpoint"))
        scene.checkpoint = readCheckpoint(top.section("checkpoint"), baseDir);
    scene.weights = readWeights(top, model, scene.seed);
    readLayers(top, model, scene);
    loadWordVectors(baseDir, model.dModel, scene.embedding);
    // A one-hot file without a vocabulary (older files) keeps the words of its sentences, so
    // that they keep their vectors when other words are typed.
    if (scene.embedding.vocabulary.empty())
        fitOneHotVocabulary(scene);

    // Token limits, the one-hot width, table lengths, padding positions and mask cells need
    // the tokens: resolving once here means a scene that loads can be computed.
    resolveProblem(scene);
    validateLayers(scene);
    if (scene.view.layer >= layerCount(scene))
        fail("view.layer", std::to_string(scene.view.layer + 1) + " is beyond the scene's " +
                               std::to_string(layerCount(scene)) + " layer(s)");
    return scene;
}

Scene loadScene(const QString& path, const QString& baseDir)
{
    const QByteArray bytes = readRegularFile(path, kMaxSceneFileBytes);
    try {
        return sceneFromJson(bytes, baseDir.isEmpty() ? QFileInfo(path).absolutePath() : baseDir);
    } catch (const Error& error) {
        throw Error(QFileInfo(path).fileName().toStdString(), error);
    }
}

void saveScene(const Scene& scene, const QString& path)
{
    writeFileAtomically(path, sceneToJson(scene));
}

} // namespace attn::core
