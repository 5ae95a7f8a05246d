#pragma once

#include "core/block_ops.h"
#include "gpu/vulkan_backend.h"

#include <memory>
#include <mutex>

namespace attn::gpu {

class Device;
class PipelineCache;
class WeightCache;

// A real model's operations between attention layers (core::BlockOps) as compute shaders on
// the Vulkan backend's device: row norms (row_norm.comp), the feed-forward network, the
// masked-LM head's dense layer and the logits (gemm.comp with a bias, an activation and the
// gated product as specialization constants). Each call uploads its rows, records one command
// buffer, submits it and reads the result back. The weights come from the device's
// WeightCache, so a second forward of the same model uploads none.
//
// Faults throw VulkanError (a core::BackendFault); inputs whose shapes do not fit the weights
// throw core::Error. Calls are serialised with the backend's computes by `queueMutex`.
class VulkanBlockOps final : public core::BlockOps
{
public:
    VulkanBlockOps(const Device& device, const PipelineCache& cache, ShaderVariant variant,
                   std::mutex& queueMutex, WeightCache& weights);
    ~VulkanBlockOps() override;
    VulkanBlockOps(const VulkanBlockOps&) = delete;
    VulkanBlockOps& operator=(const VulkanBlockOps&) = delete;

    core::Matrix norm(const core::Matrix& x, const core::NormWeights& weights) override;
    core::Matrix feedForward(const core::Matrix& x,
                             const core::FeedForwardWeights& weights) override;
    core::Matrix dense(const core::Matrix& x, const core::LinearWeights& weights,
                       core::Activation activation) override;
    core::Matrix logits(const core::Matrix& x, const core::Matrix& outputEmbedding,
                        const core::RowVector& bias) override;

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace attn::gpu
