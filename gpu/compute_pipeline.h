#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace attn::gpu {

class Device;
class PipelineCache;

// One descriptor binding: its type and, for texel buffers, the view's format.
struct Binding
{
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    VkFormat format = VK_FORMAT_UNDEFINED;
};

// The descriptor kinds the shaders declare.
inline constexpr Binding kUniformBinding{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
inline constexpr Binding kStorageBinding{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
inline constexpr Binding kTexelBinding{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
                                       VK_FORMAT_R32G32B32A32_SFLOAT};
inline constexpr Binding kBitsBinding{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_FORMAT_R32_UINT};
inline constexpr Binding kScalarBinding{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
                                        VK_FORMAT_R32_SFLOAT};

// One compute shader made into a pipeline: its module, descriptor set layout (set 0, bindings
// 0..n-1 as given), a push-constant range and the pipeline itself, specialised with
// `constants` as constant_id 0..n-1 (sizes and variants come in this way, never as #defines).
// Move-only; create() throws VulkanError naming the failed call.
class ComputePipeline
{
public:
    static ComputePipeline create(const Device& device, const PipelineCache& cache,
                                  const std::string& shader, const std::vector<Binding>& bindings,
                                  std::uint32_t pushConstantBytes,
                                  const std::vector<std::uint32_t>& constants);

    ComputePipeline() = default;
    ComputePipeline(ComputePipeline&& other) noexcept;
    ComputePipeline& operator=(ComputePipeline&& other) noexcept;
    ComputePipeline(const ComputePipeline&) = delete;
    ComputePipeline& operator=(const ComputePipeline&) = delete;
    ~ComputePipeline();

    VkPipeline handle() const { return m_pipeline; }
    VkPipelineLayout layout() const { return m_layout; }
    VkDescriptorSetLayout setLayout() const { return m_setLayout; }
    const std::vector<Binding>& bindings() const { return m_bindings; }
    std::uint32_t pushConstantBytes() const { return m_pushConstantBytes; }

private:
    void destroy() noexcept;

    VkDevice m_device = VK_NULL_HANDLE;
    VkShaderModule m_module = VK_NULL_HANDLE;
    VkDescriptorSetLayout m_setLayout = VK_NULL_HANDLE;
    VkPipelineLayout m_layout = VK_NULL_HANDLE;
    VkPipeline m_pipeline = VK_NULL_HANDLE;
    std::vector<Binding> m_bindings;
    std::uint32_t m_pushConstantBytes = 0;
};

} // namespace attn::gpu
