#pragma once

#include "core/matrix.h"
#include "core/training/layer_parameters.h"

#include <QHash>
#include <QString>
#include <optional>
#include <vector>

namespace attn::core {

struct Scene;
class WordVectors;

// Deterministic t-SNE (van der Maaten & Hinton 2008): exact gradients, PCA initialisation,
// no random numbers, so the same points always give the same map.
struct TsneSettings
{
    double perplexity = 10.0; // lowered to (n - 1) / 3 for few points
    int iterations = 500;
    double learningRate = 0.0;  // 0: max(n / 12, 50) (Belkina et al. 2019)
    double exaggeration = 12.0; // early exaggeration of P
    int exaggerationIterations = 100;

    void validate() const; // throws Error naming the field
};

// Seed 003's embedding space: word vectors as points, the words nearest a word by cosine,
// and the analogy a - b + c ("king - man + woman" lands near "queen").
class EmbeddingSpace
{
public:
    // Throws Error when the sizes disagree or a vector is not finite.
    EmbeddingSpace(std::vector<QString> words, Matrix vectors, QString source);

    // The vectors a scene uses: every word of its embedding table (kind table), of its
    // word-vector file (kind wordvectors), its one-hot vocabulary, or its sentences' words
    // (hashed); positions are not added.
    static EmbeddingSpace fromScene(const Scene& scene);
    // A GloVe / word2vec file's first `limit` words (all when limit < 0); GloVe files list the
    // most frequent words first.
    static EmbeddingSpace fromWordVectors(const WordVectors& vectors, const QString& source,
                                          qsizetype limit = -1);

    int size() const { return int(m_words.size()); }
    int dimension() const { return int(m_vectors.cols()); }
    const std::vector<QString>& words() const { return m_words; }
    const Matrix& vectors() const { return m_vectors; }
    const QString& source() const { return m_source; }
    std::optional<int> indexOf(const QString& word) const; // the first row with this word

    struct Neighbour
    {
        int index = -1;
        QString word;
        double cosine = 0.0;
    };
    // The `count` rows most similar to `vector` by cosine, best first, leaving out `exclude`
    // and zero rows.
    std::vector<Neighbour> nearest(const RowVectorD& vector, int count,
                                   const std::vector<int>& exclude = {}) const;
    // The words nearest `word` (itself left out). Throws Error for a word not in the space.
    std::vector<Neighbour> nearest(const QString& word, int count) const;

    struct Analogy
    {
        RowVectorD target;              // a/|a| - b/|b| + c/|c|
        std::vector<Neighbour> answers; // nearest to target, a, b and c left out
    };
    // a - b + c on unit vectors, answered by cosine without the three words themselves (3CosAdd,
    // Mikolov et al. 2013, as word2vec's and gensim's most_similar). Throws Error naming an
    // unknown word.
    Analogy analogy(const QString& a, const QString& b, const QString& c, int count) const;

    struct Map
    {
        std::vector<int> indices;      // the rows shown, in the order of `points`
        Matrix points;                 // n x 2
        std::vector<double> explained; // PCA: the two components' share of the variance
    };
    // The rows (all when `indices` is empty) on their first two principal components.
    Map pcaMap(const std::vector<int>& indices = {}) const;
    // The same rows by t-SNE (O(n^2) per iteration: meant for up to a few thousand words).
    Map tsneMap(const std::vector<int>& indices = {}, const TsneSettings& settings = {}) const;

private:
    MatrixD rowsOf(const std::vector<int>& indices) const;

    std::vector<QString> m_words;
    Matrix m_vectors;
    Eigen::VectorXd m_norms;
    QHash<QString, int> m_index;
    QString m_source;
};

// t-SNE of the rows of `points` to two dimensions, as EmbeddingSpace::tsneMap.
MatrixD tsne(const MatrixD& points, const TsneSettings& settings);
// t-SNE's joint affinities P of the rows of `points` (van der Maaten & Hinton 2008, eq. 1 with
// p_ij = (p_j|i + p_i|j) / 2n): symmetric, zero diagonal, summing to 1; each p_j|i row has
// the perplexity asked for, lowered to (n - 1) / 3 for few points.
MatrixD tsneAffinities(const MatrixD& points, double perplexity);

} // namespace attn::core
