#include "op_context.h"

#include "gpu/descriptor_pool.h"
#include "gpu/vulkan_functions.h"
#include "pipeline_library.h"

namespace attn::gpu {

OpContext::OpContext(const Device& device, PipelineLibrary& pipelines, DescriptorPool& descriptors,
                     ShaderVariant variant, const Buffer& params, VkCommandBuffer commands)
    : m_device(device), m_pipelines(pipelines), m_descriptors(descriptors), m_variant(variant),
      m_params(params), m_commands(commands)
{
}

const ComputePipeline& OpContext::pipeline(const std::string& shader,
                                           const std::vector<Binding>& bindings,
                                           std::uint32_t pushBytes,
                                           const std::vector<std::uint32_t>& constants)
{
    return m_pipelines.get(shader, bindings, pushBytes, constants);
}

void OpContext::dispatch(const ComputePipeline& pipeline, const std::vector<const Buffer*>& buffers,
                         const void* push, std::uint32_t pushBytes, std::uint32_t groupsX,
                         std::uint32_t groupsY, std::uint32_t groupsZ)
{
    const VkDescriptorSet set = m_descriptors.allocate(pipeline, buffers);
    vkCmdBindPipeline(m_commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
    vkCmdBindDescriptorSets(m_commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout(), 0, 1,
                            &set, 0, nullptr);
    vkCmdPushConstants(m_commands, pipeline.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes,
                       push);
    vkCmdDispatch(m_commands, groupsX, groupsY, groupsZ);
}

void OpContext::computeBarrier()
{
    VkMemoryBarrier memory{};
    memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    memory.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT;
    memory.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(m_commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &memory, 0, nullptr, 0,
                         nullptr);
}

} // namespace attn::gpu
