#pragma once

#include "core/backend.h"

#include <vulkan/vulkan.h>

#include <string>

namespace attn::gpu {

// A failed Vulkan call: the message names the call and its VkResult
// ("vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY"). It is a BackendFault, so a
// FallbackBackend switches to the CPU instead of showing the user an error.
class VulkanError : public core::BackendFault
{
public:
    VulkanError(const std::string& call, VkResult result, const std::string& detail = {});
    // A failure that is no single call's (the loader cannot be opened): the message as given.
    VulkanError(VkResult result, const std::string& text);
    VkResult result() const { return m_result; }

private:
    VkResult m_result;
};

// "VK_ERROR_DEVICE_LOST" for VK_ERROR_DEVICE_LOST; the number for codes this build does not know.
std::string resultName(VkResult result);

// Throws VulkanError unless `result` is VK_SUCCESS (or another non-negative status).
inline void check(VkResult result, const char* call)
{
    if (result < 0)
        throw VulkanError(call, result);
}

} // namespace attn::gpu
