// Any two settings of a scene side by side. The difference is the second minus the
// first, cell for cell, as the backend computes each; labels say what changed; shapes that
// differ are refused; the transpose puts queries in columns as seed 001 writes them.

#include "core/analysis/scene_comparison.h"
#include "core/attention_result.h"
#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene.h"
#include "core/scene_json.h"

#include <QTest>

using namespace attn;
using core::SceneVariant;

namespace {

core::Scene example()
{
    return core::loadScene(
        QStringLiteral(ATTN_RESOURCES_DIR "/examples/02-student-scholarship.json"));
}

} // namespace

class TestSceneComparison : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void variants_data()
    {
        QTest::addColumn<int>("which");
        QTest::addRow("causal on") << 0;
        QTest::addRow("one-hot") << 1;
        QTest::addRow("unscaled") << 2;
        QTest::addRow("sparsemax") << 3;
        QTest::addRow("no positions") << 4;
    }
    void variants()
    {
        QFETCH(int, which);
        // Hashed embeddings and sinusoidal positions, so every variant changes something.
        const core::Scene scene = core::makeScene(example().text, 16, 2, 1);
        SceneVariant variant;
        switch (which) {
        case 0:
            variant.causal = true;
            break;
        case 1:
            variant.embedding = core::EmbeddingKind::OneHot;
            break;
        case 2:
            variant.score = core::ScoreKind::Dot;
            break;
        case 3:
            variant.normalization = core::Normalization::Sparsemax;
            break;
        case 4:
            variant.positional = core::PositionalKind::None;
            break;
        }
        const core::Scene second = core::applyVariant(scene, variant);
        core::CpuBackend backend;
        const core::SceneComparison c = core::compareScenes(
            scene, second, backend, {}, QStringLiteral("as is"), variant.label());
        const auto a = backend.compute(core::resolveProblem(scene), {});
        const auto b = backend.compute(core::resolveProblem(second), {});
        QCOMPARE(c.heads.size(), a->heads.size());
        for (std::size_t h = 0; h < c.heads.size(); ++h) {
            QVERIFY(c.heads[h].weights == b->heads[h].weights - a->heads[h].weights);
            QCOMPARE(c.heads[h].maxAbs,
                     double((b->heads[h].weights - a->heads[h].weights).cwiseAbs().maxCoeff()));
            QVERIFY(c.heads[h].maxAbs > 0.0); // each of these changes the weights
            for (double tv : c.heads[h].rowTotalVariation)
                QVERIFY(tv >= 0.0 && tv <= 1.0 + 1e-6);
        }
        QVERIFY(c.outputDifference == b->output - a->output);
        QVERIFY(!variant.label().isEmpty() && variant.label() != QLatin1String("as is"));
        if (which == 0) {
            // The causal mask zeroes the upper triangle: the difference there is -weight.
            QCOMPARE(c.heads[0].weights(0, 3), -a->heads[0].weights(0, 3));
            QCOMPARE(variant.label(), QStringLiteral("causal mask on"));
        }
    }

    // An edited head against the original: only that head's weights and the output move.
    void editedHead()
    {
        const core::Scene scene = example();
        core::Scene edited = scene;
        edited.weights.heads[0].Wq *= 3.0f;
        core::CpuBackend backend;
        const core::SceneComparison c = core::compareScenes(scene, edited, backend);
        QVERIFY(c.heads[0].maxAbs > 0.0);
        for (std::size_t h = 1; h < c.heads.size(); ++h)
            QCOMPARE(c.heads[h].maxAbs, 0.0);
        QCOMPARE(SceneVariant().label(), QStringLiteral("as is"));
        QVERIFY(core::compareScenes(scene, scene, backend).outputMaxAbs == 0.0);
    }

    void differentShapesAreRefused()
    {
        const core::Scene scene = example();
        core::Scene longer = scene;
        longer.text += QStringLiteral(" again");
        core::CpuBackend backend;
        try {
            core::compareScenes(scene, longer, backend);
            QFAIL("no error");
        } catch (const core::Error& e) {
            QVERIFY(QString::fromUtf8(e.what()).contains(QLatin1String("shape")));
        }
    }

    // Seed 001: "Taking softmax, the sum of each column must be 1" (queries in columns).
    void transposeForSeed001()
    {
        const auto result = core::CpuBackend().compute(core::resolveProblem(example()), {});
        const core::Matrix& w = result->heads[0].weights;
        const core::Matrix columns = core::orientWeights(w, true);
        QCOMPARE(columns.rows(), w.cols());
        QCOMPARE(columns(2, 5), w(5, 2));
        QVERIFY((columns.colwise().sum().array() - 1.0f).abs().maxCoeff() < 1e-5f);
        QVERIFY(core::orientWeights(w, false) == w);

        // The figure layer's flag, kept in the scene file (view.transpose).
        core::Scene scene = example();
        QVERIFY(!core::sceneToJson(scene).contains("transpose"));
        scene.view.transposed = true;
        QVERIFY(core::sceneFromJson(core::sceneToJson(scene)).view.transposed);
    }
};

QTEST_GUILESS_MAIN(TestSceneComparison)
#include "tst_scene_comparison.moc"
