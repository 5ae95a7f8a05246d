#pragma once

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

namespace attn::gpu {

class Instance;

// What `--list-devices` prints about one Vulkan device.
struct DeviceInfo
{
    int index = 0;          // position in vkEnumeratePhysicalDevices order
    std::string name;       // VkPhysicalDeviceProperties::deviceName
    std::string type;       // "discrete GPU", "integrated GPU", "virtual GPU", "CPU", "other"
    std::string driverName; // VkPhysicalDeviceDriverProperties (Vulkan 1.2), else ""
    std::string driverInfo;
    std::string apiVersion; // "1.3.230"
    VkPhysicalDeviceType vkType = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    VkPhysicalDevice handle = VK_NULL_HANDLE;
};

// "1.3.230": a VK_MAKE_API_VERSION number as Vulkan writes it.
std::string versionString(std::uint32_t version);

// Devices able to run our compute shaders (Vulkan 1.1 with a compute queue).
std::vector<DeviceInfo> enumerateDevices(const Instance& instance);

// The device to use. An empty selector (and no ATTN_VK_DEVICE) picks the preferred type:
// discrete > integrated > virtual > CPU, the first of each in enumeration order. A selector
// that is all digits is an index; otherwise it is a case-insensitive substring of the name.
// Throws core::Error naming the devices when the selector matches none, and VulkanError
// (VK_ERROR_INITIALIZATION_FAILED) when there is no device at all.
const DeviceInfo& selectDevice(const std::vector<DeviceInfo>& devices, const std::string& selector);

// The selector in effect: `selector` when given, else the ATTN_VK_DEVICE environment variable.
std::string effectiveDeviceSelector(const std::string& selector);

} // namespace attn::gpu
