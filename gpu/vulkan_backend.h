#pragma once

#include "core/backend.h"
#include "physical_device.h"

#include <memory>
#include <string>

namespace attn::gpu {

class VulkanBlockOps;
class WeightCache;

// Which shader shapes the device gets (PERF.md): register-tiled products and one row per
// invocation for CPU devices such as lavapipe; shared-memory tiles and subgroup reductions
// for GPUs. Chosen from the device type; ATTN_VK_VARIANT=registers|shared overrides it.
enum class ShaderVariant { Registers, SharedMemory };

// The Vulkan compute backend: the whole pipeline of Vaswani et al. eq. 1 and its variants on
// the device (X = E + P, projections, rotary positions, every score, mask and normalisation,
// weights x V, concat with disabled heads, W_O, pooling), matching core::CpuBackend within
// float rounding; and a real model's block operations (blockOps()).
//
// Latency: buffers are allocated, mapped and the command buffers recorded once per shape
// (sizes, score, normalisation, kept intermediates, pooling grid, rotary); an edit of the
// weights, the temperature, the mask rules, the fill, the rotary positions or the enabled heads
// only rewrites mapped memory and submits again. A weight set that shares nothing with the
// last one (a model's next layer) is packed once into the device's WeightCache and read from
// there by every later compute of it (its own recording of the shape's command buffers), so
// a model's second forward uploads no weights. Long inputs are processed in row chunks so that
// no binding exceeds maxStorageBufferRange; with pooling only the grid leaves the device.
class VulkanBackend final : public core::Backend
{
public:
    // `selector`: "" for the preferred device (or ATTN_VK_DEVICE), an index, or a
    // case-insensitive part of the name. Throws VulkanError when Vulkan or the device cannot
    // be set up, core::Error when the selector matches no device.
    static std::unique_ptr<VulkanBackend> create(const std::string& selector = {});
    ~VulkanBackend() override;

    std::string name() const override { return "Vulkan"; }
    std::string deviceName() const override;
    // Throws core::Error for an invalid problem (as the CPU backend does) and a BackendFault
    // (VulkanError) for device trouble: lost device, out of device memory, too large a binding.
    std::shared_ptr<const core::AttentionResult>
    compute(std::shared_ptr<const core::Problem> problem,
            const core::ComputeOptions& options) override;

    // Norms, feed-forward and logits of a real model, on the same device (VulkanBlockOps).
    core::BlockOps& blockOps() override;
    // The device copies of model weights: each layer's attention weights and the block
    // operations' (a second forward of the same model uploads none).
    const WeightCache& weightCache() const;

    const DeviceInfo& device() const;
    ShaderVariant variant() const;
    // Validation messages seen by this backend's instance (ATTN_VK_VALIDATION=1).
    int validationMessages() const;
    bool validationEnabled() const;
    bool pipelineCacheLoaded() const;
    // How many times a shape's buffers were allocated (and its command buffers recorded): a
    // per-edit change must not increase it. (Recording the shape against another cached weight
    // set allocates nothing and is not counted.)
    int recordCount() const;

private:
    struct Impl;
    explicit VulkanBackend(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m;
    std::unique_ptr<VulkanBlockOps> m_blockOps; // declared after m: destroyed before the device
};

} // namespace attn::gpu
