#pragma once

#include "gpu/compute_pipeline.h"
#include "gpu/vulkan_backend.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace attn::gpu {

class Buffer;
class DescriptorPool;
class Device;
class PipelineLibrary;

// What the block operations record into (Kompute's OpBase::record gets the same): one command
// buffer, the descriptor pool that lives as long as it, the device's pipelines and shape.
class OpContext
{
public:
    OpContext(const Device& device, PipelineLibrary& pipelines, DescriptorPool& descriptors,
              ShaderVariant variant, const Buffer& params, VkCommandBuffer commands);

    const Device& device() const { return m_device; }
    ShaderVariant variant() const { return m_variant; }
    // A zeroed common.glsl Params block, for the shaders that include it (gemm.comp).
    const Buffer& params() const { return m_params; }
    VkCommandBuffer commands() const { return m_commands; }

    const ComputePipeline& pipeline(const std::string& shader, const std::vector<Binding>& bindings,
                                    std::uint32_t pushBytes,
                                    const std::vector<std::uint32_t>& constants);
    // Binds `buffers` (binding i = buffers[i]) and the push constants, then dispatches.
    void dispatch(const ComputePipeline& pipeline, const std::vector<const Buffer*>& buffers,
                  const void* push, std::uint32_t pushBytes, std::uint32_t groupsX,
                  std::uint32_t groupsY, std::uint32_t groupsZ);
    // One dispatch's writes -> the next one's reads and writes.
    void computeBarrier();

private:
    const Device& m_device;
    PipelineLibrary& m_pipelines;
    DescriptorPool& m_descriptors;
    ShaderVariant m_variant;
    const Buffer& m_params;
    VkCommandBuffer m_commands;
};

} // namespace attn::gpu
