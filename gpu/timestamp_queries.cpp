#include "timestamp_queries.h"

#include "device.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <utility>

namespace attn::gpu {

TimestampQueries TimestampQueries::create(const Device& device, std::uint32_t count)
{
    TimestampQueries queries;
    queries.m_device = device.handle();
    queries.m_count = count;
    queries.m_msPerTick = double(device.limits().timestampPeriod) * 1e-6;
    const std::uint32_t bits = device.timestampBits();
    queries.m_mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
    VkQueryPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = count;
    check(vkCreateQueryPool(queries.m_device, &info, nullptr, &queries.m_pool),
          "vkCreateQueryPool");
    return queries;
}

std::vector<std::uint64_t> TimestampQueries::read(std::uint32_t first, std::uint32_t count) const
{
    std::vector<std::uint64_t> ticks(count);
    if (count == 0)
        return ticks;
    check(vkGetQueryPoolResults(m_device, m_pool, first, count, count * sizeof(std::uint64_t),
                                ticks.data(), sizeof(std::uint64_t),
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
          "vkGetQueryPoolResults");
    return ticks;
}

std::uint64_t TimestampQueries::elapsed(std::uint64_t begin, std::uint64_t end) const
{
    return (end - begin) & m_mask;
}

TimestampQueries::TimestampQueries(TimestampQueries&& other) noexcept
{
    *this = std::move(other);
}

TimestampQueries& TimestampQueries::operator=(TimestampQueries&& other) noexcept
{
    if (this != &other) {
        destroy();
        m_device = std::exchange(other.m_device, VK_NULL_HANDLE);
        m_pool = std::exchange(other.m_pool, VK_NULL_HANDLE);
        m_count = other.m_count;
        m_msPerTick = other.m_msPerTick;
        m_mask = other.m_mask;
    }
    return *this;
}

TimestampQueries::~TimestampQueries()
{
    destroy();
}

void TimestampQueries::destroy() noexcept
{
    if (m_pool != VK_NULL_HANDLE)
        vkDestroyQueryPool(m_device, m_pool, nullptr);
    m_pool = VK_NULL_HANDLE;
}

} // namespace attn::gpu
