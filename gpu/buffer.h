#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace attn::gpu {

class Device;

// Where a buffer's memory lives.
enum class MemoryKind {
    DeviceLocal, // GPU only
    Shared,      // device-local and host-visible coherent (lavapipe, integrated GPUs): mapped
    Upload,      // host-visible coherent staging, written by the host: mapped
    Readback,    // host-visible coherent (cached when possible) staging, read by the host: mapped
};

// One VkBuffer with its own VkDeviceMemory, mapped once for its lifetime when host-visible.
// Usable as a storage buffer, a uniform buffer and a transfer source or destination.
// Move-only; create() throws VulkanError naming the failed call.
class Buffer
{
public:
    static Buffer create(const Device& device, VkDeviceSize size, MemoryKind kind);

    Buffer() = default;
    Buffer(Buffer&& other) noexcept;
    Buffer& operator=(Buffer&& other) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer();

    VkBuffer handle() const { return m_buffer; }
    VkDeviceSize size() const { return m_size; }
    // The persistent mapping; null for device-local memory.
    void* mapped() const { return m_mapped; }
    float* floats() const { return static_cast<float*>(m_mapped); }
    // A view of the whole buffer as a texel buffer of `format` (created on first use, owned
    // by the buffer). Throws VulkanError.
    VkBufferView texelView(VkFormat format) const;
    std::uint32_t* words() const { return static_cast<std::uint32_t*>(m_mapped); }
    explicit operator bool() const { return m_buffer != VK_NULL_HANDLE; }

private:
    void destroy() noexcept;

    VkDevice m_device = VK_NULL_HANDLE;
    VkBuffer m_buffer = VK_NULL_HANDLE;
    VkDeviceMemory m_memory = VK_NULL_HANDLE;
    VkDeviceSize m_size = 0;
    void* m_mapped = nullptr;
    mutable std::vector<std::pair<VkFormat, VkBufferView>> m_views;
};

} // namespace attn::gpu
