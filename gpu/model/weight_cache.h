#pragma once

#include "gpu/buffer.h"
#include "gpu/command_context.h"

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace attn::gpu {

class Device;

// Device copies of a model's weights, so that a second forward uploads none. The weights of a
// core::Model never change while the model lives, so a matrix is known by where its floats
// are and how many (the host data pointer, rows, columns) and by how the shaders want it laid
// out (`layout`: padding, chunk). A fingerprint of sampled values guards against a freed
// matrix whose address a new one of the same size reuses. Objects shared through a
// shared_ptr to const (a layer's attention weights, core::ModelWeights) are known exactly
// instead: the entry keeps a weak_ptr to its owner, and an expired one is never a hit.
//
// Bounded: past the budget (device bytes) the least recently used entries are evicted, but
// never one used by the operation being recorded (entries are pinned from get() until the
// next beginOperation()), so an operation may exceed the budget while it runs. The buffers of
// entries whose owner is gone are kept for the next entry of the same size (a few of them,
// within the budget): a buffer keeps its id through such reuse, so what was recorded against it
// stays valid. Not thread-safe: the owner serialises access (the backend's queue mutex).
class WeightCache
{
public:
    struct Key
    {
        const void* data = nullptr;
        std::int64_t rows = 0;
        std::int64_t cols = 0;
        std::uint32_t layout = 0;

        auto operator<=>(const Key&) const = default;
    };
    // Writes the packed floats of an entry into mapped memory.
    using Fill = std::function<void(float* destination)>;
    // An entry: its buffer, and that buffer's id, which no other buffer ever has (what a command
    // buffer recorded against the buffer can be filed under: a new buffer may reuse a freed
    // one's address, but never its id).
    struct Cached
    {
        const Buffer* buffer = nullptr;
        std::uint64_t id = 0;

        explicit operator bool() const { return buffer != nullptr; }
    };

    // Throws VulkanError.
    WeightCache(const Device& device, VkDeviceSize budget);
    ~WeightCache();
    WeightCache(const WeightCache&) = delete;
    WeightCache& operator=(const WeightCache&) = delete;

    // Starts an operation: what earlier operations used may be evicted again (and entries
    // whose owner is gone are freed).
    void beginOperation();
    // The entry of `key` (`floats` packed floats), written by `fill` on a miss (through a
    // staging buffer and a copy on a device that does not share the host's memory). `owner`,
    // when given, is the object the key's data belongs to. Throws VulkanError.
    Cached get(const Key& key, std::uint64_t fingerprint, std::size_t floats, const Fill& fill,
               const std::weak_ptr<const void>& owner = {});
    // The entry of `key` if there is a valid one (and it becomes the most recently used).
    Cached find(const Key& key, std::uint64_t fingerprint,
                const std::weak_ptr<const void>& owner = {});
    void clear();

    VkDeviceSize budget() const { return m_budget; }
    std::size_t entries() const { return m_entries.size(); }
    // Misses since creation: how many entries were uploaded, and their bytes.
    std::uint64_t uploads() const { return m_uploads; }
    std::uint64_t uploadedBytes() const { return m_uploadedBytes; }
    std::uint64_t evictions() const { return m_evictions; }

    // The budget for a device: ATTN_VK_WEIGHT_CACHE_MIB when set, else half of its largest
    // device-local heap (a quarter on a CPU device, whose "device memory" is the host's, which
    // already holds the weights once).
    static VkDeviceSize defaultBudget(const Device& device);

private:
    struct Entry
    {
        Key key;
        std::uint64_t fingerprint = 0;
        std::unique_ptr<Buffer> buffer; // stable address: recordings refer to it
        std::uint64_t usedIn = 0;       // the operation that last used it
        std::uint64_t id = 0;           // the buffer's
        std::weak_ptr<const void> owner;
        bool owned = false; // owner was given: the entry is valid while it lives
    };
    using Lru = std::list<Entry>; // most recently used first

    // Evicts until `bytes` more fit the budget (or only pinned entries are left).
    void evictFor(VkDeviceSize bytes);
    // Removes an entry; its buffer becomes a spare when `keep` and there is room for one.
    void erase(std::list<Entry>::iterator entry, bool keep = false);
    // A buffer holding `floats` floats written by `fill` (zeros around), a spare one's if one
    // has the size; its id in *id.
    std::unique_ptr<Buffer> upload(std::size_t floats, const Fill& fill, std::uint64_t* id);

    const Device& m_device;
    CommandContext m_commands; // the uploads' own, so that they never touch an operation's
    VkDeviceSize m_budget;
    VkDeviceSize m_resident = 0;
    std::uint64_t m_operation = 1;
    std::uint64_t m_uploads = 0;
    std::uint64_t m_uploadedBytes = 0;
    std::uint64_t m_evictions = 0;
    std::uint64_t m_nextId = 1;
    Lru m_lru;
    std::map<Key, Lru::iterator> m_entries;
    struct Spare
    {
        std::unique_ptr<Buffer> buffer;
        std::uint64_t id = 0;
    };
    std::vector<Spare> m_spares; // counted in m_resident
};

// A cheap identity check of `count` floats: a hash of 64 values spread evenly over them (and
// the last one) with the count.
std::uint64_t sampledFingerprint(const float* data, std::size_t count);

} // namespace attn::gpu
