// Seed 003: the embedding space. PCA against a direct eigen-decomposition of the
// covariance; nearest words and the analogy king - man + woman on the committed 8-dimensional
// vectors (tests/data/wordvectors/make_analogy_8d.py says how they were made); t-SNE
// deterministic and faithful to clusters; a scene's vectors.

#include "core/analysis/embedding_space.h"
#include "core/analysis/pca.h"
#include "core/error.h"
#include "core/random.h"
#include "core/scene_json.h"
#include "core/word_vectors.h"

#include <Eigen/Eigenvalues>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <vector>

using namespace attn;
using core::EmbeddingSpace;
using core::MatrixD;

namespace {

core::WordVectors analogyVectors()
{
    return core::WordVectors::load(
        QStringLiteral(ATTN_TEST_DATA_DIR "/wordvectors/analogy_8d.txt"));
}

// Points with clearly different variances along random directions.
MatrixD randomCloud(int n, int d, std::uint64_t seed)
{
    core::Random random(seed);
    MatrixD m(n, d);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < d; ++j)
            m(i, j) = random.normal() * double(d - j) + 0.3 * double(j);
    // Mix the axes so the components are not the coordinate axes.
    MatrixD mix(d, d);
    for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j)
            mix(i, j) = random.normal();
    return m * mix;
}

void comparePcaWithEigen(const MatrixD& x, int k)
{
    const core::PcaResult pca = core::principalComponents(x, k);
    // The direct way: the eigen-decomposition of the covariance C = X_c^T X_c / (n - 1).
    const MatrixD centred = x.rowwise() - x.colwise().mean();
    const Eigen::MatrixXd cov = centred.transpose() * centred / double(x.rows() - 1);
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(cov);
    const Eigen::VectorXd values = eigen.eigenvalues().reverse(); // ascending -> descending
    const Eigen::MatrixXd vectors = eigen.eigenvectors().rowwise().reverse();
    QCOMPARE(int(pca.variances.size()), k);
    for (int c = 0; c < k; ++c) {
        QVERIFY(std::abs(pca.variances[std::size_t(c)] - values(c)) < 1e-9 * values(0));
        const double alignment = pca.components.row(c).dot(vectors.col(c));
        QVERIFY2(std::abs(std::abs(alignment) - 1.0) < 1e-9,
                 qPrintable(QString::number(alignment)));
        const Eigen::VectorXd projected = centred * vectors.col(c) * (alignment > 0 ? 1.0 : -1.0);
        QVERIFY((pca.projected.col(c) - projected).cwiseAbs().maxCoeff() <
                1e-9 * std::max(1.0, projected.cwiseAbs().maxCoeff()));
        QVERIFY(std::abs(pca.explained[std::size_t(c)] - values(c) / values.sum()) < 1e-12);
    }
}

} // namespace

