#pragma once

#include "core/backend.h"
#include "core/cpu_backend.h"

#include <memory>
#include <mutex>
#include <string>

namespace attn::gpu {

// Forwards to a primary backend (Vulkan) and, on the first backend fault during a compute
// (device lost, out of device memory, any BackendFault), switches to core::CpuBackend for
// good: it returns the CPU result for the same problem with one warning line added to
// diagnostics.warnings (only on that result, so the caller shows it once). Invalid problems
// (core::Error) are not faults and propagate unchanged.
class FallbackBackend final : public core::Backend
{
public:
    explicit FallbackBackend(std::unique_ptr<core::Backend> primary);

    std::string name() const override;
    std::string deviceName() const override;
    std::shared_ptr<const core::AttentionResult>
    compute(std::shared_ptr<const core::Problem> problem,
            const core::ComputeOptions& options) override;

    // True once the primary backend failed and the CPU took over.
    bool fellBack() const;
    // The primary backend while it is in use, else null.
    core::Backend* primary() const;
    // Why it fell back ("vkQueueSubmit failed: VK_ERROR_DEVICE_LOST"), empty before.
    std::string reason() const;

private:
    mutable std::mutex m_mutex;
    std::unique_ptr<core::Backend> m_primary;
    core::CpuBackend m_cpu;
    std::string m_reason;
};

} // namespace attn::gpu
