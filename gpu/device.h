#pragma once

#include "physical_device.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>

namespace attn::gpu {

// A logical device with one compute queue, and what the backend needs to know about it.
// Move-only; create() throws VulkanError naming the failed call.
class Device
{
public:
    static Device create(const DeviceInfo& physical);

    Device(Device&& other) noexcept;
    Device& operator=(Device&& other) noexcept;
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;
    ~Device();

    VkDevice handle() const { return m_device; }
    VkPhysicalDevice physical() const { return m_info.handle; }
    const DeviceInfo& info() const { return m_info; }
    VkQueue queue() const { return m_queue; }
    std::uint32_t queueFamily() const { return m_queueFamily; }
    const VkPhysicalDeviceProperties& properties() const { return m_properties; }
    const VkPhysicalDeviceLimits& limits() const { return m_properties.limits; }
    const VkPhysicalDeviceMemoryProperties& memory() const { return m_memory; }
    std::uint32_t subgroupSize() const { return m_subgroupSize; }
    // Timestamps are usable on our queue (timestampValidBits > 0).
    bool timestamps() const { return m_timestampBits > 0; }
    std::uint32_t timestampBits() const { return m_timestampBits; }
    // CPU and integrated devices share memory with the host: no staging copies needed.
    bool unifiedMemory() const { return m_unifiedMemory; }

    // A memory type index with every `required` flag (and the `preferred` ones when some type
    // has them), among `typeBits`. Empty when none matches.
    std::optional<std::uint32_t> memoryType(std::uint32_t typeBits, VkMemoryPropertyFlags required,
                                            VkMemoryPropertyFlags preferred = 0) const;

    void waitIdle() const noexcept;

private:
    Device() = default;
    void destroy() noexcept;

    VkDevice m_device = VK_NULL_HANDLE;
    DeviceInfo m_info;
    VkQueue m_queue = VK_NULL_HANDLE;
    std::uint32_t m_queueFamily = 0;
    VkPhysicalDeviceProperties m_properties{};
    VkPhysicalDeviceMemoryProperties m_memory{};
    std::uint32_t m_subgroupSize = 1;
    std::uint32_t m_timestampBits = 0;
    bool m_unifiedMemory = false;
};

} // namespace attn::gpu
