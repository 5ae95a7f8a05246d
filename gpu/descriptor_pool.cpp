#include "descriptor_pool.h"

#include "buffer.h"
#include "compute_pipeline.h"
#include "device.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <algorithm>
#include <utility>

namespace attn::gpu {

DescriptorPool DescriptorPool::create(const Device& device, std::uint32_t maxSets,
                                      std::uint32_t storageBuffers, std::uint32_t uniformBuffers,
                                      std::uint32_t texelBuffers)
{
    DescriptorPool pool;
    pool.m_device = device.handle();
    const VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::max<std::uint32_t>(1, storageBuffers)},
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, std::max<std::uint32_t>(1, uniformBuffers)},
        {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, std::max<std::uint32_t>(1, texelBuffers)},
    };
    VkDescriptorPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    info.maxSets = std::max<std::uint32_t>(1, maxSets);
    info.poolSizeCount = 3;
    info.pPoolSizes = sizes;
    check(vkCreateDescriptorPool(pool.m_device, &info, nullptr, &pool.m_pool),
          "vkCreateDescriptorPool");
    return pool;
}

VkDescriptorSet DescriptorPool::allocate(const ComputePipeline& pipeline,
                                         const std::vector<const Buffer*>& buffers)
{
    const VkDescriptorSetLayout layout = pipeline.setLayout();
    VkDescriptorSetAllocateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    info.descriptorPool = m_pool;
    info.descriptorSetCount = 1;
    info.pSetLayouts = &layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    check(vkAllocateDescriptorSets(m_device, &info, &set), "vkAllocateDescriptorSets");

    const auto& bindings = pipeline.bindings();
    std::vector<VkDescriptorBufferInfo> infos(bindings.size());
    std::vector<VkBufferView> views(bindings.size());
    std::vector<VkWriteDescriptorSet> writes(bindings.size());
    for (std::size_t i = 0; i < bindings.size(); ++i) {
        const Buffer& buffer = *buffers.at(i);
        VkWriteDescriptorSet& write = writes[i];
        write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        write.dstSet = set;
        write.dstBinding = std::uint32_t(i);
        write.descriptorCount = 1;
        write.descriptorType = bindings[i].type;
        if (bindings[i].type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
            bindings[i].type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER) {
            views[i] = buffer.texelView(bindings[i].format);
            write.pTexelBufferView = &views[i];
        } else {
            infos[i] = {buffer.handle(), 0, VK_WHOLE_SIZE};
            write.pBufferInfo = &infos[i];
        }
    }
    vkUpdateDescriptorSets(m_device, std::uint32_t(writes.size()), writes.data(), 0, nullptr);
    return set;
}

DescriptorPool::DescriptorPool(DescriptorPool&& other) noexcept
{
    *this = std::move(other);
}

DescriptorPool& DescriptorPool::operator=(DescriptorPool&& other) noexcept
{
    if (this != &other) {
        destroy();
        m_device = std::exchange(other.m_device, VK_NULL_HANDLE);
        m_pool = std::exchange(other.m_pool, VK_NULL_HANDLE);
    }
    return *this;
}

DescriptorPool::~DescriptorPool()
{
    destroy();
}

void DescriptorPool::destroy() noexcept
{
    if (m_pool != VK_NULL_HANDLE)
        vkDestroyDescriptorPool(m_device, m_pool, nullptr);
    m_pool = VK_NULL_HANDLE;
}

} // namespace attn::gpu
