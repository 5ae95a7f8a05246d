#include "weight_cache.h"

#include "gpu/command_context.h"
#include "gpu/device.h"
#include "gpu/vulkan_error.h"
#include "gpu/vulkan_functions.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace attn::gpu {

std::uint64_t sampledFingerprint(const float* data, std::size_t count)
{
    // FNV-1a over the bit patterns of the samples.
    std::uint64_t hash = 14695981039346656037ull ^ count;
    auto mix = [&hash](std::uint32_t word) {
        for (int b = 0; b < 4; ++b) {
            hash ^= (word >> (8 * b)) & 0xffu;
            hash *= 1099511628211ull;
        }
    };
    constexpr std::size_t kSamples = 64;
    for (std::size_t s = 0; s < kSamples && count > 0; ++s) {
        std::uint32_t word;
        std::memcpy(&word, data + s * count / kSamples, sizeof word);
        mix(word);
    }
    if (count > 0) {
        std::uint32_t word;
        std::memcpy(&word, data + count - 1, sizeof word);
        mix(word);
    }
    return hash;
}

VkDeviceSize WeightCache::defaultBudget(const Device& device)
{
    if (const char* env = std::getenv("ATTN_VK_WEIGHT_CACHE_MIB"))
        return VkDeviceSize(std::strtoull(env, nullptr, 10)) << 20;
    const VkPhysicalDeviceMemoryProperties& memory = device.memory();
    VkDeviceSize largest = 0;
    for (std::uint32_t i = 0; i < memory.memoryHeapCount; ++i)
        if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            largest = std::max(largest, memory.memoryHeaps[i].size);
    const bool cpu = device.info().vkType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    return largest / (cpu ? 4 : 2);
}

WeightCache::WeightCache(const Device& device, VkDeviceSize budget)
    : m_device(device), m_commands(CommandContext::create(device)), m_budget(budget)
{
}

WeightCache::~WeightCache() = default;

void WeightCache::beginOperation()
{
    ++m_operation;
}

void WeightCache::clear()
{
    m_entries.clear();
    m_lru.clear();
    m_resident = 0;
}

const Buffer& WeightCache::get(const Key& key, std::uint64_t fingerprint, std::size_t floats,
                               const Fill& fill)
{
    auto found = m_entries.find(key);
    if (found != m_entries.end()) {
        const Lru::iterator entry = found->second;
        if (entry->fingerprint == fingerprint) {
            entry->usedIn = m_operation;
            m_lru.splice(m_lru.begin(), m_lru, entry);
            return entry->buffer;
        }
        // Another matrix at a freed one's address: its copy is stale.
        m_resident -= entry->buffer.size();
        m_lru.erase(entry);
        m_entries.erase(found);
    }
    // Room first, so that old copies are freed before the new one is allocated.
    evictFor(VkDeviceSize(floats) * sizeof(float));
    Buffer buffer = upload(floats, fill);
    m_resident += buffer.size();
    m_lru.push_front(Entry{key, fingerprint, std::move(buffer), m_operation});
    m_entries[key] = m_lru.begin();
    ++m_uploads;
    m_uploadedBytes += floats * sizeof(float);
    return m_lru.front().buffer;
}

void WeightCache::evictFor(VkDeviceSize bytes)
{
    // From the least recently used end; entries pinned by this operation stay.
    auto it = m_lru.end();
    while (m_resident + bytes > m_budget && it != m_lru.begin()) {
        --it;
        if (it->usedIn == m_operation)
            continue;
        m_resident -= it->buffer.size();
        m_entries.erase(it->key);
        it = m_lru.erase(it);
        ++m_evictions;
    }
}

Buffer WeightCache::upload(std::size_t floats, const Fill& fill)
{
    const VkDeviceSize bytes = VkDeviceSize(std::max<std::size_t>(floats, 4)) * sizeof(float);
    if (m_device.unifiedMemory()) {
        // The device reads host-visible memory in place: write it there.
        Buffer buffer = Buffer::create(m_device, bytes, MemoryKind::Shared);
        std::memset(buffer.mapped(), 0, buffer.size());
        fill(buffer.floats());
        return buffer;
    }
    Buffer staging = Buffer::create(m_device, bytes, MemoryKind::Upload);
    std::memset(staging.mapped(), 0, staging.size());
    fill(staging.floats());
    Buffer buffer = Buffer::create(m_device, bytes, MemoryKind::DeviceLocal);
    VkCommandBuffer cb = m_commands.allocate();
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
    // The host's writes into the staging buffer -> the copy (the submission orders them too;
    // the barrier says so), then the copy -> every later shader read of the weights (the
    // operation that uses them is a later submission on the same queue).
    VkMemoryBarrier memory{};
    memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    memory.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT;
    memory.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                         &memory, 0, nullptr, 0, nullptr);
    const VkBufferCopy region{0, 0, staging.size()};
    vkCmdCopyBuffer(cb, staging.handle(), buffer.handle(), 1, &region);
    memory.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    memory.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 1, &memory, 0, nullptr, 0, nullptr);
    check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    m_commands.submitAndWait(cb);
    m_commands.reset();
    return buffer;
}

} // namespace attn::gpu
