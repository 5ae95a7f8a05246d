#include "backend_factory.h"

#include "core/cpu_backend.h"
#include "core/enum_names.h"
#include "fallback_backend.h"
#include "instance.h"
#include "vulkan_backend.h"
#include "vulkan_error.h"

namespace attn::gpu {

namespace {

constexpr core::EnumNames<BackendChoice, 3> kChoiceNames{{{BackendChoice::Auto, "auto"},
                                                          {BackendChoice::Cpu, "cpu"},
                                                          {BackendChoice::Vulkan, "vulkan"}}};

} // namespace

std::optional<BackendChoice> parseBackendChoice(std::string_view name)
{
    return core::enumFromName(kChoiceNames, name);
}

std::string_view toString(BackendChoice choice)
{
    return core::enumName(kChoiceNames, choice, "auto");
}

AutoBackendDecision decideAutoBackend(const std::vector<DeviceInfo>& devices,
                                      const std::string& selector)
{
    if (devices.empty())
        return {BackendChoice::Cpu, "No Vulkan device: computing on the CPU backend"};
    const DeviceInfo& device =
        selectDevice(devices, selector); // throws for a selector that names none
    if (!selector.empty())
        return {BackendChoice::Vulkan, "Vulkan on " + device.name + ", the device asked for"};
    // selectDevice prefers every GPU type to a CPU device: a CPU device here is the only kind.
    if (device.vkType == VK_PHYSICAL_DEVICE_TYPE_CPU)
        return {BackendChoice::Cpu,
                "The only Vulkan device, " + device.name +
                    ", is a CPU implementation, several times slower than the CPU "
                    "backend: computing on the CPU backend (Vulkan: --backend vulkan)"};
    return {BackendChoice::Vulkan, "Vulkan on " + device.name + ", a " + device.type};
}

std::unique_ptr<core::Backend> createBackend(BackendChoice choice,
                                             const std::string& deviceSelector, std::string* notice)
{
    if (choice == BackendChoice::Cpu)
        return std::make_unique<core::CpuBackend>();
    if (choice == BackendChoice::Auto) {
        std::vector<DeviceInfo> devices;
        try {
            const Instance instance = Instance::create();
            devices = enumerateDevices(instance);
        } catch (const core::BackendFault& fault) {
            if (notice)
                *notice = std::string("Vulkan is not available (") + fault.what() +
                          "): using the CPU backend";
            return std::make_unique<core::CpuBackend>();
        }
        const AutoBackendDecision decision =
            decideAutoBackend(devices, effectiveDeviceSelector(deviceSelector));
        if (decision.backend == BackendChoice::Cpu) {
            if (notice)
                *notice = decision.reason;
            return std::make_unique<core::CpuBackend>();
        }
    }
    try {
        return std::make_unique<FallbackBackend>(VulkanBackend::create(deviceSelector));
    } catch (const core::BackendFault& fault) {
        if (notice)
            *notice = std::string("Vulkan is not available (") + fault.what() +
                      "): using the CPU backend";
        return std::make_unique<core::CpuBackend>();
    }
}

std::vector<DeviceInfo> listDevices()
{
    try {
        const Instance instance = Instance::create();
        return enumerateDevices(instance);
    } catch (const VulkanError&) {
        return {};
    }
}

core::BackendFactory backendFactory()
{
    core::BackendFactory factory;
    factory.create = &createBackend;
    factory.devices = [] {
        std::vector<core::BackendFactory::Device> devices;
        for (const DeviceInfo& info : listDevices())
            devices.push_back({info.name, info.apiVersion, info.driverName, info.driverInfo});
        return devices;
    };
    factory.vulkanHeaders = versionString(VK_HEADER_VERSION_COMPLETE);
    return factory;
}

std::string describe(const DeviceInfo& device)
{
    std::string text = std::to_string(device.index) + ": " + device.name + " [" + device.type + "]";
    if (!device.driverName.empty())
        text += " driver " + device.driverName +
                (device.driverInfo.empty() ? "" : " (" + device.driverInfo + ")");
    text += ", Vulkan " + device.apiVersion;
    return text;
}

} // namespace attn::gpu
