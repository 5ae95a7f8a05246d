#include "buffer.h"

#include "device.h"
#include "fault_injection.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <algorithm>
#include <utility>

namespace attn::gpu {

Buffer Buffer::create(const Device& device, VkDeviceSize size, MemoryKind kind)
{
    Buffer buffer;
    buffer.m_device = device.handle();
    // Vulkan forbids empty buffers; a zero-sized request still gets a valid (tiny) binding.
    // Whole vec4s, so that every buffer can be viewed as RGBA32F texels.
    buffer.m_size = std::max<VkDeviceSize>(16, (size + 15) & ~VkDeviceSize(15));

    VkBufferCreateInfo info{};

    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = buffer.m_size;
    info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                 VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
                 VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    check(vkCreateBuffer(buffer.m_device, &info, nullptr, &buffer.m_buffer), "vkCreateBuffer");

    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(buffer.m_device, buffer.m_buffer, &requirements);

    VkMemoryPropertyFlags required = 0;
    VkMemoryPropertyFlags preferred = 0;
    switch (kind) {
    case MemoryKind::DeviceLocal:
        preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
        break;
    case MemoryKind::Shared:
        required = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
        break;
    case MemoryKind::Upload:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        break;
    case MemoryKind::Readback:
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
        break;
    }
    const auto type = device.memoryType(requirements.memoryTypeBits, required, preferred);
    if (!type)
        throw VulkanError("vkGetBufferMemoryRequirements", VK_ERROR_FEATURE_NOT_PRESENT,
                          "no suitable memory type");

    if (injectedFault() == Fault::OutOfMemory)
        throw VulkanError("vkAllocateMemory", VK_ERROR_OUT_OF_DEVICE_MEMORY,
                          "injected, " + std::to_string(requirements.size >> 20) + " MiB");
    VkMemoryAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = *type;
    const VkResult result = vkAllocateMemory(buffer.m_device, &allocate, nullptr, &buffer.m_memory);
    if (result < 0)
        throw VulkanError("vkAllocateMemory", result,
                          std::to_string(requirements.size >> 20) + " MiB");
    check(vkBindBufferMemory(buffer.m_device, buffer.m_buffer, buffer.m_memory, 0),
          "vkBindBufferMemory");

    if (kind != MemoryKind::DeviceLocal)
        check(vkMapMemory(buffer.m_device, buffer.m_memory, 0, VK_WHOLE_SIZE, 0, &buffer.m_mapped),
              "vkMapMemory");
    return buffer;
}

VkBufferView Buffer::texelView(VkFormat format) const
{
    for (const auto& [viewFormat, view] : m_views)
        if (viewFormat == format)
            return view;
    VkBufferViewCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO;
    info.buffer = m_buffer;
    info.format = format;
    info.offset = 0;
    info.range = VK_WHOLE_SIZE;
    VkBufferView view = VK_NULL_HANDLE;
    check(vkCreateBufferView(m_device, &info, nullptr, &view), "vkCreateBufferView");
    m_views.emplace_back(format, view);
    return view;
}

Buffer::Buffer(Buffer&& other) noexcept
{
    *this = std::move(other);
}

Buffer& Buffer::operator=(Buffer&& other) noexcept
{
    if (this != &other) {
        destroy();
        m_device = std::exchange(other.m_device, VK_NULL_HANDLE);
        m_buffer = std::exchange(other.m_buffer, VK_NULL_HANDLE);
        m_memory = std::exchange(other.m_memory, VK_NULL_HANDLE);
        m_size = std::exchange(other.m_size, 0);
        m_mapped = std::exchange(other.m_mapped, nullptr);
        m_views = std::exchange(other.m_views, {});
    }
    return *this;
}

Buffer::~Buffer()
{
    destroy();
}

void Buffer::destroy() noexcept
{
    for (const auto& [format, view] : m_views)
        vkDestroyBufferView(m_device, view, nullptr);
    m_views.clear();
    if (m_buffer != VK_NULL_HANDLE)
        vkDestroyBuffer(m_device, m_buffer, nullptr);
    if (m_memory != VK_NULL_HANDLE) {
        // Freeing mapped memory unmaps it implicitly.
        vkFreeMemory(m_device, m_memory, nullptr);
    }
    m_buffer = VK_NULL_HANDLE;
    m_memory = VK_NULL_HANDLE;
    m_mapped = nullptr;
}

} // namespace attn::gpu
