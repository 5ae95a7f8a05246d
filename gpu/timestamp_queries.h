#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace attn::gpu {

class Device;

// A pool of timestamp queries written between stages (vkCmdWriteTimestamp) and read after
// the fence. Move-only; create() throws VulkanError.
class TimestampQueries
{
public:
    static TimestampQueries create(const Device& device, std::uint32_t count);

    TimestampQueries() = default;
    TimestampQueries(TimestampQueries&& other) noexcept;
    TimestampQueries& operator=(TimestampQueries&& other) noexcept;
    TimestampQueries(const TimestampQueries&) = delete;
    TimestampQueries& operator=(const TimestampQueries&) = delete;
    ~TimestampQueries();

    VkQueryPool handle() const { return m_pool; }
    std::uint32_t count() const { return m_count; }
    // Ticks of queries [first, first + count), waiting for them; multiply differences by
    // milliseconds() to get time.
    std::vector<std::uint64_t> read(std::uint32_t first, std::uint32_t count) const;
    double millisecondsPerTick() const { return m_msPerTick; }
    // Masks a tick difference to the queue's valid bits.
    std::uint64_t elapsed(std::uint64_t begin, std::uint64_t end) const;

private:
    void destroy() noexcept;

    VkDevice m_device = VK_NULL_HANDLE;
    VkQueryPool m_pool = VK_NULL_HANDLE;
    std::uint32_t m_count = 0;
    double m_msPerTick = 0.0;
    std::uint64_t m_mask = ~0ull;
};

} // namespace attn::gpu
