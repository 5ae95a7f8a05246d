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

    // The primary's block operations while it is in use; after a fault, the CPU's.
    core::BlockOps& blockOps() override { return m_blockOps; }

    // The primary backend while it is in use, else null.
    core::Backend* primary() const;
    // Why it fell back ("vkQueueSubmit failed: VK_ERROR_DEVICE_LOST"), empty before.
    std::string reason() const;

private:
    // Forwards each operation to the backend in use, falling back as compute does.
    class BlockOps final : public core::BlockOps
    {
    public:
        explicit BlockOps(FallbackBackend& owner) : m_owner(owner) {}
        core::Matrix norm(const core::Matrix& x, const core::NormWeights& w) override;
        core::Matrix feedForward(const core::Matrix& x, const core::FeedForwardWeights& w) override;
        core::Matrix dense(const core::Matrix& x, const core::LinearWeights& w,
                           core::Activation activation) override;
        core::Matrix logits(const core::Matrix& x, const core::Matrix& outputEmbedding,
                            const core::RowVector& bias) override;

    private:
        template <typename Op> core::Matrix run(const Op& op);
        FallbackBackend& m_owner;
    };

    // Releases the primary after a fault; the warning goes out with the next result.
    void fallBack(const std::string& failure);

    mutable std::mutex m_mutex;
    std::unique_ptr<core::Backend> m_primary;
    core::CpuBackend m_cpu;
    std::string m_reason;
    std::string m_pendingWarning; // a block operation's fault, shown with the next result
    BlockOps m_blockOps{*this};
};

} // namespace attn::gpu
