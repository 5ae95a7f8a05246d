#include "vulkan_backend_impl.h"

#include "core/diagnostics.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/pooling.h"
#include "model/vulkan_block_ops.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <tuple>

namespace attn::gpu {

using namespace detail;
using core::Matrix;

ShaderVariant variantFor(const DeviceInfo& device)
{
    if (const char* env = std::getenv("ATTN_VK_VARIANT")) {
        const std::string_view v(env);
        if (v == "registers")
            return ShaderVariant::Registers;
        if (v == "shared")
            return ShaderVariant::SharedMemory;
    }
    switch (device.vkType) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return ShaderVariant::SharedMemory;
    default:
        return ShaderVariant::Registers;
    }
}

const ComputePipeline& VulkanBackend::Impl::gemmPipeline(const GemmConfig& config)
{
    const bool registers = variant == ShaderVariant::Registers;
    const std::vector<std::uint32_t> constants = {
        registers ? 0u : 1u,          // VARIANT
        registers ? 64u : 256u,       // local size
        config.transposedB ? 1u : 0u, // B_TRANSPOSED
        config.op,                    // OP
        config.bias ? 1u : 0u,        // HAS_BIAS
        config.maskSkip ? 1u : 0u,    // MASK_SKIP
        config.keyRange ? 1u : 0u,    // K_RANGE
        8u,                           // TM: 8 x 4 outputs per invocation (PERF.md's best)
        8u,                           // THREADS_N
        registers ? 1u : 16u * 64u,   // SHARED_FLOATS
        config.skip,                  // SKIP
    };
    return pipelines.get(
        "gemm", {kUniformBinding, kTexelBinding, kTexelBinding, kStorageBinding, kTexelBinding},
        sizeof(GemmPush), constants);
}

