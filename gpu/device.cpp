#include "device.h"

#include "fault_injection.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

namespace attn::gpu {

Device Device::create(const DeviceInfo& physical)
{
    if (injectedFault() == Fault::Device)
        throw VulkanError("vkCreateDevice", VK_ERROR_INITIALIZATION_FAILED, "injected");

    Device device;
    device.m_info = physical;
    VkPhysicalDeviceSubgroupProperties subgroup{};
    subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    properties.pNext = &subgroup;
    vkGetPhysicalDeviceProperties2(physical.handle, &properties);
    device.m_properties = properties.properties;
    device.m_subgroupSize = std::max<std::uint32_t>(1, subgroup.subgroupSize);
    vkGetPhysicalDeviceMemoryProperties(physical.handle, &device.m_memory);

    // A queue family that can compute; prefer a compute-only one (async compute on GPUs).
    std::uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical.handle, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(physical.handle, &familyCount, families.data());
    std::optional<std::uint32_t> chosen;
    for (std::uint32_t i = 0; i < familyCount; ++i) {
        if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT))
            continue;
        const bool computeOnly = !(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT);
        if (!chosen || (computeOnly && families[i].timestampValidBits > 0))
            chosen = i;
    }
    if (!chosen)
        throw VulkanError("vkGetPhysicalDeviceQueueFamilyProperties", VK_ERROR_FEATURE_NOT_PRESENT,
                          "no compute queue on " + physical.name);
    device.m_queueFamily = *chosen;
    device.m_timestampBits = families[*chosen].timestampValidBits;

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{};
    queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queueInfo.queueFamilyIndex = device.m_queueFamily;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;
    VkDeviceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queueInfo;
    check(vkCreateDevice(physical.handle, &info, nullptr, &device.m_device), "vkCreateDevice");
    vkGetDeviceQueue(device.m_device, device.m_queueFamily, 0, &device.m_queue);

    // Host-visible, coherent device-local memory on a device that shares the host's memory:
    // buffers are written and read in place. ATTN_VK_FORCE_STAGING=1 takes the discrete-GPU
    // path (staging copies) anyway, so tests on lavapipe cover it.
    const VkMemoryPropertyFlags shared = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                         VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    const char* forceStaging = std::getenv("ATTN_VK_FORCE_STAGING");
    device.m_unifiedMemory = (physical.vkType == VK_PHYSICAL_DEVICE_TYPE_CPU ||
                              physical.vkType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU) &&
                             device.memoryType(~0u, shared).has_value() &&
                             !(forceStaging && std::string_view(forceStaging) == "1");
    return device;
}

std::optional<std::uint32_t> Device::memoryType(std::uint32_t typeBits,
                                                VkMemoryPropertyFlags required,
                                                VkMemoryPropertyFlags preferred) const
{
    std::optional<std::uint32_t> fallback;
    for (std::uint32_t i = 0; i < m_memory.memoryTypeCount; ++i) {
        if (!(typeBits & (1u << i)))
            continue;
        const VkMemoryPropertyFlags flags = m_memory.memoryTypes[i].propertyFlags;
        if ((flags & required) != required)
            continue;
        if ((flags & preferred) == preferred)
            return i;
        if (!fallback)
            fallback = i;
    }
    return fallback;
}

Device::Device(Device&& other) noexcept
{
    *this = std::move(other);
}

Device& Device::operator=(Device&& other) noexcept
{
    if (this != &other) {
        destroy();
        m_device = std::exchange(other.m_device, VK_NULL_HANDLE);
        m_info = other.m_info;
        m_queue = std::exchange(other.m_queue, VK_NULL_HANDLE);
        m_queueFamily = other.m_queueFamily;
        m_properties = other.m_properties;
        m_memory = other.m_memory;
        m_subgroupSize = other.m_subgroupSize;
        m_timestampBits = other.m_timestampBits;
        m_unifiedMemory = other.m_unifiedMemory;
    }
    return *this;
}

Device::~Device()
{
    destroy();
}

void Device::waitIdle() const noexcept
{
    // A lost device reports VK_ERROR_DEVICE_LOST here; there is nothing left to wait for then.
    if (m_device != VK_NULL_HANDLE)
        (void)vkDeviceWaitIdle(m_device);
}

void Device::destroy() noexcept
{
    if (m_device != VK_NULL_HANDLE) {
        waitIdle();
        vkDestroyDevice(m_device, nullptr);
        m_device = VK_NULL_HANDLE;
    }
}

} // namespace attn::gpu
