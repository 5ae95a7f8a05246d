#include "ui/document/scene_document.h"

#include "ui/document/scene_commands.h"
#include "ui/figures/figure_spec.h"
#include "ui/widgets/embedding_options.h"

#include "core/error.h"
#include "core/limits.h"
#include "core/model_weights.h"

#include <QFileInfo>

namespace attn::ui {

namespace {

QStringList numbered(Eigen::Index count, const QString& prefix = QString())
{
    QStringList labels;
    labels.reserve(qsizetype(count));
    for (Eigen::Index i = 0; i < count; ++i)
        labels.append(prefix + QString::number(i));
    return labels;
}

// The attention weights of stacked block `layer` (the scene's own weights in the first).
core::ModelWeights& attentionOf(core::Scene& scene, int layer)
{
    if (layer < 0 || layer >= core::layerCount(scene))
        throw core::Error("there is no layer " + std::to_string(layer + 1));
    return core::layerAttention(scene, layer);
}

core::StackedLayer& blockOf(core::Scene& scene, int layer)
{
    if (layer < 0 || layer >= int(scene.layers.size()))
        throw core::Error(scene.layers.empty()
                              ? std::string("the feed-forward weights belong to stacked blocks; "
                                            "this scene is one attention layer")
                              : "there is no layer " + std::to_string(layer + 1));
    return scene.layers[std::size_t(layer)];
}

core::HeadWeights& headOf(core::Scene& scene, WeightRef ref)
{
    core::ModelWeights& weights = attentionOf(scene, ref.layer);
    if (ref.head < 0 || ref.head >= weights.headCount())
        throw core::Error("there is no head " + std::to_string(ref.head + 1));
    return weights.heads[std::size_t(ref.head)];
}

const core::HeadWeights& headOf(const core::Scene& scene, WeightRef ref)
{
    return headOf(const_cast<core::Scene&>(scene), ref);
}

// The distinct tokens of the scene's sentences (keys first in cross-attention, as the
// one-hot vocabulary orders them) and how many positions are in use.
struct Vocabulary
{
    std::vector<QString> words;
    int positions = 0;
};

Vocabulary vocabularyOf(const core::Scene& scene)
{
    const std::vector<core::Token> queries =
        core::tokenize(scene.text, scene.tokenizer, core::kMaxTokens);
    Vocabulary v;
    v.positions = int(queries.size());
    if (scene.source) {
        const std::vector<core::Token> keys =
            core::tokenize(*scene.source, scene.tokenizer, core::kMaxTokens);
        v.positions = std::max(v.positions, int(keys.size()));
        v.words = core::sentenceVocabulary({&keys, &queries});
    } else {
        v.words = core::sentenceVocabulary({&queries});
    }
    return v;
}

void checkShape(const core::Matrix& matrix, Eigen::Index rows, Eigen::Index cols, WeightRef ref)
{
    if (matrix.rows() != rows || matrix.cols() != cols)
        throw core::Error(weightTitle(ref).toStdString() + ": expected " + std::to_string(rows) +
                          "x" + std::to_string(cols) + ", got " + std::to_string(matrix.rows()) +
                          "x" + std::to_string(matrix.cols()));
    if (!matrix.allFinite())
        throw core::Error(weightTitle(ref).toStdString() + ": every value must be a finite number");
}

} // namespace

// --- comparisons -------------------------------------------------------------------------

bool sameWeights(const core::ModelWeights& a, const core::ModelWeights& b)
{
    if (a.dModel != b.dModel || a.dK != b.dK || a.dV != b.dV || a.heads.size() != b.heads.size() ||
        !sameMatrix(a.Wo, b.Wo) || !sameMatrix(a.bo, b.bo))
        return false;
    for (std::size_t h = 0; h < a.heads.size(); ++h) {
        const core::HeadWeights& x = a.heads[h];
        const core::HeadWeights& y = b.heads[h];
        if (x.enabled != y.enabled || !sameMatrix(x.Wq, y.Wq) || !sameMatrix(x.Wk, y.Wk) ||
            !sameMatrix(x.Wv, y.Wv) || !sameMatrix(x.bq, y.bq) || !sameMatrix(x.bk, y.bk) ||
            !sameMatrix(x.bv, y.bv) || !sameMatrix(x.wAdditive, y.wAdditive) ||
            !sameMatrix(x.bilinear, y.bilinear))
            return false;
    }
    return true;
}

bool sameLayers(const std::vector<core::StackedLayer>& a, const std::vector<core::StackedLayer>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t l = 0; l < a.size(); ++l)
        if (!sameWeights(a[l].attention, b[l].attention) || !sameMatrix(a[l].W1, b[l].W1) ||
            !sameMatrix(a[l].b1, b[l].b1) || !sameMatrix(a[l].W2, b[l].W2) ||
            !sameMatrix(a[l].b2, b[l].b2))
            return false;
    return true;
}

