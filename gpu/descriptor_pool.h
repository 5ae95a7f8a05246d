#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace attn::gpu {

class Buffer;
class ComputePipeline;
class Device;

// A descriptor pool for one recorded plan; its sets die with it. Move-only; create() and
// allocate() throw VulkanError naming the failed call.
class DescriptorPool
{
public:
    static DescriptorPool create(const Device& device, std::uint32_t maxSets,
                                 std::uint32_t storageBuffers, std::uint32_t uniformBuffers,
                                 std::uint32_t texelBuffers);

    DescriptorPool() = default;
    DescriptorPool(DescriptorPool&& other) noexcept;
    DescriptorPool& operator=(DescriptorPool&& other) noexcept;
    DescriptorPool(const DescriptorPool&) = delete;
    DescriptorPool& operator=(const DescriptorPool&) = delete;
    ~DescriptorPool();

    // A set for `pipeline` whose binding i is buffers[i] (the whole buffer, or a texel view of
    // it in the binding's format), of the pipeline's declared descriptor type.
    VkDescriptorSet allocate(const ComputePipeline& pipeline,
                             const std::vector<const Buffer*>& buffers);

private:
    void destroy() noexcept;

    VkDevice m_device = VK_NULL_HANDLE;
    VkDescriptorPool m_pool = VK_NULL_HANDLE;
};

} // namespace attn::gpu
