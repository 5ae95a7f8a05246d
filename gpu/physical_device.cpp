#include "physical_device.h"

#include "core/error.h"
#include "instance.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace attn::gpu {
namespace {

std::string typeName(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return "CPU";
    default:
        return "other";
    }
}

// Lower is better.
int preference(VkPhysicalDeviceType type)
{
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return 3;
    default:
        return 4;
    }
}

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

bool hasComputeQueue(VkPhysicalDevice device)
{
    std::uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    return std::any_of(families.begin(), families.end(),
                       [](const auto& f) { return (f.queueFlags & VK_QUEUE_COMPUTE_BIT) != 0; });
}

} // namespace

std::string versionString(std::uint32_t version)
{
    return std::to_string(VK_API_VERSION_MAJOR(version)) + "." +
           std::to_string(VK_API_VERSION_MINOR(version)) + "." +
           std::to_string(VK_API_VERSION_PATCH(version));
}

std::vector<DeviceInfo> enumerateDevices(const Instance& instance)
{
    std::uint32_t count = 0;
    check(vkEnumeratePhysicalDevices(instance.handle(), &count, nullptr),
          "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> handles(count);
    check(vkEnumeratePhysicalDevices(instance.handle(), &count, handles.data()),
          "vkEnumeratePhysicalDevices");
    handles.resize(count);

    std::vector<DeviceInfo> devices;
    for (std::uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceDriverProperties driver{};
        driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
        VkPhysicalDeviceProperties2 properties{};
        properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        VkPhysicalDeviceProperties basic{};
        vkGetPhysicalDeviceProperties(handles[i], &basic);
        const bool hasDriverProperties = basic.apiVersion >= VK_API_VERSION_1_2;
        if (hasDriverProperties)
            properties.pNext = &driver;
        vkGetPhysicalDeviceProperties2(handles[i], &properties);
        if (basic.apiVersion < VK_API_VERSION_1_1 || !hasComputeQueue(handles[i]))
            continue;
        DeviceInfo info;
        info.index = int(i);
        info.name = properties.properties.deviceName;
        info.vkType = properties.properties.deviceType;
        info.type = typeName(info.vkType);
        if (hasDriverProperties) {
            info.driverName = driver.driverName;
            info.driverInfo = driver.driverInfo;
        }
        info.apiVersion = versionString(properties.properties.apiVersion);
        info.handle = handles[i];
        devices.push_back(info);
    }
    return devices;
}

std::string effectiveDeviceSelector(const std::string& selector)
{
    if (!selector.empty())
        return selector;
    const char* env = std::getenv("ATTN_VK_DEVICE");
    return env ? std::string(env) : std::string();
}

const DeviceInfo& selectDevice(const std::vector<DeviceInfo>& devices, const std::string& selector)
{
    if (devices.empty())
        throw VulkanError("vkEnumeratePhysicalDevices", VK_ERROR_INITIALIZATION_FAILED,
                          "no Vulkan 1.1 device with a compute queue");
    if (selector.empty()) {
        return *std::min_element(devices.begin(), devices.end(), [](const auto& a, const auto& b) {
            return preference(a.vkType) < preference(b.vkType);
        });
    }
    const bool isIndex = std::all_of(selector.begin(), selector.end(),
                                     [](unsigned char c) { return std::isdigit(c) != 0; });
    if (isIndex) {
        const int index = std::atoi(selector.c_str());
        for (const DeviceInfo& device : devices)
            if (device.index == index)
                return device;
    } else {
        const std::string wanted = lower(selector);
        for (const DeviceInfo& device : devices)
            if (lower(device.name).find(wanted) != std::string::npos)
                return device;
    }
    std::string names;
    for (const DeviceInfo& device : devices)
        names += (names.empty() ? "" : ", ") + std::to_string(device.index) + ": " + device.name;
    throw core::Error("Vulkan device '" + selector + "' not found; available: " + names);
}

} // namespace attn::gpu