bool sameEmbedding(const core::EmbeddingSettings& a, const core::EmbeddingSettings& b)
{
    return a.kind == b.kind && a.seed == b.seed && a.table == b.table &&
           a.vocabulary == b.vocabulary && a.wordVectorPath == b.wordVectorPath &&
           a.wordVectors == b.wordVectors;
}

bool samePositional(const core::PositionalSettings& a, const core::PositionalSettings& b)
{
    return a.kind == b.kind && sameMatrix(a.table, b.table);
}

// --- weights as matrices -----------------------------------------------------------------

QString weightTitle(WeightRef ref)
{
    const QString layer = ref.layer > 0 || ref.feedForward()
                              ? QObject::tr(" · layer %1").arg(ref.layer + 1)
                              : QString();
    const QString head = QObject::tr(" · head %1").arg(ref.head + 1) + layer;
    switch (ref.kind) {
    case WeightKind::W1:
        return QStringLiteral("W_1") + layer;
    case WeightKind::B1:
        return QStringLiteral("b_1") + layer;
    case WeightKind::W2:
        return QStringLiteral("W_2") + layer;
    case WeightKind::B2:
        return QStringLiteral("b_2") + layer;
    case WeightKind::Wq:
        return QStringLiteral("W^q") + head;
    case WeightKind::Wk:
        return QStringLiteral("W^k") + head;
    case WeightKind::Wv:
        return QStringLiteral("W^v") + head;
    case WeightKind::Additive:
        return QObject::tr("additive w") + head;
    case WeightKind::Bilinear:
        return QObject::tr("bilinear M") + head;
    case WeightKind::Wo:
        return QStringLiteral("W^O") + layer;
    case WeightKind::Embedding:
        return QObject::tr("Embeddings");
    case WeightKind::Positional:
        return QObject::tr("Positional encodings");
    }
    return {};
}

WeightView weightView(const core::Scene& scene, WeightRef ref)
{
    const core::ModelWeights& w = scene.weights;
    WeightView view;
    switch (ref.kind) {
    case WeightKind::Wq:
    case WeightKind::Wk:
    case WeightKind::Wv:
    case WeightKind::Additive:
    case WeightKind::Bilinear:
        view.matrix = slices::Weight::get(scene, ref);
        break;
    case WeightKind::W1:
    case WeightKind::B1:
    case WeightKind::W2:
    case WeightKind::B2:
        view.matrix = slices::Weight::get(scene, ref);
        break;
    case WeightKind::Wo: {
        view.matrix = attentionOf(const_cast<core::Scene&>(scene), ref.layer).Wo;
        // Rows of W^O are the concatenated heads' value dimensions.
        for (int h = 0; h < w.headCount(); ++h)
            for (int d = 0; d < w.dV; ++d)
                view.rowLabels.append(QStringLiteral("h%1·%2").arg(h + 1).arg(d));
        view.columnLabels = numbered(w.dModel);
        return view;
    }
    case WeightKind::Embedding: {
        const Vocabulary vocabulary = vocabularyOf(scene);
        std::vector<core::Token> tokens;
        for (const QString& word : vocabulary.words)
            tokens.push_back({word, -1, 0, false});
        view.matrix =
            core::embedTokens(tokens, scene.embedding, w.dModel, vocabulary.words).vectors;
        for (const QString& word : vocabulary.words)
            view.rowLabels.append(word);
        view.columnLabels = numbered(w.dModel);
        return view;
    }
    case WeightKind::Positional: {
        const Vocabulary vocabulary = vocabularyOf(scene);
        const int rows = scene.positional.kind == core::PositionalKind::Table
                             ? std::max(vocabulary.positions, int(scene.positional.table.rows()))
                             : vocabulary.positions;
        view.matrix = core::positionalEncoding(rows, w.dModel, scene.positional);
        view.rowLabels = numbered(rows, QStringLiteral("pos "));
        view.columnLabels = numbered(w.dModel);
        return view;
    }
    }
    view.rowLabels = numbered(view.matrix.rows());
    view.columnLabels = numbered(view.matrix.cols());
    return view;
}