void VulkanBackend::Impl::buildPlan(const PlanKey& key)
{
    plan.reset(); // free the old shape's memory before allocating the new one
    commands.reset();
    auto p = std::make_unique<Plan>(key);
    const Dims& d = p->dims;
    const VkPhysicalDeviceLimits& limits = device.limits();
    const VkDeviceSize maxBinding = limits.maxStorageBufferRange;
    const VkDeviceSize maxTexelBytes = VkDeviceSize(limits.maxTexelBufferElements) * 16;

    // Rows per chunk: each head's rows x Tk block of scores must fit one binding.
    const VkDeviceSize rowBytes = VkDeviceSize(d.h) * d.tk4 * kFloat;
    VkDeviceSize chunkLimit = std::min({maxBinding, maxTexelBytes, VkDeviceSize(256) << 20});
    // Test-only: ATTN_VK_CHUNK_BYTES forces small chunks, so short inputs cover the long path.
    if (const char* env = std::getenv("ATTN_VK_CHUNK_BYTES"))
        chunkLimit = std::max<VkDeviceSize>(
            rowBytes, std::min<VkDeviceSize>(std::strtoull(env, nullptr, 10), chunkLimit));
    std::uint64_t rows = std::max<std::uint64_t>(1, chunkLimit / rowBytes);
    if (rows >= d.tq) {
        rows = d.tq;
    } else {
        if (rows >= 64)
            rows -= rows % 64;
        if (key.pooled() && std::uint64_t(key.rowBlock) <= rows)
            rows -= rows % std::uint64_t(key.rowBlock);
    }
    p->rowsPerChunk = int(rows);
    p->chunks = int(ceilDiv(d.tq, rows));
    p->gridRows = int(ceilDiv(d.tq, std::uint32_t(key.rowBlock)));
    p->gridCols = int(ceilDiv(d.tk, std::uint32_t(key.colBlock)));
    // Chunk results that the host must read go back after each chunk; pooled weights without
    // intermediates stay on the device, so every chunk runs in a single submit.
    const bool readWeights = !key.pooled();
    p->multiSubmit = p->chunks > 1 && (readWeights || key.keep);

    // Packed weights, padded: [W_q | W_k | W_v] is d_model4 x nqkv, each head's columns side by
    // side in each part.
    WeightLayout& w = p->weightLayout;
    std::uint32_t offset = 0;
    auto take = [&offset](std::uint32_t floats) {
        const std::uint32_t at = offset;
        offset += pad4(floats);
        return at;
    };
    w.wqkv = take(d.dm4 * d.nqkv);
    w.bqkv = take(d.nqkv);
    w.bilinear = take(key.score == core::ScoreKind::Bilinear ? d.h * d.dk4 * d.dk4 : 0);
    w.additive = take(key.score == core::ScoreKind::Additive ? d.nq : 0);
    w.wo = take(d.nv * d.dm4);
    w.bo = take(d.dm4);
    w.total = offset;

    p->xRows = key.cross ? d.tq + d.tk : d.tq;
    p->customWords = ceilDiv(d.tk, 32);
    p->paddingOffset = 0;
    p->customOffset = p->customWords;
    p->maskWords = p->customWords * (key.custom ? 1 + d.tq : 1);

    auto checkBinding = [&](const char* what, VkDeviceSize bytes) {
        if (bytes > maxBinding || bytes > maxTexelBytes)
            throw core::BackendFault(
                std::string("Vulkan: the ") + what + " need " + std::to_string(bytes >> 20) +
                " MiB in one binding; this device allows " +
                std::to_string(std::min(maxBinding, maxTexelBytes) >> 20) + " MiB");
        return bytes;
    };
    const VkDeviceSize chunkBytes =
        checkBinding("scores of one chunk", VkDeviceSize(d.h) * rows * d.tk4 * kFloat);

    p->params = Buffer::create(device, sizeof(Params),
                               device.unifiedMemory() ? MemoryKind::Shared : MemoryKind::Upload);
    p->inputs = Mirror::create(device, checkBinding("inputs", 2ull * p->xRows * d.dm4 * kFloat),
                               Direction::Upload);
    p->weights = Mirror::create(device, checkBinding("weights", VkDeviceSize(w.total) * kFloat),
                                Direction::Upload);
    p->maskData = Mirror::create(device, checkBinding("mask", VkDeviceSize(p->maskWords) * 4),
                                 Direction::Upload);
    p->x = Mirror::create(device, checkBinding("inputs", VkDeviceSize(p->xRows) * d.dm4 * kFloat),
                          Direction::Readback);
    p->proj = Mirror::create(
        device,
        checkBinding("queries, keys and values", VkDeviceSize(d.projRows) * d.nqkv * kFloat),
        Direction::Readback);
    p->headOut =
        Mirror::create(device, checkBinding("head outputs", VkDeviceSize(d.tq) * d.nv * kFloat),
                       Direction::Readback);
    if (key.rotary) {
        // The rotary step reads the projections one float at a time (an R32F view).
        if (VkDeviceSize(d.projRows) * d.nqkv > limits.maxTexelBufferElements)
            throw core::BackendFault("Vulkan: the rotary step needs " +
                                     std::to_string(VkDeviceSize(d.projRows) * d.nqkv) +
                                     " texels in one binding; this device allows " +
                                     std::to_string(limits.maxTexelBufferElements));
        p->rot = Mirror::create(
            device,
            checkBinding("rotated queries and keys", VkDeviceSize(d.projRows) * 2 * d.nq * kFloat),
            key.keep ? Direction::Readback : Direction::None);
        p->rotaryTable = Mirror::create(
            device,
            checkBinding("rotary angles", VkDeviceSize(std::max(d.tq, d.tk)) * d.dk * kFloat),
            Direction::Upload);
    }
    if (key.bias)
        p->scoreBias = Mirror::create(
            device, checkBinding("score biases", VkDeviceSize(d.h) * d.tq * d.tk4 * kFloat),
            Direction::Upload);
    p->out = Mirror::create(device, checkBinding("outputs", VkDeviceSize(d.tq) * d.dm4 * kFloat),
                            Direction::Readback);
    p->status = Mirror::create(device, VkDeviceSize(d.h) * d.tq * 4, Direction::Readback);
    p->grid = Mirror::create(
        device,
        key.pooled()
            ? checkBinding("pooled weights", VkDeviceSize(d.h) * p->gridRows * p->gridCols * kFloat)
            : 16,
        key.pooled() ? Direction::Readback : Direction::None);
    if (key.score == core::ScoreKind::Bilinear || key.score == core::ScoreKind::Cosine)
        p->qm = Buffer::create(device, VkDeviceSize(d.tq) * d.nq * kFloat, MemoryKind::DeviceLocal);
    if (key.score == core::ScoreKind::Cosine)
        p->km =
            Buffer::create(device, checkBinding("unit keys", VkDeviceSize(d.tk4) * d.nq * kFloat),
                           MemoryKind::DeviceLocal);
    if (key.keep) {
        p->raw = Mirror::create(device, chunkBytes, Direction::Readback);
        p->scaled = Mirror::create(device, chunkBytes, Direction::Readback);
        p->masked = Mirror::create(device, chunkBytes, Direction::Readback);
    }
    p->chunkWeights =
        Mirror::create(device, chunkBytes, readWeights ? Direction::Readback : Direction::None);
    p->partials = Buffer::create(
        device, checkBinding("per-head outputs", VkDeviceSize(d.h) * rows * d.dm4 * kFloat),
        MemoryKind::DeviceLocal);

    // At most 5 dispatches before the chunks (X, two projections, rotary, Q M or unit rows) and
    // 9 per chunk (the score bias's two among them).
    p->indirect = Buffer::create(device, VkDeviceSize(5 + 9 * p->chunks) * 16,
                                 device.unifiedMemory() ? MemoryKind::Shared : MemoryKind::Upload);
    if (device.timestamps()) {
        std::uint32_t total = 0;
        for (int s = 0, n = p->multiSubmit ? p->chunks : 1; s < n; ++s)
            total += queriesPerSubmission(*p, s);
        p->queries = TimestampQueries::create(device, total);
    }
    clearBuffers(*p);
    plan = std::move(p); // recorded by upload(), against the weights buffer it chooses
    ++records;
}

