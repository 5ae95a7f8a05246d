#include "pipeline_library.h"

#include "gpu/pipeline_cache.h"

namespace attn::gpu {

PipelineLibrary::PipelineLibrary(const Device& device, const PipelineCache& cache)
    : m_device(device), m_cache(cache)
{
}

const ComputePipeline& PipelineLibrary::get(const std::string& shader,
                                            const std::vector<Binding>& bindings,
                                            std::uint32_t pushBytes,
                                            const std::vector<std::uint32_t>& constants)
{
    std::string key = shader;
    for (std::uint32_t c : constants)
        key.append(1, ':').append(std::to_string(c));
    auto found = m_pipelines.find(key);
    if (found == m_pipelines.end()) {
        auto made = std::make_unique<ComputePipeline>(
            ComputePipeline::create(m_device, m_cache, shader, bindings, pushBytes, constants));
        found = m_pipelines.emplace(key, std::move(made)).first;
        m_added = true;
    }
    return *found->second;
}

void PipelineLibrary::saveIfChanged()
{
    if (m_added)
        m_cache.save();
    m_added = false;
}

} // namespace attn::gpu
