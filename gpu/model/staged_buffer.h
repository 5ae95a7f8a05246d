#pragma once

#include "gpu/buffer.h"

#include <vulkan/vulkan.h>

namespace attn::gpu {

class Device;

// A device buffer that the host writes (Upload) or reads (Readback) around each operation. On a
// device that shares the host's memory (lavapipe, integrated GPUs) it is one mapped buffer used
// in place; otherwise a device-local buffer and a mapped staging twin, copied by
// recordUpload() / recordDownload(). Move-only; create() throws VulkanError.
class StagedBuffer
{
public:
    enum class Direction { Upload, Readback };

    static StagedBuffer create(const Device& device, VkDeviceSize bytes, Direction direction);

    const Buffer& device() const { return m_device; }
    // Where the host writes or reads.
    float* floats() const { return m_staging ? m_staging.floats() : m_device.floats(); }
    VkDeviceSize size() const { return m_device.size(); }
    explicit operator bool() const { return bool(m_device); }

    // Host writes -> shader reads: the staging copy and its barriers (a barrier alone in place).
    // Only the first `bytes` are copied.
    void recordUpload(VkCommandBuffer cb, VkDeviceSize bytes = VK_WHOLE_SIZE) const;
    // Shader writes -> host reads: the copy back and its barriers (a barrier alone in place).
    void recordDownload(VkCommandBuffer cb, VkDeviceSize bytes = VK_WHOLE_SIZE) const;

private:
    Buffer m_device;
    Buffer m_staging;
};

} // namespace attn::gpu
