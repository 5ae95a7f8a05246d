// Generation on the Vulkan backend, with the Khronos validation layer on: greedy ids against
// PyTorch's greedy search (tests/data/models/generation_expected.json) for every causal tiny
// checkpoint, and a seeded draw equal to the CPU backend's. Runs on lavapipe in CI; a machine
// without a Vulkan device skips, except under CI=true where that is a failure.

#include "core/cpu_backend.h"
#include "core/model/forward.h"
#include "core/model/generation.h"
#include "core/model/kv_cache.h"
#include "core/model/model_loader.h"
#include "gpu/instance.h"
#include "gpu/vulkan_backend.h"
#include "support/model_fixtures.h"
#include "support/results.h"

#include <QStandardPaths>
#include <QTest>

using namespace attn;

namespace {

QJsonObject expectedGeneration()
{
    QFile file(test::modelFixturesDir() + QStringLiteral("/generation_expected.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

std::vector<int> idsOf(const QJsonValue& array)
{
    std::vector<int> ids;
    for (const QJsonValue id : array.toArray())
        ids.push_back(id.toInt());
    return ids;
}

std::shared_ptr<const core::Model> fixture(const QString& name)
{
    return core::loadModel(test::modelFixturesDir() + QLatin1Char('/') + name);
}

} // namespace

class TestVulkanGeneration : public QObject
{
    Q_OBJECT

    std::unique_ptr<gpu::VulkanBackend> m_backend;

private slots:
    void initTestCase()
    {
        qputenv("ATTN_VK_VALIDATION", "1");
        qunsetenv("ATTN_VK_FAULT");
        qunsetenv("ATTN_VK_DEVICE");
        QStandardPaths::setTestModeEnabled(true); // the pipeline cache goes to ~/.qttest
        try {
            m_backend = gpu::VulkanBackend::create();
        } catch (const std::exception& e) {
            if (qgetenv("CI") == "true")
                QFAIL(qPrintable(QStringLiteral("CI=true and no Vulkan device: %1").arg(e.what())));
            QSKIP(qPrintable(QStringLiteral("no Vulkan device: %1").arg(e.what())));
        }
    }

    void cleanup() { QCOMPARE(gpu::validationMessageCount(), 0); }

    void cleanupTestCase()
    {
        m_backend.reset(); // destruction is validated too
        QCOMPARE(gpu::validationMessageCount(), 0);
    }

    void greedyMatchesPyTorch_data()
    {
        QTest::addColumn<QString>("name");
        const QJsonObject models = expectedGeneration()[QLatin1String("models")].toObject();
        QVERIFY(models.size() >= 6);
        for (const QString& name : models.keys())
            QTest::addRow("%s", qPrintable(name)) << name;
    }

    void greedyMatchesPyTorch()
    {
        QFETCH(QString, name);
        const QJsonObject all = expectedGeneration();
        const QJsonObject expected = all[QLatin1String("models")][name].toObject();
        const auto model = fixture(name);
        const std::vector<core::Token> prompt =
            core::modelTokens(*model, all[QLatin1String("prompt")].toString());
        core::GenerationSettings settings;
        settings.sampling.temperature = 0.0f;
        const core::Generation generation = core::generate(model, prompt, {}, *m_backend, settings);
        QCOMPARE(generation.generated, idsOf(expected[QLatin1String("generated")]));
    }

    // A cache made of a Vulkan forward, appended with the Vulkan block operations (the new rows'
    // attention is the CPU's): the logits of a whole CPU forward, to float32 tolerance.
    void cacheOfAVulkanForward_data() { greedyMatchesPyTorch_data(); }

    void cacheOfAVulkanForward()
    {
        QFETCH(QString, name);
        const auto model = fixture(name);
        std::vector<core::Token> tokens = core::modelTokens(*model, QStringLiteral("The cat sat"));
        auto cache = core::KvCache::fromResult(*core::runModel(model, tokens, {}, *m_backend));
        QVERIFY(cache);
        core::CpuBackend cpu;
        for (int id : {9, 31, 9}) {
            core::Token token;
            token.id = id;
            tokens.push_back(token);
            const core::RowVector logits = cache->append({token}, m_backend->blockOps());
            const core::RowVector want =
                core::runModel(model, tokens, {}, cpu)->predictions.back().logits;
            const double scale = std::max(1.0, double(want.cwiseAbs().maxCoeff()));
            QVERIFY(test::maxDifference(logits, want) / scale < 2e-5);
        }
    }

    // The window's typing through the cache on Vulkan: a Vulkan run extended by two words (its
    // block operations on Vulkan) shows what a whole CPU forward shows.
    void extendedVulkanRun_data() { greedyMatchesPyTorch_data(); }

    void extendedVulkanRun()
    {
        QFETCH(QString, name);
        const auto model = fixture(name);
        core::ForwardOptions options;
        options.keepIntermediates = false;
        const auto earlier =
            core::runModel(model, core::modelTokens(*model, QStringLiteral("The cat sat")), {},
                           *m_backend, options);
        const auto tokens = core::modelTokens(*model, QStringLiteral("The cat sat on the"));
        const auto extended = core::extendResult(earlier, tokens, *m_backend, options);
        QVERIFY(extended);
        QCOMPARE(extended->backend, m_backend->name());
        core::CpuBackend cpu;
        const auto whole = core::runModel(model, tokens, {}, cpu, options);
        for (int l = 0; l < whole->layerCount(); ++l)
            for (std::size_t h = 0; h < whole->layers[std::size_t(l)]->heads.size(); ++h)
                QVERIFY(test::maxDifference(extended->layers[std::size_t(l)]->heads[h].weights,
                                            whole->layers[std::size_t(l)]->heads[h].weights) <
                        1e-5);
        const core::RowVector& want = whole->predictions.back().logits;
        const double scale = std::max(1.0, double(want.cwiseAbs().maxCoeff()));
        QVERIFY(test::maxDifference(extended->predictions.back().logits, want) / scale < 2e-5);
    }

    // The same seed draws the same tokens on both backends (the logits agree to float32
    // rounding; at temperature 0.7 no draw lands that close to a boundary here).
    void seededDrawEqualsCpu()
    {
        const auto model = fixture(QStringLiteral("qwen2"));
        const std::vector<core::Token> prompt =
            core::modelTokens(*model, QStringLiteral("The cat sat"));
        core::GenerationSettings settings;
        settings.sampling.temperature = 0.7f;
        settings.sampling.topP = 0.9f;
        settings.sampling.seed = 11;
        settings.maxNewTokens = 12;
        settings.endTokens = std::vector<int>{};
        core::CpuBackend cpu;
        QCOMPARE(core::generate(model, prompt, {}, *m_backend, settings).generated,
                 core::generate(model, prompt, {}, cpu, settings).generated);
    }
};

QTEST_GUILESS_MAIN(TestVulkanGeneration)
#include "tst_vulkan_generation.moc"
