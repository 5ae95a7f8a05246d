#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace attn::gpu {

class Device;

// A command pool, the command buffers allocated from it and one fence: everything needed to
// record once and submit many times. Move-only; create() throws VulkanError.
class CommandContext
{
public:
    static CommandContext create(const Device& device);

    CommandContext() = default;
    CommandContext(CommandContext&& other) noexcept;
    CommandContext& operator=(CommandContext&& other) noexcept;
    CommandContext(const CommandContext&) = delete;
    CommandContext& operator=(const CommandContext&) = delete;
    ~CommandContext();

    // A primary command buffer owned by the pool (freed with it, or by reset()).
    VkCommandBuffer allocate();
    // Frees every command buffer (the pool is reset).
    void reset();

    // Submits one recorded command buffer and waits for it. Throws VulkanError on failure
    // (VK_ERROR_DEVICE_LOST included, also when ATTN_VK_FAULT=device-lost injects it).
    void submitAndWait(VkCommandBuffer commands);

private:
    void destroy() noexcept;

    VkDevice m_device = VK_NULL_HANDLE;
    VkQueue m_queue = VK_NULL_HANDLE;
    VkCommandPool m_pool = VK_NULL_HANDLE;
    VkFence m_fence = VK_NULL_HANDLE;
};

// A global memory barrier: `src` stages' writes (srcAccess) made visible to `dst` stages'
// accesses (dstAccess).
void recordMemoryBarrier(VkCommandBuffer cb, VkPipelineStageFlags src, VkAccessFlags srcAccess,
                         VkPipelineStageFlags dst, VkAccessFlags dstAccess);

} // namespace attn::gpu
