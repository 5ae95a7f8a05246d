// The Vulkan loader is opened at run time (gpu/vulkan_functions.h), not linked. Without it
// (ATTN_VK_LOADER naming a missing file or a file that is no library, or the injected
// ATTN_VK_FAULT=no-loader, which takes the same path) both --backend auto and vulkan compute
// on the CPU with the CPU's very numbers and a notice naming the loader; with it the Vulkan
// backend computes, validation layer on. A machine without a Vulkan device skips the cases that
// need one, except under CI=true where that is a failure (as in tst_vulkan_backend).

#include "core/cpu_backend.h"
#include "gpu/backend_factory.h"
#include "gpu/instance.h"
#include "support/problems.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cmath>
#include <string>

using namespace attn;

namespace {

// Whether libvulkan.so.1 is in this process; RTLD_NOLOAD opens nothing that is not.
bool loaderInProcess()
{
    void* handle = dlopen("libvulkan.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (handle)
        dlclose(handle);
    return handle != nullptr;
}

// The file the dynamic linker opened for libvulkan.so.1 ("/usr/lib/.../libvulkan.so.1"), or
// empty while it is not in the process.
QByteArray loaderFile()
{
    void* handle = dlopen("libvulkan.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!handle)
        return {};
    link_map* map = nullptr;
    QByteArray file;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
        file = map->l_name;
    dlclose(handle);
    return file;
}

// Three heads, causal mask: enough for every stage to produce real numbers.
std::shared_ptr<core::Problem> makeProblem()
{
    auto problem = test::randomProblem(9, 9, 24, 3, 11, false);
    problem->mask.causal = true;
    problem->validate();
    return problem;
}

float maxAbsDiff(const core::Matrix& a, const core::Matrix& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() ? (a - b).cwiseAbs().maxCoeff() : INFINITY;
}

} // namespace

// Vulkan cases need a device: skip without one, but fail under CI=true.
#define REQUIRE_VULKAN(available, why)                                                             \
    do {                                                                                           \
        if (!(available)) {                                                                        \
            if (qgetenv("CI") == "true")                                                           \
                QFAIL(qPrintable(QStringLiteral("CI=true and no Vulkan: %1").arg(why)));           \
            QSKIP(qPrintable(QStringLiteral("no Vulkan: %1").arg(why)));                           \
        }                                                                                          \
    } while (0)

class TestVulkanLoader : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();

    // In declaration order: the first cases run before anything has opened the loader.
    void loaderIsNotLinked();
    void missingLoaderFallsBackToCpu_data();
    void missingLoaderFallsBackToCpu();
    void presentLoaderRunsVulkan_data();
    void presentLoaderRunsVulkan();

private:
    core::CpuBackend m_cpu;
};

void TestVulkanLoader::initTestCase()
{
    qputenv("ATTN_VK_VALIDATION", "1");
    qunsetenv("ATTN_VK_LOADER");
    qunsetenv("ATTN_VK_FAULT");
    qunsetenv("ATTN_VK_DEVICE");
}

void TestVulkanLoader::cleanup()
{
    qunsetenv("ATTN_VK_LOADER");
    qunsetenv("ATTN_VK_FAULT");
    QCOMPARE(gpu::validationMessageCount(), 0);
}

// The test links attention_gpu as the executable does: were libvulkan.so.1 a link dependency,
// the dynamic linker would have loaded it before main().
void TestVulkanLoader::loaderIsNotLinked()
{
    QVERIFY(!loaderInProcess());
}

void TestVulkanLoader::missingLoaderFallsBackToCpu_data()
{
    QTest::addColumn<QByteArray>("loader"); // ATTN_VK_LOADER; "notalib" is made in a temp dir
    QTest::addColumn<QByteArray>("fault");  // ATTN_VK_FAULT
    QTest::addColumn<QByteArray>("named");  // what the notice must say
    QTest::addColumn<bool>("loadFirst");    // open the real loader before
    const QByteArray missing = "/nonexistent/attention-explorer/libvulkan.so.1";
    QTest::newRow("missing file") << missing << QByteArray() << missing << false;
    QTest::newRow("not a library")
        << QByteArray("notalib") << QByteArray() << QByteArray("notalib") << false;
    QTest::newRow("injected no-loader")
        << QByteArray() << QByteArray("no-loader")
        << QByteArray("libvulkan.so.1: injected by ATTN_VK_FAULT=no-loader") << false;
    // Once a loader is in use the variable still counts: a missing file is still missing.
    QTest::newRow("missing file, loader in use") << missing << QByteArray() << missing << true;
}

void TestVulkanLoader::missingLoaderFallsBackToCpu()
{
    QFETCH(QByteArray, loader);
    QFETCH(QByteArray, fault);
    QFETCH(QByteArray, named);
    QFETCH(bool, loadFirst);
    if (loadFirst) {
        gpu::listDevices(); // creates an instance, so opens the loader
        REQUIRE_VULKAN(loaderInProcess(), "libvulkan.so.1 cannot be opened");
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    if (loader == "notalib") {
        // A file by that name that is no shared library: dlopen fails on its header.
        loader = dir.filePath(QStringLiteral("libvulkan.so.1")).toUtf8();
        named = loader;
        QFile file(QString::fromUtf8(loader));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not an ELF file\n");
    }
    if (!loader.isEmpty())
        qputenv("ATTN_VK_LOADER", loader);
    if (!fault.isEmpty())
        qputenv("ATTN_VK_FAULT", fault);

    QVERIFY(gpu::listDevices().empty());
    const auto problem = makeProblem();
    const auto expected = m_cpu.compute(problem, {});
    for (auto choice : {gpu::BackendChoice::Auto, gpu::BackendChoice::Vulkan}) {
        std::string notice;
        auto backend = gpu::createBackend(choice, "", &notice);
        QCOMPARE(backend->name(), std::string("CPU"));
        QVERIFY2(notice.find("cannot load the Vulkan loader") != std::string::npos, notice.c_str());
        QVERIFY2(notice.find(named.toStdString()) != std::string::npos, notice.c_str());
        QVERIFY2(notice.find('\n') == std::string::npos, notice.c_str());

        const auto result = backend->compute(problem, {});
        QCOMPARE(result->backend, std::string("CPU"));
        QCOMPARE(result->heads.size(), expected->heads.size());
        for (std::size_t h = 0; h < expected->heads.size(); ++h) {
            QVERIFY(result->heads[h].weights == expected->heads[h].weights);
            QVERIFY(result->heads[h].rawScores == expected->heads[h].rawScores);
            QVERIFY(result->heads[h].output == expected->heads[h].output);
        }
        QVERIFY(result->output == expected->output);
        QVERIFY(result->diagnostics.warnings == expected->diagnostics.warnings);
    }
}

void TestVulkanLoader::presentLoaderRunsVulkan_data()
{
    QTest::addColumn<QByteArray>("loader"); // ATTN_VK_LOADER; "file" is the file in use
    QTest::newRow("default") << QByteArray();
    QTest::newRow("by name") << QByteArray("libvulkan.so.1");
    QTest::newRow("by its file") << QByteArray("file");
}

// The loader opened at run time drives the device, the validation layer included (cleanup()
// fails on any message), and the numbers match the CPU reference.
void TestVulkanLoader::presentLoaderRunsVulkan()
{
    QFETCH(QByteArray, loader);
    if (loader == "file") {
        gpu::listDevices();
        loader = loaderFile(); // another name for the library in use
        REQUIRE_VULKAN(!loader.isEmpty(), "libvulkan.so.1 cannot be opened");
    }
    if (!loader.isEmpty())
        qputenv("ATTN_VK_LOADER", loader);

    const auto problem = makeProblem();
    const auto expected = m_cpu.compute(problem, {});
    // Vulkan by name: auto picks the CPU backend where the only device is lavapipe.
    for (auto choice : {gpu::BackendChoice::Vulkan}) {
        std::string notice;
        auto backend = gpu::createBackend(choice, "", &notice);
        REQUIRE_VULKAN(backend->name() == "Vulkan", QString::fromStdString(notice));
        QVERIFY2(notice.empty(), notice.c_str());
        QVERIFY(loaderInProcess());
        QVERIFY(!gpu::listDevices().empty());

        const auto result = backend->compute(problem, {});
        QCOMPARE(result->backend, std::string("Vulkan"));
        QCOMPARE(result->heads.size(), expected->heads.size());
        for (std::size_t h = 0; h < expected->heads.size(); ++h)
            QVERIFY2(maxAbsDiff(result->heads[h].weights, expected->heads[h].weights) <= 1e-5f,
                     qPrintable(QStringLiteral("head %1 weights").arg(h)));
        const float scale = std::max(expected->output.cwiseAbs().maxCoeff(), 1e-30f);
        QVERIFY(maxAbsDiff(result->output, expected->output) / scale <= 1e-4f);
        QVERIFY(result->diagnostics.warnings == expected->diagnostics.warnings);
    }
}

QTEST_GUILESS_MAIN(TestVulkanLoader)
#include "tst_vulkan_loader.moc"
