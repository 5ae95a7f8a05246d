#include "staged_buffer.h"

#include "gpu/command_context.h"
#include "gpu/device.h"
#include "gpu/vulkan_functions.h"

#include <algorithm>

namespace attn::gpu {
StagedBuffer StagedBuffer::create(const Device& device, VkDeviceSize bytes, Direction direction)
{
    StagedBuffer b;
    if (device.unifiedMemory()) {
        b.m_device = Buffer::create(device, bytes, MemoryKind::Shared);
    } else {
        b.m_device = Buffer::create(device, bytes, MemoryKind::DeviceLocal);
        b.m_staging = Buffer::create(device, bytes,
                                     direction == Direction::Upload ? MemoryKind::Upload
                                                                    : MemoryKind::Readback);
    }
    return b;
}

void StagedBuffer::recordUpload(VkCommandBuffer cb, VkDeviceSize bytes) const
{
    if (!m_staging) {
        // The host's writes into mapped memory -> the shaders' reads.
        recordMemoryBarrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
        return;
    }
    // Host writes -> the transfer's reads of the staging buffer; the copy -> shader reads.
    recordMemoryBarrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    const VkBufferCopy region{0, 0, std::min(bytes, m_staging.size())};
    vkCmdCopyBuffer(cb, m_staging.handle(), m_device.handle(), 1, &region);
    recordMemoryBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
}

void StagedBuffer::recordDownload(VkCommandBuffer cb, VkDeviceSize bytes) const
{
    if (!m_staging) {
        // The shaders' writes -> the host's reads after the fence.
        recordMemoryBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        return;
    }
    // Shader writes -> the transfer's reads; the copy -> host reads.
    recordMemoryBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    const VkBufferCopy region{0, 0, std::min(bytes, m_device.size())};
    vkCmdCopyBuffer(cb, m_device.handle(), m_staging.handle(), 1, &region);
    recordMemoryBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

} // namespace attn::gpu