// Zeroes every buffer once per plan: the padding of every padded matrix must hold zeros, and
// nothing but the host's first upload writes the padding of the upload buffers.
void VulkanBackend::Impl::clearBuffers(Plan& p)
{
    VkCommandBuffer cb = commands.allocate();
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
    std::vector<const Buffer*> all = {&p.params, &p.qm, &p.km, &p.partials, &p.indirect};
    for (const Mirror* m :
         {&p.inputs, &p.weights, &p.maskData, &p.x, &p.proj, &p.headOut, &p.out, &p.status, &p.grid,
          &p.raw, &p.scaled, &p.masked, &p.chunkWeights, &p.rot, &p.rotaryTable, &p.scoreBias}) {
        all.push_back(&m->device);
        all.push_back(&m->staging);
    }
    for (const Buffer* b : all)
        if (*b)
            vkCmdFillBuffer(cb, b->handle(), 0, VK_WHOLE_SIZE, 0);
    // The fills -> the host's first writes into mapped memory after the fence.
    VkMemoryBarrier memory{};
    memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    memory.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    memory.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &memory, 0, nullptr, 0, nullptr);
    check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    commands.submitAndWait(cb);
}

std::shared_ptr<core::AttentionResult>
VulkanBackend::Impl::run(std::shared_ptr<const core::Problem> problem,
                         const core::ComputeOptions& requested)
{
    const auto start = Clock::now();
    const core::Problem& pr = *problem;
    pr.validate();
    if (!pr.cross && pr.keyCount() != pr.queryCount())
        throw core::Error("self-attention needs as many keys as queries");

    auto result = std::make_shared<core::AttentionResult>();
    result->problem = problem;
    result->backend = "Vulkan";
    result->device = info.name;
    const core::ComputeOptions options = core::checkMemory(pr, requested, result->diagnostics);

    PlanKey key;
    key.tq = pr.queryCount();
    key.tk = pr.keyCount();
    key.dModel = pr.weights->dModel;
    key.dK = pr.weights->dK;
    key.dV = pr.weights->dV;
    key.heads = pr.weights->headCount();
    key.score = pr.score;
    key.normalization = pr.normalization;
    key.keep = options.keepIntermediates;
    key.cross = pr.cross;
    key.custom = !pr.mask.customCells.empty();
    key.rotary = pr.rotary.enabled();
    key.bias = pr.scoreBias != nullptr;
    std::tie(key.rowBlock, key.colBlock) =
        core::poolBlocks(key.tq, key.tk, options.viewRows, options.viewCols);
    key.pool = options.pool;
    if (!plan || plan->key != key)
        buildPlan(key);
    Plan& p = *plan;
    const Dims& d = p.dims;
    upload(pr);

    const int h = key.heads;
    const int tq = key.tq;
    const int tk = key.tk;
    const int dk = key.dK;
    const int dv = key.dV;
    const bool pooled = key.pooled();
    result->pooling.pooled = pooled;
    result->pooling.rowBlock = key.rowBlock;
    result->pooling.colBlock = key.colBlock;
    result->pooling.mode = key.pool;
    result->intermediatesKept = key.keep;
    result->heads.resize(std::size_t(h));
    for (int z = 0; z < h; ++z) {
        core::HeadResult& head = result->heads[std::size_t(z)];
        head.enabled = pr.weights->heads[std::size_t(z)].enabled;
        if (!pooled)
            head.weights.resize(tq, tk);
        if (key.keep) {
            head.rawScores.resize(tq, tk);
            head.scaledScores.resize(tq, tk);
            head.maskedScores.resize(tq, tk);
        }
    }

    std::vector<core::StageTime> stages;
    auto addStage = [&stages](const std::string& name, double ms) {
        for (core::StageTime& s : stages)
            if (s.stage == name) {
                s.milliseconds += ms;
                return;
            }
        stages.push_back({name, ms});
    };
    for (const Submission& sub : p.current->submissions) {
        commands.submitAndWait(sub.commands);
        if (device.timestamps() && sub.queryCount > 0) {
            const auto ticks = p.queries.read(sub.firstQuery, sub.queryCount);
            for (const StageMark& mark : sub.stages)
                addStage(mark.name, double(p.queries.elapsed(ticks[mark.begin - sub.firstQuery],
                                                             ticks[mark.end - sub.firstQuery])) *
                                        p.queries.millisecondsPerTick());
        }
        // Chunk matrices hold only this submission's chunk (one chunk per submission whenever
        // they are read).
        if (key.keep || !pooled) {
            const int c = sub.firstChunk;
            const int r0 = c * p.rowsPerChunk;
            const int rows = p.chunkRows(c);
            for (int z = 0; z < h; ++z) {
                core::HeadResult& head = result->heads[std::size_t(z)];
                const std::size_t at = std::size_t(z) * p.headStride();
                if (!pooled)
                    copyRows(head.weights.row(r0).data(), p.chunkWeights.floats() + at, rows, tk,
                             p.rowStride());
                if (key.keep) {
                    copyRows(head.rawScores.row(r0).data(), p.raw.floats() + at, rows, tk,
                             p.rowStride());
                    copyRows(head.scaledScores.row(r0).data(), p.scaled.floats() + at, rows, tk,
                             p.rowStride());
                    copyRows(head.maskedScores.row(r0).data(), p.masked.floats() + at, rows, tk,
                             p.rowStride());
                }
            }
        }
    }

    p.last = problem; // every stage's results on the device now belong to this problem

    // Full-size results, without the padding.
    using Strided = Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>;
    const float* x = p.x.floats();
    // X as the device summed it, stored where the problem does not hold it already (see
    // AttentionResult::queryInput).
    if (problem->hasPositions())
        result->storedQueryInput = Strided(x, tq, key.dModel, Eigen::OuterStride<>(d.dm4));
    if (key.cross)
        result->storedKeyInput =
            Strided(x + std::size_t(tq) * d.dm4, tk, key.dModel, Eigen::OuterStride<>(d.dm4));
    for (int z = 0; z < h; ++z) {
        core::HeadResult& head = result->heads[std::size_t(z)];
        const float* proj = p.proj.floats();
        head.Q = Strided(proj + z * d.dk4, tq, dk, Eigen::OuterStride<>(d.nqkv));
        head.K = Strided(proj + d.kOff + z * d.dk4, tk, dk, Eigen::OuterStride<>(d.nqkv));
        head.V = Strided(proj + d.vOff + z * d.dv4, tk, dv, Eigen::OuterStride<>(d.nqkv));
        head.output = Strided(p.headOut.floats() + z * d.dv4, tq, dv, Eigen::OuterStride<>(d.nv));
        if (key.rotary && key.keep) {
            // Q' and K', read back with the other intermediates.
            const float* rot = p.rot.floats();
            head.rotatedQ = Strided(rot + z * d.dk4, tq, dk, Eigen::OuterStride<>(2 * d.nq));
            head.rotatedK = Strided(rot + d.nq + z * d.dk4, tk, dk, Eigen::OuterStride<>(2 * d.nq));
        }
        if (pooled) {
            head.weights = Eigen::Map<const Matrix>(
                p.grid.floats() + std::size_t(z) * p.gridRows * p.gridCols, p.gridRows, p.gridCols);
            if (key.pool == core::PoolMode::Mean) {
                // The shader summed; divide by the cells each block has (edge blocks have fewer).
                for (int gr = 0; gr < p.gridRows; ++gr) {
                    const int nr = std::min(key.rowBlock, tq - gr * key.rowBlock);
                    for (int gc = 0; gc < p.gridCols; ++gc) {
                        const int nc = std::min(key.colBlock, tk - gc * key.colBlock);
                        head.weights(gr, gc) /= float(nr * nc);
                    }
                }
            }
        }
    }
    result->output = Strided(p.out.floats(), tq, key.dModel, Eigen::OuterStride<>(d.dm4));

    // Diagnostics from the normalize shader's row status words, as core's CpuBackend reports them.
    core::Diagnostics& diag = result->diagnostics;
    core::summarizeDiagnostics(*result, {p.status.words(), std::size_t(h) * std::size_t(tq)});
    diag.stages = std::move(stages);

    pipelines.saveIfChanged();
    diag.computeMilliseconds = millisecondsSince(start);
    return result;
}

