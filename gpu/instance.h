#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <memory>

namespace attn::gpu {

// The Vulkan instance (API 1.1 or newer). With ATTN_VK_VALIDATION=1 it enables the Khronos
// validation layer and a VK_EXT_debug_utils messenger that prints every warning and error to
// stderr and counts it, so tests can assert that there were none. Move-only (uVkCompute's
// shape): create() throws VulkanError naming the failed call; nothing exits.
class Instance
{
public:
    static Instance create();

    Instance(Instance&& other) noexcept;
    Instance& operator=(Instance&& other) noexcept;
    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;
    ~Instance();

    VkInstance handle() const { return m_instance; }
    std::uint32_t apiVersion() const { return m_apiVersion; }
    bool validationEnabled() const { return m_messenger != VK_NULL_HANDLE; }
    // Validation messages seen by this instance.
    int validationMessages() const { return m_messages ? m_messages->load() : 0; }

private:
    Instance() = default;
    void destroy() noexcept;

    VkInstance m_instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT m_messenger = VK_NULL_HANDLE;
    std::uint32_t m_apiVersion = VK_API_VERSION_1_1;
    // Heap-allocated so that the callback's pointer survives a move of the Instance.
    std::unique_ptr<std::atomic<int>> m_messages;
};

// Validation messages seen by every instance of this process (warnings and errors).
int validationMessageCount();

} // namespace attn::gpu
