#pragma once

#include "gpu/compute_pipeline.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attn::gpu {

class Device;
class PipelineCache;

// The compute pipelines of the attention backend and of the block operations, made on first
// use and kept: one per shader and set of specialization constants.
class PipelineLibrary
{
public:
    PipelineLibrary(const Device& device, const PipelineCache& cache);

    // Throws VulkanError.
    const ComputePipeline& get(const std::string& shader, const std::vector<Binding>& bindings,
                               std::uint32_t pushBytes,
                               const std::vector<std::uint32_t>& constants);
    // Saves the pipeline cache when pipelines were made since the last call.
    void saveIfChanged();
    void clear() { m_pipelines.clear(); }

private:
    const Device& m_device;
    const PipelineCache& m_cache;
    std::map<std::string, std::unique_ptr<ComputePipeline>> m_pipelines;
    bool m_added = false;
};

} // namespace attn::gpu
