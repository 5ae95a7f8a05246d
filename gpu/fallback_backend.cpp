#include "fallback_backend.h"


namespace attn::gpu {

FallbackBackend::FallbackBackend(std::unique_ptr<core::Backend> primary)
    : m_primary(std::move(primary))
{
}

std::string FallbackBackend::name() const
{
    std::lock_guard lock(m_mutex);
    return m_primary ? m_primary->name() : m_cpu.name();
}

std::string FallbackBackend::deviceName() const
{
    std::lock_guard lock(m_mutex);
    return m_primary ? m_primary->deviceName() : m_cpu.deviceName();
}

bool FallbackBackend::fellBack() const
{
    std::lock_guard lock(m_mutex);
    return !m_primary;
}

core::Backend* FallbackBackend::primary() const
{
    std::lock_guard lock(m_mutex);
    return m_primary.get();
}

std::string FallbackBackend::reason() const
{
    std::lock_guard lock(m_mutex);
    return m_reason;
}

std::shared_ptr<const core::AttentionResult>
FallbackBackend::compute(std::shared_ptr<const core::Problem> problem,
                         const core::ComputeOptions& options)
{
    std::unique_lock lock(m_mutex);
    if (!m_primary) {
        lock.unlock();
        return m_cpu.compute(std::move(problem), options);
    }
    std::string failure;
    try {
        return m_primary->compute(problem, options);
    } catch (const core::BackendFault& fault) {
        failure = fault.what();
    }
    // Release the device before the (possibly long) CPU compute; a lost device is never reused.
    const std::string device = m_primary->name() + " (" + m_primary->deviceName() + ")";
    m_primary.reset();
    m_reason = failure;
    lock.unlock();

    auto cpuResult = m_cpu.compute(std::move(problem), options);
    auto result = std::make_shared<core::AttentionResult>(*cpuResult);
    const std::string warning = device + " failed (" + failure + "); switched to the CPU backend";
    result->diagnostics.warnings.push_back(warning); // the caller shows it: status bar, stderr

    return result;
}

} // namespace attn::gpu
