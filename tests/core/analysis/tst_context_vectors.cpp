// Seed 000's context-sensitive representations: "bank" in example 24's two sentences enters
// with the same vector and leaves with two outputs, each recomputed here from the scene's
// weights with softmax(Q Kᵀ / √d_k) V per head, concatenated and times W^O.

#include "core/analysis/context_vectors.h"
#include "core/embedding.h"
#include "core/error.h"
#include "core/scene.h"
#include "core/scene_json.h"

#include <QTest>
#include <cmath>

using namespace attn;

namespace {

// The layer's output row of `word` in `text`, from the scene's weights and hashed vectors
// (seed 000's formula: out = sum_i alpha_i value_i, each head; then Concat W^O).
Eigen::RowVectorXd outputOf(const core::Scene& scene, const QStringList& words, int at)
{
    const core::ModelWeights& w = scene.weights;
    Eigen::MatrixXd x(words.size(), w.dModel);
    for (int i = 0; i < words.size(); ++i)
        x.row(i) = core::hashedEmbedding(words[i], scene.embedding.seed, w.dModel).cast<double>();
    Eigen::RowVectorXd concat(w.headCount() * w.dV);
    for (int h = 0; h < w.headCount(); ++h) {
        const core::HeadWeights& head = w.heads[std::size_t(h)];
        const Eigen::MatrixXd q = x * head.Wq.cast<double>();
        const Eigen::MatrixXd k = x * head.Wk.cast<double>();
        const Eigen::MatrixXd v = x * head.Wv.cast<double>();
        Eigen::RowVectorXd s = q.row(at) * k.transpose() / std::sqrt(double(w.dK));
        s = (s.array() - s.maxCoeff()).exp();
        concat.segment(h * w.dV, w.dV) = (s / s.sum()) * v;
    }
    return concat * w.Wo.cast<double>();
}

} // namespace

class TestContextVectors : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void oneInputTwoOutputs()
    {
        const core::Scene scene = core::loadScene(
            QStringLiteral(ATTN_RESOURCES_DIR "/examples/24-context-sensitive-word.json"));
        const QString other = QStringLiteral("the bank approved the loan");
        const core::ContextComparison c =
            core::compareContexts(scene, other, QStringLiteral("bank"));
        QCOMPARE(c.sentences, QStringList({QStringLiteral("the river bank flooded"), other}));
        QCOMPARE(c.inputDifference, 0.0);
        const Eigen::RowVectorXd first =
            outputOf(scene, QStringList{"the", "river", "bank", "flooded"}, 2);
        const Eigen::RowVectorXd second =
            outputOf(scene, QStringList{"the", "bank", "approved", "the", "loan"}, 1);
        QVERIFY((c.outputs.row(0) - first).cwiseAbs().maxCoeff() < 1e-5);
        QVERIFY((c.outputs.row(1) - second).cwiseAbs().maxCoeff() < 1e-5);
        QVERIFY(std::abs(c.outputDifference - (first - second).cwiseAbs().maxCoeff()) < 1e-5);
        QVERIFY2(c.outputDifference > 0.01, qPrintable(QString::number(c.outputDifference)));
        const double cosine = first.dot(second) / (first.norm() * second.norm());
        QVERIFY(std::abs(c.outputCosine - cosine) < 1e-5);
    }

    void refusals()
    {
        core::Scene scene = core::loadScene(
            QStringLiteral(ATTN_RESOURCES_DIR "/examples/24-context-sensitive-word.json"));
        QVERIFY_THROWS_EXCEPTION(core::Error,
                                 core::compareContexts(scene, QStringLiteral("no such word here"),
                                                       QStringLiteral("bank")));
        scene.source = QStringLiteral("a source");
        QVERIFY_THROWS_EXCEPTION(
            core::Error,
            core::compareContexts(scene, QStringLiteral("the bank"), QStringLiteral("bank")));
    }
};

QTEST_GUILESS_MAIN(TestContextVectors)
#include "tst_context_vectors.moc"
