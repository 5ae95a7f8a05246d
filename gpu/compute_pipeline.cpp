#include "compute_pipeline.h"

#include "device.h"
#include "embedded_shaders.h"
#include "pipeline_cache.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <utility>

namespace attn::gpu {

ComputePipeline ComputePipeline::create(const Device& device, const PipelineCache& cache,
                                        const std::string& shader,
                                        const std::vector<Binding>& bindings,
                                        std::uint32_t pushConstantBytes,
                                        const std::vector<std::uint32_t>& constants)
{
    const auto code = embeddedShader(shader);
    if (code.empty())
        throw VulkanError("vkCreateShaderModule", VK_ERROR_INITIALIZATION_FAILED,
                          "no embedded shader '" + shader + "'");

    ComputePipeline pipeline;
    pipeline.m_device = device.handle();
    pipeline.m_bindings = bindings;
    pipeline.m_pushConstantBytes = pushConstantBytes;

    VkShaderModuleCreateInfo moduleInfo{};

    moduleInfo.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    moduleInfo.codeSize = code.size_bytes();
    moduleInfo.pCode = code.data();
    check(vkCreateShaderModule(pipeline.m_device, &moduleInfo, nullptr, &pipeline.m_module),
          "vkCreateShaderModule");

    std::vector<VkDescriptorSetLayoutBinding> layoutBindings;
    for (std::uint32_t i = 0; i < bindings.size(); ++i)
        layoutBindings.push_back({i, bindings[i].type, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    VkDescriptorSetLayoutCreateInfo setInfo{};
    setInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    setInfo.bindingCount = std::uint32_t(layoutBindings.size());
    setInfo.pBindings = layoutBindings.data();
    check(vkCreateDescriptorSetLayout(pipeline.m_device, &setInfo, nullptr, &pipeline.m_setLayout),
          "vkCreateDescriptorSetLayout");

    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushConstantBytes};
    VkPipelineLayoutCreateInfo layoutInfo{};
    layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &pipeline.m_setLayout;
    layoutInfo.pushConstantRangeCount = pushConstantBytes > 0 ? 1 : 0;
    layoutInfo.pPushConstantRanges = &range;
    check(vkCreatePipelineLayout(pipeline.m_device, &layoutInfo, nullptr, &pipeline.m_layout),
          "vkCreatePipelineLayout");

    std::vector<VkSpecializationMapEntry> entries;
    for (std::uint32_t i = 0; i < constants.size(); ++i)
        entries.push_back({i, std::uint32_t(i * sizeof(std::uint32_t)), sizeof(std::uint32_t)});
    VkSpecializationInfo specialization{};
    specialization.mapEntryCount = std::uint32_t(entries.size());
    specialization.pMapEntries = entries.data();
    specialization.dataSize = constants.size() * sizeof(std::uint32_t);
    specialization.pData = constants.data();

    VkComputePipelineCreateInfo info{};

    info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = pipeline.m_module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = constants.empty() ? nullptr : &specialization;
    info.layout = pipeline.m_layout;
    check(vkCreateComputePipelines(pipeline.m_device, cache.handle(), 1, &info, nullptr,
                                   &pipeline.m_pipeline),
          "vkCreateComputePipelines");
    return pipeline;
}

ComputePipeline::ComputePipeline(ComputePipeline&& other) noexcept
{
    *this = std::move(other);
}

ComputePipeline& ComputePipeline::operator=(ComputePipeline&& other) noexcept
{
    if (this != &other) {
        destroy();
        m_device = std::exchange(other.m_device, VK_NULL_HANDLE);
        m_module = std::exchange(other.m_module, VK_NULL_HANDLE);
        m_setLayout = std::exchange(other.m_setLayout, VK_NULL_HANDLE);
        m_layout = std::exchange(other.m_layout, VK_NULL_HANDLE);
        m_pipeline = std::exchange(other.m_pipeline, VK_NULL_HANDLE);
        m_bindings = std::move(other.m_bindings);
        m_pushConstantBytes = other.m_pushConstantBytes;
    }
    return *this;
}

ComputePipeline::~ComputePipeline()
{
    destroy();
}

void ComputePipeline::destroy() noexcept
{
    if (m_device == VK_NULL_HANDLE)
        return;
    if (m_pipeline != VK_NULL_HANDLE)
        vkDestroyPipeline(m_device, m_pipeline, nullptr);
    if (m_layout != VK_NULL_HANDLE)
        vkDestroyPipelineLayout(m_device, m_layout, nullptr);
    if (m_setLayout != VK_NULL_HANDLE)
        vkDestroyDescriptorSetLayout(m_device, m_setLayout, nullptr);
    if (m_module != VK_NULL_HANDLE)
        vkDestroyShaderModule(m_device, m_module, nullptr);
    m_pipeline = VK_NULL_HANDLE;
    m_layout = VK_NULL_HANDLE;
    m_setLayout = VK_NULL_HANDLE;
    m_module = VK_NULL_HANDLE;
}

} // namespace attn::gpu
