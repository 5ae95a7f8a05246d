#pragma once

#include <vulkan/vulkan.h>

#include <string>

namespace attn::gpu {

class Device;

// A VkPipelineCache kept in the user's cache directory
// ($XDG_CACHE_HOME/attention-explorer/vk-pipeline-cache.bin, from QStandardPaths), so that a
// second start does not compile the shaders again. ATTN_VK_PIPELINE_CACHE=PATH overrides the
// file, ATTN_VK_PIPELINE_CACHE=off disables it. A file made by another device or driver is
// ignored (its header is checked before the driver sees it). Move-only.
class PipelineCache
{
public:
    static PipelineCache create(const Device& device);

    PipelineCache() = default;
    PipelineCache(PipelineCache&& other) noexcept;
    PipelineCache& operator=(PipelineCache&& other) noexcept;
    PipelineCache(const PipelineCache&) = delete;
    PipelineCache& operator=(const PipelineCache&) = delete;
    ~PipelineCache();

    VkPipelineCache handle() const { return m_cache; }
    const std::string& path() const { return m_path; }
    bool loadedFromDisk() const { return m_loaded; }
    // Writes the cache atomically; failures are ignored (a cache is an optimisation).
    void save() const noexcept;

private:
    void destroy() noexcept;

    VkDevice m_device = VK_NULL_HANDLE;
    VkPipelineCache m_cache = VK_NULL_HANDLE;
    std::string m_path;
    bool m_loaded = false;
};

} // namespace attn::gpu