// ---- VulkanBackend ------------------------------------------------------------------------------

std::unique_ptr<VulkanBackend> VulkanBackend::create(const std::string& selector)
{
    Instance instance = Instance::create();
    const std::vector<DeviceInfo> devices = enumerateDevices(instance);
    const DeviceInfo chosen = selectDevice(devices, effectiveDeviceSelector(selector));
    return std::unique_ptr<VulkanBackend>(
        new VulkanBackend(std::make_unique<Impl>(std::move(instance), chosen)));
}

VulkanBackend::VulkanBackend(std::unique_ptr<Impl> impl)
    : m(std::move(impl)), m_blockOps(std::make_unique<VulkanBlockOps>(
                              m->device, m->cache, m->variant, m->mutex, m->weights))
{
}

core::BlockOps& VulkanBackend::blockOps()
{
    return *m_blockOps;
}

const WeightCache& VulkanBackend::weightCache() const
{
    return m->weights;
}

VulkanBackend::~VulkanBackend() = default;

std::string VulkanBackend::deviceName() const
{
    return m->info.name;
}

const DeviceInfo& VulkanBackend::device() const
{
    return m->info;
}

ShaderVariant VulkanBackend::variant() const
{
    return m->variant;
}

int VulkanBackend::validationMessages() const
{
    return m->instance.validationMessages();
}

bool VulkanBackend::validationEnabled() const
{
    return m->instance.validationEnabled();
}

bool VulkanBackend::pipelineCacheLoaded() const
{
    return m->cache.loadedFromDisk();
}

int VulkanBackend::recordCount() const
{
    return m->records;
}

std::shared_ptr<const core::AttentionResult>
VulkanBackend::compute(std::shared_ptr<const core::Problem> problem,
                       const core::ComputeOptions& options)
{
    std::lock_guard lock(m->mutex);
    try {
        return m->run(std::move(problem), options);
    } catch (const VulkanError&) {
        // The plan may be half-recorded or its device lost: start from scratch next time.
        m->plan.reset();
        throw;
    }
}

} // namespace attn::gpu