core::Matrix slices::Weight::get(const core::Scene& s, Key ref)
{
    switch (ref.kind) {
    case WeightKind::Wq:
        return headOf(s, ref).Wq;
    case WeightKind::Wk:
        return headOf(s, ref).Wk;
    case WeightKind::Wv:
        return headOf(s, ref).Wv;
    case WeightKind::Additive:
        return headOf(s, ref).wAdditive;
    case WeightKind::Bilinear:
        return headOf(s, ref).bilinear;
    case WeightKind::Wo:
        return attentionOf(const_cast<core::Scene&>(s), ref.layer).Wo;
    case WeightKind::W1:
        return blockOf(const_cast<core::Scene&>(s), ref.layer).W1;
    case WeightKind::B1:
        return blockOf(const_cast<core::Scene&>(s), ref.layer).b1;
    case WeightKind::W2:
        return blockOf(const_cast<core::Scene&>(s), ref.layer).W2;
    case WeightKind::B2:
        return blockOf(const_cast<core::Scene&>(s), ref.layer).b2;
    case WeightKind::Embedding:
    case WeightKind::Positional:
        break; // tables: see setWeight
    }
    throw core::Error("not a weight matrix: " + weightTitle(ref).toStdString());
}

void slices::Weight::set(core::Scene& s, Key ref, const Value& v)
{
    switch (ref.kind) {
    case WeightKind::Wq:
        headOf(s, ref).Wq = v;
        return;
    case WeightKind::Wk:
        headOf(s, ref).Wk = v;
        return;
    case WeightKind::Wv:
        headOf(s, ref).Wv = v;
        return;
    case WeightKind::Additive:
        headOf(s, ref).wAdditive = v.row(0);
        return;
    case WeightKind::Bilinear:
        headOf(s, ref).bilinear = v;
        return;
    case WeightKind::Wo:
        attentionOf(s, ref.layer).Wo = v;
        return;
    case WeightKind::W1:
        blockOf(s, ref.layer).W1 = v;
        return;
    case WeightKind::B1:
        blockOf(s, ref.layer).b1 = v.row(0);
        return;
    case WeightKind::W2:
        blockOf(s, ref.layer).W2 = v;
        return;
    case WeightKind::B2:
        blockOf(s, ref.layer).b2 = v.row(0);
        return;
    case WeightKind::Embedding:
    case WeightKind::Positional:
        break;
    }
    throw core::Error("not a weight matrix: " + weightTitle(ref).toStdString());
}

void setWeight(core::Scene& scene, WeightRef ref, const core::Matrix& matrix)
{
    const core::Matrix shown = weightView(scene, ref).matrix;
    checkShape(matrix, shown.rows(), shown.cols(), ref);
    if (ref.kind == WeightKind::Embedding) {
        // Tokens not in the table fall back to their hashed vectors, exactly as before.
        const Vocabulary vocabulary = vocabularyOf(scene);
        scene.embedding.kind = core::EmbeddingKind::Table;
        scene.embedding.wordVectors.reset();
        scene.embedding.wordVectorPath.clear();
        for (std::size_t v = 0; v < vocabulary.words.size(); ++v) {
            const auto row = matrix.row(Eigen::Index(v));
            scene.embedding.table[vocabulary.words[v]] =
                std::vector<float>(row.data(), row.data() + row.size());
        }
    } else if (ref.kind == WeightKind::Positional) {
        scene.positional.kind = core::PositionalKind::Table;
        scene.positional.table = matrix;
    } else {
        slices::Weight::set(scene, ref, matrix);
    }
}

