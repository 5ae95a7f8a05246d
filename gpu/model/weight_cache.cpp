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
    for (auto it = m_lru.begin(); it != m_lru.end();) {
        auto next = std::next(it);
        if (it->owned && it->owner.expired())
            erase(it, true);
        it = next;
    }
}

void WeightCache::erase(Lru::iterator entry, bool keep)
{
    // The most recently freed few are kept (a model's layers, an explorer's weights at one
    // shape, have one size); older spares go first.
    constexpr std::size_t kSpares = 4;
    if (keep) {
        if (m_spares.size() == kSpares) {
            m_resident -= m_spares.front().buffer->size();
            m_spares.erase(m_spares.begin());
        }
        m_spares.push_back({std::move(entry->buffer), entry->id});
    } else {
        m_resident -= entry->buffer->size();
    }
    m_entries.erase(entry->key);
    m_lru.erase(entry);
}

void WeightCache::clear()
{
    m_entries.clear();
    m_lru.clear();
    m_spares.clear();
    m_resident = 0;
}

WeightCache::Cached WeightCache::find(const Key& key, std::uint64_t fingerprint,
                                      const std::weak_ptr<const void>& owner)
{
    auto found = m_entries.find(key);
    if (found == m_entries.end())
        return {};
    const Lru::iterator entry = found->second;
    // The same owner, still alive; or, for entries without one, the same sampled values.
    auto sameOwner = [](const std::weak_ptr<const void>& a, const std::weak_ptr<const void>& b) {
        return !a.owner_before(b) && !b.owner_before(a);
    };
    const bool valid = entry->owned ? !entry->owner.expired() && sameOwner(entry->owner, owner)
                                    : owner.expired() && entry->fingerprint == fingerprint;
    if (!valid) {
        // Another object at a freed one's address: its copy is stale (its buffer may serve the
        // new one).
        erase(entry, true);
        return {};
    }
    entry->usedIn = m_operation;
    m_lru.splice(m_lru.begin(), m_lru, entry);
    return {entry->buffer.get(), entry->id};
}

WeightCache::Cached WeightCache::get(const Key& key, std::uint64_t fingerprint, std::size_t floats,
                                     const Fill& fill, const std::weak_ptr<const void>& owner)
{
    if (const Cached hit = find(key, fingerprint, owner))
        return hit;
    // Room first, so that old copies are freed before the new one is allocated.
    evictFor(VkDeviceSize(floats) * sizeof(float));
    Entry entry;
    entry.key = key;
    entry.fingerprint = fingerprint;
    entry.buffer = upload(floats, fill, &entry.id);
    entry.usedIn = m_operation;
    entry.owner = owner;
    entry.owned = !owner.expired();
    m_lru.push_front(std::move(entry));
    m_entries[key] = m_lru.begin();
    ++m_uploads;
    m_uploadedBytes += floats * sizeof(float);
    return {m_lru.front().buffer.get(), m_lru.front().id};
}

void WeightCache::evictFor(VkDeviceSize bytes)
{
    // Spares of another size first (one of this size is about to be reused), then from the
    // least recently used end; entries pinned by this operation stay.
    const VkDeviceSize rounded = std::max<VkDeviceSize>(16, (bytes + 15) & ~VkDeviceSize(15));
    for (auto spare = m_spares.begin(); spare != m_spares.end() && m_resident + bytes > m_budget;) {
        if (spare->buffer->size() == rounded) {
            ++spare;
            continue;
        }
        m_resident -= spare->buffer->size();
        spare = m_spares.erase(spare);
    }
    auto it = m_lru.end();
    while (m_resident + bytes > m_budget && it != m_lru.begin()) {
        --it;
        if (it->usedIn == m_operation)
            continue;
        const auto next = std::next(it);
        erase(it);
        it = next;
        ++m_evictions;
    }
}

std::unique_ptr<Buffer> WeightCache::upload(std::size_t floats, const Fill& fill, std::uint64_t* id)
{
    const VkDeviceSize bytes = VkDeviceSize(std::max<std::size_t>(floats, 4)) * sizeof(float);
    const VkDeviceSize rounded = (bytes + 15) & ~VkDeviceSize(15); // as Buffer::create rounds
    // Counted in m_resident once it holds the weights: a throw on the way frees it uncounted.
    std::unique_ptr<Buffer> buffer;
    for (auto spare = m_spares.begin(); spare != m_spares.end(); ++spare)
        if (spare->buffer->size() == rounded) {
            buffer = std::move(spare->buffer);
            *id = spare->id;
            m_resident -= buffer->size();
            m_spares.erase(spare);
            break;
        }
    if (!buffer) {
        buffer = std::make_unique<Buffer>(Buffer::create(
            m_device, bytes,
            m_device.unifiedMemory() ? MemoryKind::Shared : MemoryKind::DeviceLocal));
        *id = m_nextId++;
    }
    if (m_device.unifiedMemory()) {
        // The device reads host-visible memory in place: write it there.
        std::memset(buffer->mapped(), 0, buffer->size());
        fill(buffer->floats());
        m_resident += buffer->size();
        return buffer;
    }
    Buffer staging = Buffer::create(m_device, bytes, MemoryKind::Upload);
    std::memset(staging.mapped(), 0, staging.size());
    fill(staging.floats());
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
    vkCmdCopyBuffer(cb, staging.handle(), buffer->handle(), 1, &region);
    memory.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    memory.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         0, 1, &memory, 0, nullptr, 0, nullptr);
    check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    try {
        m_commands.submitAndWait(cb);
    } catch (...) {
        m_commands.reset();
        throw;
    }
    m_commands.reset();
    m_resident += buffer->size();
    return buffer;
}

} // namespace attn::gpu
