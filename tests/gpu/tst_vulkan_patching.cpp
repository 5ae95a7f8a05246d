// Activation patching and the logit lens on the Vulkan backend against the CPU reference: the
// runs a sweep stacks side by side in one problem (the cells between them masked by hand) give
// the CPU's numbers, on a causal model and on a masked one (no causal mask: every cell between
// two runs is a custom cell). Without a Vulkan device the test skips, except under CI=true.

#include "core/cpu_backend.h"
#include "core/model/activation_patching.h"
#include "core/model/logit_lens.h"
#include "gpu/vulkan_backend.h"
#include "support/lens_fixtures.h"

#include <QStandardPaths>
#include <QTest>

#include <cmath>

using namespace attn;

class TestVulkanPatching : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void sameAsTheCpu_data();
    void sameAsTheCpu();

private:
    std::unique_ptr<gpu::VulkanBackend> m_backend;
};

void TestVulkanPatching::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // the pipeline cache goes to ~/.qttest
    try {
        m_backend = gpu::VulkanBackend::create();
    } catch (const std::exception& e) {
        if (qgetenv("CI") == "true")
            QFAIL(qPrintable(QStringLiteral("CI=true and no Vulkan device: %1").arg(e.what())));
        QSKIP(qPrintable(QStringLiteral("no Vulkan device: %1").arg(e.what())));
    }
}

void TestVulkanPatching::sameAsTheCpu_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("clean");
    QTest::addColumn<QString>("corrupt");
    QTest::newRow("gpt2") << "gpt2"
                          << "The cat sat on the"
                          << "The dog sat on the";
    QTest::newRow("bert") << "bert"
                          << "the cat sat on the [MASK]."
                          << "the dog sat on the [MASK].";
}

void TestVulkanPatching::sameAsTheCpu()
{
    QFETCH(QString, name);
    QFETCH(QString, clean);
    QFETCH(QString, corrupt);
    const auto model = test::loadFixture(name);
    const core::PatchingMetric metric{5, 9};
    core::CpuBackend cpu;
    const auto cleanTokens = core::modelTokens(*model, clean);
    const auto corruptTokens = core::modelTokens(*model, corrupt);
    const core::ActivationPatching want = core::activationPatching(
        core::patchingRuns(model, cleanTokens, corruptTokens, {}, metric, cpu), cpu);
    const core::PatchingRuns runs =
        core::patchingRuns(model, cleanTokens, corruptTokens, {}, metric, *m_backend);
    const core::ActivationPatching got = core::activationPatching(runs, *m_backend);
    QVERIFY(std::abs(runs.cleanMetric - want.runs.cleanMetric) < 1e-4);
    QVERIFY(test::maxDifference(got.headMetric, want.headMetric) < 1e-4);
    QVERIFY(test::maxDifference(got.positionMetric, want.positionMetric) < 1e-4);
    const core::LogitLens lens = core::logitLens(*runs.clean, *m_backend);
    const core::LogitLens reference = core::logitLens(*want.runs.clean, cpu);
    QVERIFY(test::maxDifference(lens.probability, reference.probability) < 1e-5);
}

QTEST_GUILESS_MAIN(TestVulkanPatching)
#include "tst_vulkan_patching.moc"
