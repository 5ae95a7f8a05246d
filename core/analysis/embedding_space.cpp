#include "embedding_space.h"

#include "core/analysis/pca.h"
#include "core/embedding.h"
#include "core/error.h"
#include "core/scene.h"
#include "core/word_vectors.h"

#include <algorithm>
#include <numeric>

namespace attn::core {

EmbeddingSpace::EmbeddingSpace(std::vector<QString> words, Matrix vectors, QString source)
    : m_words(std::move(words)), m_vectors(std::move(vectors)), m_source(std::move(source))
{
    if (Eigen::Index(m_words.size()) != m_vectors.rows())
        throw Error("embedding space: " + std::to_string(m_words.size()) + " words for " +
                    std::to_string(m_vectors.rows()) + " vectors");
    if (!m_vectors.allFinite())
        throw Error("embedding space: a vector holds a NaN or an infinity");
    m_norms = m_vectors.cast<double>().rowwise().norm();
    m_index.reserve(qsizetype(m_words.size()));
    for (int i = int(m_words.size()) - 1; i >= 0; --i)
        m_index.insert(m_words[std::size_t(i)], i); // the first row of a repeated word wins
}

EmbeddingSpace EmbeddingSpace::fromScene(const Scene& scene)
{
    std::vector<QString> words;
    const EmbeddingSettings& settings = scene.embedding;
    switch (settings.kind) {
    case EmbeddingKind::Table:
        for (const auto& entry : settings.table)
            words.push_back(entry.first);
        break;
    case EmbeddingKind::WordVectors:
        if (!settings.wordVectors)
            throw Error("embedding.file: the word vectors are not loaded");
        return fromWordVectors(*settings.wordVectors, settings.wordVectorPath);
    case EmbeddingKind::OneHot:
        words = settings.vocabulary.empty() ? sceneVocabulary(scene) : settings.vocabulary;
        if (int(words.size()) > scene.weights.dModel)
            words.resize(std::size_t(scene.weights.dModel));
        break;
    case EmbeddingKind::Hashed:
        words = sceneVocabulary(scene);
        break;
    }
    std::vector<Token> tokens;
    for (const QString& word : words)
        tokens.push_back({word, -1, 0, false});
    Matrix vectors =
        embedTokens(tokens, settings, scene.weights.dModel, sceneVocabulary(scene)).vectors;
    return EmbeddingSpace(std::move(words), std::move(vectors), QStringLiteral("scene"));
}

EmbeddingSpace EmbeddingSpace::fromWordVectors(const WordVectors& vectors, const QString& source,
                                               qsizetype limit)
{
    std::vector<QString> words = vectors.words();
    if (limit >= 0 && qsizetype(words.size()) > limit)
        words.resize(std::size_t(limit));
    Matrix m(Eigen::Index(words.size()), vectors.dimension());
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        m.row(r) = Eigen::Map<const RowVector>(vectors.row(r), vectors.dimension());
    return EmbeddingSpace(std::move(words), std::move(m), source);
}

std::optional<int> EmbeddingSpace::indexOf(const QString& word) const
{
    const auto found = m_index.constFind(word);
    if (found == m_index.cend())
        return std::nullopt;
    return *found;
}

std::vector<EmbeddingSpace::Neighbour>
EmbeddingSpace::nearest(const RowVectorD& vector, int count, const std::vector<int>& exclude) const
{
    if (vector.size() != m_vectors.cols())
        throw Error("embedding space: a " + std::to_string(vector.size()) +
                    "-dimensional vector among " + std::to_string(m_vectors.cols()) +
                    "-dimensional words");
    const double norm = vector.norm();
    std::vector<Neighbour> out;
    if (norm == 0.0 || count <= 0)
        return out;
    // cos(x, v) = x . v / (|x| |v|), every row at once in float, then in double for the few kept.
    const Eigen::VectorXf dots = m_vectors * vector.transpose().cast<float>();
    std::vector<int> candidates;
    candidates.reserve(std::size_t(size()));
    for (int i = 0; i < size(); ++i)
        if (m_norms(i) > 0.0 && std::find(exclude.begin(), exclude.end(), i) == exclude.end())
            candidates.push_back(i);
    auto cosine = [&](int i) { return double(dots(i)) / (m_norms(i) * norm); };
    const std::size_t kept = std::min(candidates.size(), std::size_t(count));
    std::partial_sort(
        candidates.begin(), candidates.begin() + std::ptrdiff_t(kept), candidates.end(),
        [&](int a, int b) { return cosine(a) > cosine(b) || (cosine(a) == cosine(b) && a < b); });
    for (std::size_t n = 0; n < kept; ++n) {
        const int i = candidates[n];
        const RowVectorD row = m_vectors.row(i).cast<double>();
        out.push_back({i, m_words[std::size_t(i)], row.dot(vector) / (m_norms(i) * norm)});
    }
    return out;
}

std::vector<EmbeddingSpace::Neighbour> EmbeddingSpace::nearest(const QString& word, int count) const
{
    const std::optional<int> i = indexOf(word);
    if (!i)
        throw Error("word: \"" + word.toStdString() + "\" is not among the " +
                    std::to_string(size()) + " words");
    return nearest(RowVectorD(m_vectors.row(*i).cast<double>()), count, {*i});
}

EmbeddingSpace::Analogy EmbeddingSpace::analogy(const QString& a, const QString& b,
                                                const QString& c, int count) const
{
    std::vector<int> rows;
    for (const QString& word : {a, b, c}) {
        const std::optional<int> i = indexOf(word);
        if (!i)
            throw Error("analogy: \"" + word.toStdString() + "\" is not among the " +
                        std::to_string(size()) + " words");
        if (m_norms(*i) == 0.0)
            throw Error("analogy: \"" + word.toStdString() + "\" has a zero vector");
        rows.push_back(*i);
    }
    auto unit = [&](int i) { return RowVectorD(m_vectors.row(i).cast<double>() / m_norms(i)); };
    Analogy out;
    out.target = unit(rows[0]) - unit(rows[1]) + unit(rows[2]);
    out.answers = nearest(out.target, count, rows);
    return out;
}

MatrixD EmbeddingSpace::rowsOf(const std::vector<int>& indices) const
{
    if (indices.empty())
        return m_vectors.cast<double>();
    MatrixD rows(Eigen::Index(indices.size()), m_vectors.cols());
    for (std::size_t n = 0; n < indices.size(); ++n) {
        if (indices[n] < 0 || indices[n] >= size())
            throw Error("indices[" + std::to_string(n) + "]: " + std::to_string(indices[n]) +
                        " is not a word of the space (0 to " + std::to_string(size() - 1) + ")");
        rows.row(Eigen::Index(n)) = m_vectors.row(indices[n]).cast<double>();
    }
    return rows;
}

EmbeddingSpace::Map EmbeddingSpace::pcaMap(const std::vector<int>& indices) const
{
    const PcaResult pca = principalComponents(rowsOf(indices), 2);
    Map map;
    map.indices = indices;
    if (map.indices.empty()) {
        map.indices.resize(std::size_t(size()));
        std::iota(map.indices.begin(), map.indices.end(), 0);
    }
    map.points = Matrix::Zero(Eigen::Index(map.indices.size()), 2);
    map.points.leftCols(pca.projected.cols()) = pca.projected.cast<float>();
    map.explained = pca.explained;
    map.explained.resize(2, 0.0);
    return map;
}

EmbeddingSpace::Map EmbeddingSpace::tsneMap(const std::vector<int>& indices,
                                            const TsneSettings& settings) const
{
    Map map;
    map.indices = indices;
    if (map.indices.empty()) {
        map.indices.resize(std::size_t(size()));
        std::iota(map.indices.begin(), map.indices.end(), 0);
    }
    map.points = tsne(rowsOf(indices), settings).cast<float>();
    return map;
}

} // namespace attn::core
