#include "pipeline_cache.h"

#include "core/atomic_file.h"
#include "core/regular_file.h"
#include "device.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace attn::gpu {
namespace {

constexpr qint64 kMaxCacheBytes = qint64(256) << 20;

std::string cachePath()
{
    if (const char* env = std::getenv("ATTN_VK_PIPELINE_CACHE"))
        return std::string_view(env) == "off" ? std::string() : std::string(env);
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    if (base.isEmpty())
        return {};
    return (base + QStringLiteral("/attention-explorer/vk-pipeline-cache.bin")).toStdString();
}

// VkPipelineCacheHeaderVersionOne: the driver's own check is not trusted with a stranger's file.
bool headerMatches(const QByteArray& data, const VkPhysicalDeviceProperties& properties)
{
    VkPipelineCacheHeaderVersionOne header{};
    if (data.size() < qsizetype(sizeof header))
        return false;
    std::memcpy(&header, data.constData(), sizeof header);
    return header.headerSize >= sizeof header &&
           header.headerVersion == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
           header.vendorID == properties.vendorID && header.deviceID == properties.deviceID &&
           std::memcmp(header.pipelineCacheUUID, properties.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

} // namespace

PipelineCache PipelineCache::create(const Device& device)
{
    PipelineCache cache;
    cache.m_device = device.handle();
    cache.m_path = cachePath();

    QByteArray data;
    if (!cache.m_path.empty()) {
        try {
            const QString path = QString::fromStdString(cache.m_path);
            if (QFileInfo::exists(path))
                data = core::readRegularFile(path, kMaxCacheBytes);
        } catch (const std::exception&) {
            data.clear(); // unreadable: start empty
        }
        if (!headerMatches(data, device.properties()))
            data.clear();
    }
    VkPipelineCacheCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
    info.initialDataSize = std::size_t(data.size());
    info.pInitialData = data.isEmpty() ? nullptr : data.constData();
    check(vkCreatePipelineCache(cache.m_device, &info, nullptr, &cache.m_cache),
          "vkCreatePipelineCache");
    cache.m_loaded = !data.isEmpty();
    return cache;
}

void PipelineCache::save() const noexcept
{
    if (m_cache == VK_NULL_HANDLE || m_path.empty())
        return;
    try {
        std::size_t size = 0;
        if (vkGetPipelineCacheData(m_device, m_cache, &size, nullptr) != VK_SUCCESS || size == 0)
            return;
        QByteArray data(qsizetype(size), Qt::Uninitialized);
        if (vkGetPipelineCacheData(m_device, m_cache, &size, data.data()) != VK_SUCCESS)
            return;
        data.truncate(qsizetype(size));
        const QString path = QString::fromStdString(m_path);
        QDir().mkpath(QFileInfo(path).absolutePath());
        core::writeFileAtomically(path, data);
    } catch (...) {
        // A cache that cannot be written only costs the next start some compile time.
    }
}

PipelineCache::PipelineCache(PipelineCache&& other) noexcept
{
    *this = std::move(other);
}

PipelineCache& PipelineCache::operator=(PipelineCache&& other) noexcept
{
    if (this != &other) {
        destroy();
        m_device = std::exchange(other.m_device, VK_NULL_HANDLE);
        m_cache = std::exchange(other.m_cache, VK_NULL_HANDLE);
        m_path = std::move(other.m_path);
        m_loaded = other.m_loaded;
    }
    return *this;
}

PipelineCache::~PipelineCache()
{
    destroy();
}

void PipelineCache::destroy() noexcept
{
    if (m_cache != VK_NULL_HANDLE)
        vkDestroyPipelineCache(m_device, m_cache, nullptr);
    m_cache = VK_NULL_HANDLE;
}

} // namespace attn::gpu
