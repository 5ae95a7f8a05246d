// --backend auto: the backend that is faster for the work. Decided from the device
// type alone, so these cases need no Vulkan device: lists of devices as vkEnumeratePhysicalDevices
// might report them.

#include "core/error.h"
#include "gpu/backend_factory.h"

#include <QTest>

#include <cctype>
#include <string>
#include <vector>

using namespace attn;

namespace {

gpu::DeviceInfo device(int index, const char* name, VkPhysicalDeviceType type)
{
    gpu::DeviceInfo info;
    info.index = index;
    info.name = name;
    info.vkType = type;
    info.type = type == VK_PHYSICAL_DEVICE_TYPE_CPU              ? "CPU"
                : type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU   ? "discrete GPU"
                : type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? "integrated GPU"
                                                                 : "other";
    return info;
}

const gpu::DeviceInfo kLavapipe =
    device(0, "llvmpipe (LLVM 15.0.6, 256 bits)", VK_PHYSICAL_DEVICE_TYPE_CPU);
const gpu::DeviceInfo kDiscrete =
    device(1, "NVIDIA H100 80GB HBM3", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
const gpu::DeviceInfo kIntegrated =
    device(2, "Intel(R) UHD Graphics 620", VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU);

} // namespace

Q_DECLARE_METATYPE(std::vector<gpu::DeviceInfo>)

class TestBackendChoice : public QObject
{
    Q_OBJECT

private slots:
    void autoPicksTheFasterBackend_data()
    {
        QTest::addColumn<std::vector<gpu::DeviceInfo>>("devices");
        QTest::addColumn<QString>("selector");
        QTest::addColumn<bool>("vulkan");
        QTest::addColumn<QString>("reasonNames"); // a part of the reason
        QTest::newRow("no device")
            << std::vector<gpu::DeviceInfo>{} << QString() << false << "No Vulkan device";
        QTest::newRow("lavapipe only")
            << std::vector{kLavapipe} << QString() << false << "CPU implementation";
        QTest::newRow("lavapipe and a GPU")
            << std::vector{kLavapipe, kDiscrete} << QString() << true << "NVIDIA";
        QTest::newRow("integrated GPU")
            << std::vector{kIntegrated, kLavapipe} << QString() << true << "integrated GPU";
        // A device named on the command line (or ATTN_VK_DEVICE) is what the user asked for.
        QTest::newRow("lavapipe named")
            << std::vector{kLavapipe} << "llvmpipe" << true << "asked for";
        QTest::newRow("lavapipe by index")
            << std::vector{kLavapipe, kDiscrete} << "0" << true << "llvmpipe";
    }

    void autoPicksTheFasterBackend()
    {
        QFETCH(std::vector<gpu::DeviceInfo>, devices);
        QFETCH(QString, selector);
        QFETCH(bool, vulkan);
        QFETCH(QString, reasonNames);
        const auto decision = gpu::decideAutoBackend(devices, selector.toStdString());
        QCOMPARE(std::string(gpu::toString(decision.backend)),
                 vulkan ? std::string("vulkan") : std::string("cpu"));
        QVERIFY2(decision.reason.find(reasonNames.toStdString()) != std::string::npos,
                 decision.reason.c_str());
        QVERIFY(decision.reason.find('\n') == std::string::npos); // one line for the status bar
        // A sentence in the window's message bar: it starts with a capital.
        QVERIFY2(std::isupper(static_cast<unsigned char>(decision.reason.front())),
                 decision.reason.c_str());
    }

    void unknownSelectorIsAnError()
    {
        QVERIFY_THROWS_EXCEPTION(core::Error,
                                 gpu::decideAutoBackend({kLavapipe}, "no such device"));
    }
};

QTEST_GUILESS_MAIN(TestBackendChoice)
#include "tst_backend_choice.moc"
