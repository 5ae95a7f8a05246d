#pragma once

// VulkanBackend's implementation, shared by the files that make it up: vulkan_backend.cpp
// (device, pipelines, planning, running), attention_recording.cpp (command buffers) and
// weight_upload.cpp (inputs and weights to the device).

#include "attention_plan.h"
#include "command_context.h"
#include "compute_pipeline.h"
#include "core/limits.h"
#include "instance.h"
#include "model/pipeline_library.h"
#include "model/weight_cache.h"
#include "pipeline_cache.h"
#include "vulkan_backend.h"

#include <mutex>

namespace attn::gpu {

// gemm.comp's registers or shared-memory shapes, as the device type suggests (ATTN_VK_VARIANT
// overrides: "registers", "shared").
ShaderVariant variantFor(const DeviceInfo& device);

static_assert(kMaxHeadBits >= core::kMaxHeads, "one HEAD_* word per head");

struct VulkanBackend::Impl
{
    Instance instance;
    DeviceInfo info;
    Device device;
    PipelineCache cache;
    CommandContext commands;
    ShaderVariant variant = ShaderVariant::Registers;
    PipelineLibrary pipelines;
    std::unique_ptr<detail::Plan> plan;
    int records = 0;
    std::mutex mutex;
    // Device copies of model weights, shared by the block operations; destroyed before the
    // device (members go in reverse order).
    WeightCache weights;

    Impl(Instance&& i, const DeviceInfo& d)
        : instance(std::move(i)), info(d), device(Device::create(d)),
          cache(PipelineCache::create(device)), commands(CommandContext::create(device)),
          variant(variantFor(d)), pipelines(device, cache),
          weights(device, WeightCache::defaultBudget(device))
    {
    }
    ~Impl()
    {
        device.waitIdle();
        plan.reset();
        pipelines.clear();
        cache.save();
    }

    const ComputePipeline& gemmPipeline(const detail::GemmConfig& config);
    // Rows x columns of C per workgroup: 8 rows x 4 columns per invocation, 64 invocations (8
    // along N) for the registers shape; 64 x 64 for the shared-memory shape.
    static constexpr std::uint32_t gemmTileRows() { return 64; }
    std::uint32_t gemmTileCols() const { return variant == ShaderVariant::Registers ? 32 : 64; }
    std::uint32_t normalizeWorkgroup() const
    {
        return variant == ShaderVariant::Registers
                   ? 64
                   : std::clamp<std::uint32_t>(device.subgroupSize() * 2, 32, 256);
    }

    void buildPlan(const detail::PlanKey& key);
    void record(detail::Plan& p, detail::Plan::Recording& r, const Buffer& weightsBuffer,
                bool ownWeights);
    void clearBuffers(detail::Plan& p);
    void upload(const core::Problem& problem);
    detail::WeightChanges compareWeights(const core::ModelWeights& now,
                                         const core::ModelWeights* before) const;
    void packWeights(float* to, const core::ModelWeights& mw,
                     const detail::WeightChanges& changes) const;
    void selectWeights(const core::Problem& problem, const core::Problem* previous,
                       const detail::WeightChanges& changes);
    std::shared_ptr<core::AttentionResult> run(std::shared_ptr<const core::Problem> problem,
                                               const core::ComputeOptions& options);
};

} // namespace attn::gpu