ModelShape modelShape(const core::Scene& scene)
{
    return {scene.weights.dModel, scene.weights.headCount(), scene.weights.dK, scene.weights.dV,
            scene.seed};
}

// --- the document ------------------------------------------------------------------------

SceneDocument::SceneDocument(QObject* parent) : QObject(parent)
{
    m_scene = core::makeScene(QStringLiteral("The cat sat on the mat"), 8, 2, 1);
    connect(&m_undo, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
}

SceneDocument::~SceneDocument()
{
    // The commands refer to this document; drop them before it goes.
    m_undo.clear();
}

QString SceneDocument::displayName() const
{
    if (!m_path.isEmpty())
        return QFileInfo(m_path).fileName();
    return m_scene.title.isEmpty() ? tr("Untitled") : m_scene.title;
}

void SceneDocument::reset(const core::Scene& scene, const QString& path, bool modified)
{
    m_undo.clear();
    m_scene = scene;
    m_gesture.end();
    m_result.reset();
    const bool pathChanged = path != m_path;
    m_path = path;
    m_undo.setClean();
    if (modified)
        m_undo.resetClean();
    emit sceneChanged(SceneChange::All);
    emit modifiedChanged(modified);
    if (pathChanged)
        emit filePathChanged(m_path);
}

void SceneDocument::markSaved(const QString& path)
{
    const bool pathChanged = path != m_path;
    m_path = path;
    m_undo.setClean();
    if (pathChanged)
        emit filePathChanged(m_path);
}

void SceneDocument::applyScene(const std::function<void(core::Scene&)>& change, SceneChanges what)
{
    change(m_scene);
    emit sceneChanged(what);
}

template <typename Slice, typename Key, typename Value>
void SceneDocument::push(const Key& key, Value value, const QString& text)
{
    auto command = std::make_unique<SliceCommand<Slice>>(*this, key, std::move(value));
    if (command->isNoOp())
        return;
    if (!text.isEmpty())
        command->setText(text);
    m_undo.push(command.release());
}

// The hand-marked positions that remain valid once `change` is applied.
slices::MarkedPositions
SceneDocument::markedAfter(const std::function<void(core::Scene&)>& change) const
{
    slices::MarkedPositions marked = slices::markedPositions(m_scene);
    if (marked.padding.empty() && marked.customCells.empty())
        return marked; // nothing to check: no tokenizing on every keystroke
    core::Scene after;
    after.text = m_scene.text;
    after.source = m_scene.source;
    after.tokenizer = m_scene.tokenizer;
    change(after);
    int queries = 0;
    int keys = 0;
    try {
        queries = int(core::tokenize(after.text, after.tokenizer, core::kMaxTokens).size());
        keys = after.source
                   ? int(core::tokenize(*after.source, after.tokenizer, core::kMaxTokens).size())
                   : queries;
    } catch (const core::Error&) {
        return marked; // too many tokens: the compute reports it; keep the marks
    }
    std::erase_if(marked.padding, [keys](int j) { return j >= keys; });
    std::erase_if(marked.customCells, [&](const std::pair<int, int>& c) {
        return c.first >= queries || c.second >= keys;
    });
    return marked;
}

void SceneDocument::setText(const QString& text)
{
    push<slices::Text>(slices::NoKey{}, slices::Text::Value{text, markedAfter([&](core::Scene& s) {
                                                                s.text = text;
                                                            })});
}

void SceneDocument::setSource(const std::optional<QString>& source)
{
    push<slices::Source>(
        slices::NoKey{},
        slices::Source::Value{source, markedAfter([&](core::Scene& s) { s.source = source; })});
}

void SceneDocument::setTokenizer(const core::TokenizerSettings& tokenizer)
{
    push<slices::Tokenizer>(slices::NoKey{},
                            slices::Tokenizer::Value{tokenizer, markedAfter([&](core::Scene& s) {
                                                         s.tokenizer = tokenizer;
                                                     })});
}

void SceneDocument::setPadding(const QString& token, const std::vector<int>& positions)
{
    push<slices::Padding>(slices::NoKey{}, slices::Padding::Value{token, positions});
}

void SceneDocument::setAttention(core::ScoreKind score, core::Normalization normalization,
                                 core::MaskFill fill)
{
    // The Edit menu names what changed: "Undo Change normalization to ReLU".
    QString text;
    if (score != m_scene.score)
        text = tr("Change score to %1").arg(scoreDisplayName(score));
    else if (normalization != m_scene.normalization)
        text = tr("Change normalization to %1").arg(normalizationDisplayName(normalization));
    else if (fill != m_scene.fill)
        text = tr("Change masked value to %1")
                   .arg(fill == core::MaskFill::NegativeInfinity ? QStringLiteral("−∞")
                                                                 : QStringLiteral("−9e15"));
    push<slices::Attention>(slices::NoKey{}, slices::Attention::Value{score, normalization, fill},
                            text);
}

void SceneDocument::setTemperature(float temperature)
{
    if (!(temperature > 0.0f) || !std::isfinite(temperature))
        throw core::Error("temperature", "must be a positive finite number");
    push<slices::Temperature>(slices::NoKey{}, temperature);
}

void SceneDocument::setMask(const core::MaskSpec& mask)
{
    const core::MaskSpec& old = m_scene.mask;
    auto onOff = [](bool on) { return on ? tr("on") : tr("off"); };
    QString text;
    if (mask.causal != old.causal)
        text = tr("Causal mask %1").arg(onOff(mask.causal));
    else if (mask.window != old.window)
        text =
            mask.window < 0 ? tr("Local window off") : tr("Local window N = %1").arg(mask.window);
    else if (mask.windowCausal != old.windowCausal)
        text = tr("One-sided window %1").arg(onOff(mask.windowCausal));
    else if (mask.padding != old.padding)
        text = tr("Mask padding keys %1").arg(onOff(mask.padding));
    else if (mask.customCells != old.customCells)
        text = mask.customCells.empty() ? tr("Clear custom mask") : tr("Paint mask cells");
    push<slices::Mask>(slices::NoKey{}, mask, text);
}

void SceneDocument::setHeadEnabled(int head, bool enabled)
{
    if (head < 0 || head >= m_scene.weights.headCount())
        throw core::Error("there is no head " + std::to_string(head + 1));
    push<slices::HeadEnabled>(head, enabled);
}

void SceneDocument::setWeightMatrix(WeightRef ref, const core::Matrix& matrix, const QString& text)
{
    if (ref.kind == WeightKind::Embedding || ref.kind == WeightKind::Positional) {
        // Only the settings change; copying the scene's weights here would be wasted.
        core::Scene edited;
        edited.text = m_scene.text;
        edited.source = m_scene.source;
        edited.tokenizer = m_scene.tokenizer;
        edited.embedding = m_scene.embedding;
        edited.positional = m_scene.positional;
        edited.weights.dModel = m_scene.weights.dModel;
        setWeight(edited, ref, matrix);
        if (ref.kind == WeightKind::Embedding)
            push<slices::Embedding>(slices::NoKey{}, edited.embedding, text);
        else
            push<slices::Positional>(slices::NoKey{}, edited.positional, text);
        return;
    }
    const core::Matrix current = slices::Weight::get(m_scene, ref);
    checkShape(matrix, current.rows(), current.cols(), ref);
    push<slices::Weight>(ref, matrix, text);
}

void SceneDocument::setEmbedding(const core::EmbeddingSettings& embedding, const QString& text)
{
    push<slices::Embedding>(
        slices::NoKey{}, embedding,
        !text.isEmpty() || embedding.kind == m_scene.embedding.kind
            ? text
            : tr("Change embedding to %1").arg(embeddingKindLabel(embedding.kind)));
}

void SceneDocument::setPositional(const core::PositionalSettings& positional, const QString& text)
{
    push<slices::Positional>(
        slices::NoKey{}, positional,
        !text.isEmpty() || positional.kind == m_scene.positional.kind
            ? text
            : tr("Change positions to %1").arg(positionalKindLabel(positional.kind)));
}

void SceneDocument::setModelShape(const ModelShape& shape)
{
    auto inRange = [](int value, int high, const char* name) {
        if (value < 1 || value > high)
            throw core::Error(name, "must be between 1 and " + std::to_string(high));
    };
    inRange(shape.heads, core::kMaxHeads, "heads");
    inRange(shape.dModel, core::kMaxModelWidth, "d_model");
    inRange(shape.dK, core::kMaxModelWidth, "d_k");
    inRange(shape.dV, core::kMaxModelWidth, "d_v");
    // The limit a scene file has (core/limits.h), so that what loads can also be made here.
    const std::int64_t perHead =
        std::int64_t(shape.dModel) * (2 * shape.dK + shape.dV) + std::int64_t(shape.dK) * shape.dK;
    if (perHead * shape.heads + std::int64_t(shape.heads) * shape.dV * shape.dModel >
        core::kMaxWeightElements)
        throw core::Error(
            "the weights of this shape would not fit in memory; use fewer heads or smaller widths");

    // Only what a new shape touches is copied: the sentences (for a one-hot vocabulary), the
    // embedding and positions, and each head's on/off switch.
    core::Scene shaped;
    shaped.text = m_scene.text;
    shaped.source = m_scene.source;
    shaped.tokenizer = m_scene.tokenizer;
    shaped.embedding = m_scene.embedding;
    shaped.positional = m_scene.positional;
    shaped.weights.dModel = m_scene.weights.dModel;
    for (const core::HeadWeights& head : m_scene.weights.heads)
        shaped.weights.heads.emplace_back().enabled = head.enabled;
    shaped.layers = m_scene.layers;
    core::reshapeModel(shaped, shape.dModel, shape.heads, shape.dK, shape.dV, shape.seed);
    slices::Model::Value value{shaped.seed, std::move(shaped.weights), std::move(shaped.embedding),
                               std::move(shaped.positional), std::move(shaped.layers)};
    const ModelShape old = modelShape(m_scene);
    QString text;
    if (shape.heads != old.heads)
        text = tr("Change heads to %1").arg(shape.heads);
    else if (shape.dModel != old.dModel)
        text = tr("Change d_model to %1").arg(shape.dModel);
    else if (shape.dK != old.dK)
        text = tr("Change d_k to %1").arg(shape.dK);
    else if (shape.dV != old.dV)
        text = tr("Change d_v to %1").arg(shape.dV);
    else if (shape.seed != old.seed)
        text = tr("Change seed to %1").arg(shape.seed);
    push<slices::Model>(slices::NoKey{}, std::move(value), text);
}

void SceneDocument::setWeights(const core::ModelWeights& weights, const QString& text)
{
    if (weights.headCount() != m_scene.weights.headCount() ||
        weights.dModel != m_scene.weights.dModel || weights.dK != m_scene.weights.dK ||
        weights.dV != m_scene.weights.dV)
        throw core::Error("the weights do not have the scene's shape");
    push<slices::Model>(slices::NoKey{},
                        slices::Model::Value{m_scene.seed, weights, m_scene.embedding,
                                             m_scene.positional, m_scene.layers},
                        text);
}

void SceneDocument::setLayerCount(int count)
{
    core::Scene stacked;
    stacked.weights = m_scene.weights;
    stacked.seed = m_scene.seed;
    stacked.layers = m_scene.layers;
    core::setLayerCount(stacked, count); // throws Error for a count outside 0 to 4
    push<slices::Layers>(slices::NoKey{}, std::move(stacked.layers),
                         count == 0 ? tr("One attention layer")
                                    : tr("Stacked blocks: %1").arg(count));
}

void SceneDocument::setTitle(const QString& title, const QString& description)
{
    push<slices::Title>(slices::NoKey{}, slices::Title::Value{title, description});
}

void SceneDocument::setView(const core::ViewSettings& view)
{
    if (view == m_scene.view)
        return;
    m_scene.view = view;
    emit sceneChanged(SceneChange::View);
}

void SceneDocument::setResult(std::shared_ptr<const core::AttentionResult> result)
{
    m_result = std::move(result);
    emit resultChanged();
}

} // namespace attn::ui