class TestEmbeddingSpace : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pcaMatchesEigenDecomposition()
    {
        comparePcaWithEigen(randomCloud(40, 6, 3), 2);
        comparePcaWithEigen(randomCloud(12, 5, 4), 5);
        // The committed word vectors, as a user's map shows them.
        const EmbeddingSpace space =
            EmbeddingSpace::fromWordVectors(analogyVectors(), QStringLiteral("analogy_8d"));
        comparePcaWithEigen(space.vectors().cast<double>(), 2);
        const EmbeddingSpace::Map map = space.pcaMap();
        QCOMPARE(int(map.points.rows()), space.size());
        QVERIFY(map.explained[0] >= map.explained[1]);
        // Fixed signs: the same data gives the same map.
        const core::PcaResult once = core::principalComponents(randomCloud(20, 4, 9));
        const core::PcaResult again = core::principalComponents(randomCloud(20, 4, 9));
        QVERIFY(once.projected == again.projected);
    }

    // Seed 003: "king - man + woman" and "woman : ? :: man : bart".
    void analogiesAndNeighbours()
    {
        const EmbeddingSpace space =
            EmbeddingSpace::fromWordVectors(analogyVectors(), QStringLiteral("analogy_8d"));
        QCOMPARE(space.dimension(), 8);
        QVERIFY(space.size() >= 40);
        const EmbeddingSpace::Analogy royal = space.analogy(
            QStringLiteral("king"), QStringLiteral("man"), QStringLiteral("woman"), 3);
        QCOMPARE(royal.answers.front().word, QStringLiteral("queen"));
        for (const auto& answer : royal.answers)
            QVERIFY(answer.word != QLatin1String("king") && answer.word != QLatin1String("woman"));
        const EmbeddingSpace::Analogy simpsons = space.analogy(
            QStringLiteral("bart"), QStringLiteral("man"), QStringLiteral("woman"), 3);
        QCOMPARE(simpsons.answers.front().word, QStringLiteral("lisa"));

        // The cosine, checked by hand for the first neighbour of "king".
        const auto near = space.nearest(QStringLiteral("king"), 5);
        QCOMPARE(near.size(), std::size_t(5));
        QCOMPARE(near.front().word, QStringLiteral("emperor"));
        const Eigen::VectorXd a =
            space.vectors().row(*space.indexOf(QStringLiteral("king"))).cast<double>();
        const Eigen::VectorXd b = space.vectors().row(near.front().index).cast<double>();
        QVERIFY(std::abs(near.front().cosine - a.dot(b) / (a.norm() * b.norm())) < 1e-12);
        for (std::size_t n = 1; n < near.size(); ++n)
            QVERIFY(near[n - 1].cosine >= near[n].cosine);
        for (const auto& n : near)
            QVERIFY(n.word != QLatin1String("king"));
        // Royal words come before the animals.
        QVERIFY(near.size() >= 2 && near[1].word == QLatin1String("prince"));

        try {
            space.nearest(QStringLiteral("unicorn"), 3);
            QFAIL("no error");
        } catch (const core::Error& e) {
            QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("unicorn")));
        }
    }

    // The vectors a scene computes with: its table, in the table's word order.
    void sceneVectors()
    {
        const core::Scene scene = core::loadScene(
            QStringLiteral(ATTN_RESOURCES_DIR "/examples/05-translation-hard-alignment.json"));
        const EmbeddingSpace space = EmbeddingSpace::fromScene(scene);
        QCOMPARE(space.size(), int(scene.embedding.table.size()));
        const int chat = *space.indexOf(QStringLiteral("chat"));
        QCOMPARE(space.vectors()(chat, 0), 2.0f);
        // "chat" and "cat" are the same vector in this table.
        const auto near = space.nearest(QStringLiteral("chat"), 1);
        QCOMPARE(near.front().word, QStringLiteral("cat"));
        QVERIFY(std::abs(near.front().cosine - 1.0) < 1e-12);

        core::Scene hashed = core::makeScene(QStringLiteral("the cat sat on the mat"), 8, 1, 1);
        QCOMPARE(EmbeddingSpace::fromScene(hashed).size(), 5); // distinct words
    }

    // P is a joint distribution: symmetric (an aliased p + p^T broke this), zero on the
    // diagonal, summing to 1; and on three points, worked by hand.
    void tsneAffinitiesAreAJointDistribution()
    {
        core::Random random(7);
        MatrixD x(40, 5);
        for (int i = 0; i < 40; ++i)
            for (int j = 0; j < 5; ++j)
                x(i, j) = random.normal() + (j == 0 ? 3.0 * (i % 4) : 0.0);
        const MatrixD p = core::tsneAffinities(x, 5.0);
        QCOMPARE(p.rows(), 40);
        QVERIFY((p - p.transpose()).cwiseAbs().maxCoeff() == 0.0);
        QVERIFY(std::abs(p.sum() - 1.0) < 1e-9);
        QVERIFY(p.diagonal().cwiseAbs().maxCoeff() == 0.0);
        QVERIFY(p.minCoeff() >= 0.0);

        // Three points: perplexity lowered to (3 - 1) / 3 -> 1, so each point's p_j|i is all
        // on its nearest neighbour (entropy 0). On a line at 0, 1, 3: 0 and 1 pick each other,
        // 3 picks 1. P = (p_j|i + p_i|j) / 6.
        MatrixD line(3, 1);
        line << 0.0, 1.0, 3.0;
        const MatrixD q = core::tsneAffinities(line, 30.0);
        QVERIFY(std::abs(q(0, 1) - 2.0 / 6.0) < 1e-6);
        QVERIFY(std::abs(q(1, 2) - 1.0 / 6.0) < 1e-6);
        QVERIFY(q(0, 2) < 1e-6);
        QVERIFY(q(0, 1) == q(1, 0) && q(1, 2) == q(2, 1));
    }

    // t-SNE: no randomness, and points of two far-apart clusters stay apart.
    void tsneIsDeterministicAndKeepsClusters()
    {
        core::Random random(5);
        MatrixD x(30, 6);
        for (int i = 0; i < 30; ++i)
            for (int j = 0; j < 6; ++j)
                x(i, j) = 0.3 * random.normal() + (i < 15 ? 5.0 : -5.0) * (j == 2 ? 1.0 : 0.0);
        core::TsneSettings settings;
        settings.iterations = 300;
        const MatrixD y = core::tsne(x, settings);
        QVERIFY(y == core::tsne(x, settings));
        QVERIFY(y.allFinite());
        // Every point's nearest neighbours on the map are of its own cluster (t-SNE keeps
        // neighbourhoods, not the clusters' shapes: a cluster may lie as an arc, so a test
        // against the clusters' centres would ask more than t-SNE promises).
        for (int i = 0; i < 30; ++i) {
            std::vector<std::pair<double, int>> byDistance;
            for (int j = 0; j < 30; ++j)
                if (j != i)
                    byDistance.emplace_back((y.row(i) - y.row(j)).norm(), j);
            std::partial_sort(byDistance.begin(), byDistance.begin() + 3, byDistance.end());
            for (int k = 0; k < 3; ++k)
                QVERIFY2((byDistance[std::size_t(k)].second < 15) == (i < 15),
                         qPrintable(QStringLiteral("point %1's neighbour %2").arg(i).arg(k + 1)));
        }
        settings.perplexity = -1;
        QVERIFY_THROWS_EXCEPTION(core::Error, core::tsne(x, settings));

        const EmbeddingSpace space =
            EmbeddingSpace::fromWordVectors(analogyVectors(), QStringLiteral("analogy_8d"));
        const EmbeddingSpace::Map map = space.tsneMap({0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
        QCOMPARE(int(map.points.rows()), 10);
    }

private:
    static core::RowVectorD RowVectorFor(const EmbeddingSpace& space, int row)
    {
        return space.vectors().row(row).cast<double>();
    }
};

QTEST_GUILESS_MAIN(TestEmbeddingSpace)
#include "tst_embedding_space.moc"
