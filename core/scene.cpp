#include "scene.h"

#include "error.h"
#include "limits.h"

#include <algorithm>

namespace attn::core {
namespace {

std::vector<Token> tokenizeSentence(const QString& text, const TokenizerSettings& settings,
                                    const char* field)
{
    std::vector<Token> tokens;
    try {
        tokens = tokenize(text, settings, kMaxTokens);
    } catch (const Error& error) {
        throw Error(field, error);
    }
    if (tokens.empty())
        throw Error(field, "the sentence has no tokens; type at least one word");
    return tokens;
}

// The scene key a user edits to fix an embedding or positional error, so that resolve
// errors name their JSON path as scene_json's do (docs/SCENE_FORMAT.md).
const char* embeddingKey(EmbeddingKind kind)
{
    switch (kind) {
    case EmbeddingKind::Table:
        return "embedding.table";
    case EmbeddingKind::WordVectors:
        return "embedding.file";
    case EmbeddingKind::Hashed:
    case EmbeddingKind::OneHot:
        break;
    }
    return "embedding.kind";
}

const char* positionalKey(PositionalKind kind)
{
    return kind == PositionalKind::Table ? "positional.table" : "positional.kind";
}

template <typename Fn> auto prefixed(const char* key, Fn&& fn)
{
    try {
        return fn();
    } catch (const Error& error) {
        throw Error(key, error);
    }
}

} // namespace

std::shared_ptr<const Problem> resolveProblem(const Scene& scene)
{
    auto problem = std::make_shared<Problem>();
    Problem& p = *problem;
    p.cross = scene.source.has_value();
    p.queryTokens = tokenizeSentence(scene.text, scene.tokenizer, "text");
    p.keyTokens =
        p.cross ? tokenizeSentence(*scene.source, scene.tokenizer, "source") : p.queryTokens;

    scene.weights.validate();
    const int d = scene.weights.dModel;
    const std::vector<QString> vocabulary = p.cross
                                                ? sentenceVocabulary({&p.keyTokens, &p.queryTokens})
                                                : sentenceVocabulary({&p.queryTokens});

    const char* embeddingPath = embeddingKey(scene.embedding.kind);
    const char* positionalPath = positionalKey(scene.positional.kind);
    auto embed = [&](const std::vector<Token>& tokens) {
        return prefixed(embeddingPath,
                        [&] { return embedTokens(tokens, scene.embedding, d, vocabulary); });
    };
    auto position = [&](int count) {
        return prefixed(positionalPath,
                        [&] { return positionalEncoding(count, d, scene.positional); });
    };

    Embedded queries = embed(p.queryTokens);
    p.queryEmbedding = std::move(queries.vectors);
    p.queryFallback = std::move(queries.fallback);
    p.queryPosition = position(p.queryCount());
    if (p.cross) {
        Embedded keys = embed(p.keyTokens);
        p.keyEmbedding = std::move(keys.vectors);
        p.keyFallback = std::move(keys.fallback);
        p.keyPosition = position(p.keyCount());
    } else {
        p.keyFallback = p.queryFallback;
    }

    // Padding is a property of keys (the sentence that is attended to).
    p.keyIsPadding.assign(std::size_t(p.keyCount()), false);
    if (!scene.paddingToken.isEmpty())
        for (int j = 0; j < p.keyCount(); ++j)
            p.keyIsPadding[std::size_t(j)] = p.keyTokens[std::size_t(j)].text == scene.paddingToken;
    for (std::size_t n = 0; n < scene.paddingPositions.size(); ++n) {
        const int j = scene.paddingPositions[n];
        if (j < 0 || j >= p.keyCount())
            throw Error("padding.positions[" + std::to_string(n) + "]",
                        std::to_string(j) + " is not a token position (0 to " +
                            std::to_string(p.keyCount() - 1) + ")");
        p.keyIsPadding[std::size_t(j)] = true;
    }

    p.weights = std::make_shared<const ModelWeights>(scene.weights);
    static_cast<AttentionSettings&>(p) = static_cast<const AttentionSettings&>(scene);
    p.validate();
    return problem;
}

std::vector<QString> sceneVocabulary(const Scene& scene)
{
    const std::vector<Token> queries = tokenize(scene.text, scene.tokenizer, kMaxTokens);
    if (!scene.source)
        return sentenceVocabulary({&queries});
    const std::vector<Token> keys = tokenize(*scene.source, scene.tokenizer, kMaxTokens);
    return sentenceVocabulary({&keys, &queries});
}

void fitOneHotVocabulary(Scene& scene)
{
    if (scene.embedding.kind != EmbeddingKind::OneHot)
        return;
    const std::size_t width = std::size_t(std::max(0, scene.weights.dModel));
    std::vector<QString>& vocabulary = scene.embedding.vocabulary;
    if (vocabulary.size() > width)
        vocabulary.resize(width);
    if (vocabulary.size() == width)
        return;
    for (const QString& word : sceneVocabulary(scene)) {
        if (vocabulary.size() == width)
            break;
        if (std::find(vocabulary.begin(), vocabulary.end(), word) == vocabulary.end())
            vocabulary.push_back(word);
    }
}

void reshapeModel(Scene& scene, int dModel, int heads, int dK, int dV, std::uint64_t seed)
{
    ModelWeights weights = makeWeights(dModel, heads, dK, dV, WeightInit::Xavier, seed);
    for (int h = 0; h < std::min(heads, scene.weights.headCount()); ++h)
        weights.heads[std::size_t(h)].enabled = scene.weights.heads[std::size_t(h)].enabled;
    if (dModel != scene.weights.dModel) {
        if (scene.embedding.kind == EmbeddingKind::Table) {
            scene.embedding.kind = EmbeddingKind::Hashed;
            scene.embedding.table.clear();
        }
        if (scene.positional.kind == PositionalKind::Table) {
            scene.positional.kind = PositionalKind::Sinusoidal;
            scene.positional.table = Matrix();
        }
    }
    scene.weights = std::move(weights);
    scene.seed = seed;
    if (isStacked(scene)) { // every block drawn again for the new shape, as the first
        const int count = int(scene.layers.size());
        const int dFeedForward = dModel == scene.layers.front().W1.rows()
                                     ? scene.layers.front().dFeedForward()
                                     : 2 * dModel;
        scene.layers.clear();
        setLayerCount(scene, count, dFeedForward);
    }
    try {
        fitOneHotVocabulary(scene);
    } catch (const Error&) {
        // a sentence that cannot be tokenized: computing it says why; the vocabulary stays
    }
}

void keepEmbeddingsAsTable(Scene& scene)
{
    const std::vector<QString> words = sceneVocabulary(scene);
    std::vector<Token> tokens;
    tokens.reserve(words.size());
    for (const QString& word : words)
        tokens.push_back({word, -1, 0, false});
    const Matrix vectors =
        embedTokens(tokens, scene.embedding, scene.weights.dModel, words).vectors;
    for (std::size_t v = 0; v < words.size(); ++v) {
        const auto row = vectors.row(Eigen::Index(v));
        scene.embedding.table[words[v]] = std::vector<float>(row.data(), row.data() + row.size());
    }
    scene.embedding.kind = EmbeddingKind::Table;
    scene.embedding.wordVectors.reset();
    scene.embedding.wordVectorPath.clear();
}

void keepPositionsAsTable(Scene& scene)
{
    int positions = int(tokenize(scene.text, scene.tokenizer, kMaxTokens).size());
    if (scene.source)
        positions =
            std::max(positions, int(tokenize(*scene.source, scene.tokenizer, kMaxTokens).size()));
    if (scene.positional.kind == PositionalKind::Table)
        positions = std::max(positions, int(scene.positional.table.rows()));
    scene.positional.table = positionalEncoding(positions, scene.weights.dModel, scene.positional);
    scene.positional.kind = PositionalKind::Table;
}

Scene makeScene(const QString& text, int dModel, int heads, std::uint64_t seed)
{
    if (heads < 1 || heads > kMaxHeads)
        throw Error("heads", "must be between 1 and " + std::to_string(kMaxHeads));
    if (dModel < 1 || dModel > kMaxModelWidth)
        throw Error("d_model", "must be between 1 and " + std::to_string(kMaxModelWidth));
    if (dModel % heads != 0)
        throw Error("heads", std::to_string(heads) + " does not divide d_model " +
                                 std::to_string(dModel) + " (d_k = d_model / h)");
    Scene scene;
    scene.text = text;
    scene.seed = seed;
    scene.embedding.seed = seed;
    scene.positional.kind = PositionalKind::Sinusoidal;
    const int dk = dModel / heads;
    scene.weights = makeWeights(dModel, heads, dk, dk, WeightInit::Xavier, seed);
    return scene;
}

} // namespace attn::core
