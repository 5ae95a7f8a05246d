#include "command_context.h"

#include "device.h"
#include "fault_injection.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <utility>

namespace attn::gpu {

CommandContext CommandContext::create(const Device& device)
{
    CommandContext context;
    context.m_device = device.handle();
    context.m_queue = device.queue();
    VkCommandPoolCreateInfo poolInfo{};
    poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    poolInfo.queueFamilyIndex = device.queueFamily();
    check(vkCreateCommandPool(context.m_device, &poolInfo, nullptr, &context.m_pool),
          "vkCreateCommandPool");
    VkFenceCreateInfo fenceInfo{};
    fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    check(vkCreateFence(context.m_device, &fenceInfo, nullptr, &context.m_fence), "vkCreateFence");
    return context;
}

VkCommandBuffer CommandContext::allocate()
{
    VkCommandBufferAllocateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    info.commandPool = m_pool;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    check(vkAllocateCommandBuffers(m_device, &info, &commands), "vkAllocateCommandBuffers");
    return commands;
}

void CommandContext::reset()
{
    check(vkResetCommandPool(m_device, m_pool, VK_COMMAND_POOL_RESET_RELEASE_RESOURCES_BIT),
          "vkResetCommandPool");
}

void CommandContext::submitAndWait(VkCommandBuffer commands)
{
    if (injectedFault() == Fault::DeviceLost)
        throw VulkanError("vkQueueSubmit", VK_ERROR_DEVICE_LOST, "injected");
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    check(vkResetFences(m_device, 1, &m_fence), "vkResetFences");
    check(vkQueueSubmit(m_queue, 1, &submit, m_fence), "vkQueueSubmit");
    // A minute is far beyond any plan we record; a hung device is reported, not waited on forever.
    const std::uint64_t timeout = 60ull * 1000 * 1000 * 1000;
    const VkResult result = vkWaitForFences(m_device, 1, &m_fence, VK_TRUE, timeout);
    if (result == VK_TIMEOUT)
        throw VulkanError("vkWaitForFences", VK_ERROR_DEVICE_LOST, "no completion after 60 s");
    check(result, "vkWaitForFences");
}

CommandContext::CommandContext(CommandContext&& other) noexcept
{
    *this = std::move(other);
}

CommandContext& CommandContext::operator=(CommandContext&& other) noexcept
{
    if (this != &other) {
        destroy();
        m_device = std::exchange(other.m_device, VK_NULL_HANDLE);
        m_queue = std::exchange(other.m_queue, VK_NULL_HANDLE);
        m_pool = std::exchange(other.m_pool, VK_NULL_HANDLE);
        m_fence = std::exchange(other.m_fence, VK_NULL_HANDLE);
    }
    return *this;
}

CommandContext::~CommandContext()
{
    destroy();
}

void CommandContext::destroy() noexcept
{
    if (m_device == VK_NULL_HANDLE)
        return;
    if (m_fence != VK_NULL_HANDLE)
        vkDestroyFence(m_device, m_fence, nullptr);
    if (m_pool != VK_NULL_HANDLE)
        vkDestroyCommandPool(m_device, m_pool, nullptr);
    m_fence = VK_NULL_HANDLE;
    m_pool = VK_NULL_HANDLE;
}

void recordMemoryBarrier(VkCommandBuffer cb, VkPipelineStageFlags src, VkAccessFlags srcAccess,
                         VkPipelineStageFlags dst, VkAccessFlags dstAccess)
{
    VkMemoryBarrier memory{};
    memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    memory.srcAccessMask = srcAccess;
    memory.dstAccessMask = dstAccess;
    vkCmdPipelineBarrier(cb, src, dst, 0, 1, &memory, 0, nullptr, 0, nullptr);
}

} // namespace attn::gpu
