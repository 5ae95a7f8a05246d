#include "fallback_backend.h"

#include <utility>

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
    if (m_primary) {
        try {
            return m_primary->compute(problem, options);
        } catch (const core::BackendFault& fault) {
            lock.unlock();
            fallBack(fault.what());
        }
    } else {
        lock.unlock();
    }
    auto cpuResult = m_cpu.compute(std::move(problem), options);
    std::string warning;
    {
        std::lock_guard again(m_mutex);
        warning = std::exchange(m_pendingWarning, {});
    }
    if (warning.empty())
        return cpuResult;
    auto result = std::make_shared<core::AttentionResult>(*cpuResult);
    result->diagnostics.warnings.push_back(warning); // the caller shows it: status bar, stderr
    return result;
}

void FallbackBackend::fallBack(const std::string& failure)
{
    std::lock_guard lock(m_mutex);
    if (!m_primary)
        return;
    // Release the device before the (possibly long) CPU compute; a lost device is never reused.
    const std::string device = m_primary->name() + " (" + m_primary->deviceName() + ")";
    m_primary.reset();
    m_reason = failure;
    m_pendingWarning = device + " failed (" + failure + "); switched to the CPU backend";
}

template <typename Op> core::Matrix FallbackBackend::BlockOps::run(const Op& op)
{
    std::unique_lock lock(m_owner.m_mutex); // held while the primary computes, as in compute()
    if (m_owner.m_primary) {
        try {
            return op(m_owner.m_primary->blockOps());
        } catch (const core::BackendFault& fault) {
            lock.unlock();
            m_owner.fallBack(fault.what());
        }
    } else {
        lock.unlock();
    }
    return op(m_owner.m_cpu.blockOps());
}

core::Matrix FallbackBackend::BlockOps::norm(const core::Matrix& x, const core::NormWeights& w)
{
    return run([&](core::BlockOps& ops) { return ops.norm(x, w); });
}

core::Matrix FallbackBackend::BlockOps::feedForward(const core::Matrix& x,
                                                    const core::FeedForwardWeights& w)
{
    return run([&](core::BlockOps& ops) { return ops.feedForward(x, w); });
}

core::Matrix FallbackBackend::BlockOps::dense(const core::Matrix& x, const core::LinearWeights& w,
                                              core::Activation activation)
{
    return run([&](core::BlockOps& ops) { return ops.dense(x, w, activation); });
}

core::Matrix FallbackBackend::BlockOps::logits(const core::Matrix& x,
                                               const core::Matrix& outputEmbedding,
                                               const core::RowVector& bias)
{
    return run([&](core::BlockOps& ops) { return ops.logits(x, outputEmbedding, bias); });
}

} // namespace attn::gpu
