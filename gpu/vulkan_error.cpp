#include "vulkan_error.h"

namespace attn::gpu {

std::string resultName(VkResult result)
{
    switch (result) {
#define ATTN_RESULT(name)                                                                          \
    case name:                                                                                     \
        return #name;
        ATTN_RESULT(VK_SUCCESS)
        ATTN_RESULT(VK_NOT_READY)
        ATTN_RESULT(VK_TIMEOUT)
        ATTN_RESULT(VK_INCOMPLETE)
        ATTN_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
        ATTN_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        ATTN_RESULT(VK_ERROR_INITIALIZATION_FAILED)
        ATTN_RESULT(VK_ERROR_DEVICE_LOST)
        ATTN_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
        ATTN_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
        ATTN_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
        ATTN_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
        ATTN_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
        ATTN_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
        ATTN_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
        ATTN_RESULT(VK_ERROR_FRAGMENTED_POOL)
        ATTN_RESULT(VK_ERROR_UNKNOWN)
        ATTN_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
        ATTN_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        ATTN_RESULT(VK_ERROR_FRAGMENTATION)
        ATTN_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
        ATTN_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
#undef ATTN_RESULT
    default:
        return "VkResult " + std::to_string(int(result));
    }
}

namespace {

std::string message(const std::string& call, VkResult result, const std::string& detail)
{
    std::string text = call;
    text.append(" failed: ").append(resultName(result));
    if (!detail.empty())
        text.append(" (").append(detail).append(")");
    return text;
}

} // namespace

VulkanError::VulkanError(const std::string& call, VkResult result, const std::string& detail)
    : core::BackendFault(message(call, result, detail)), m_result(result)
{
}

VulkanError::VulkanError(VkResult result, const std::string& text)
    : core::BackendFault(text), m_result(result)
{
}

} // namespace attn::gpu
