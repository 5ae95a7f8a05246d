#include "vulkan_backend.h"

#include "buffer.h"
#include "command_context.h"
#include "compute_pipeline.h"
#include "core/diagnostics.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/pooling.h"
#include "descriptor_pool.h"
#include "device.h"
#include "instance.h"
#include "model/vulkan_block_ops.h"
#include "model/weight_cache.h"
#include "pipeline_cache.h"
#include "shader_interface.h"
#include "timestamp_queries.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string_view>
#include <tuple>

namespace attn::gpu {
namespace {

using core::Matrix;
using Clock = std::chrono::steady_clock;
constexpr VkDeviceSize kFloat = sizeof(float);

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::uint32_t ceilDiv(std::uint64_t a, std::uint64_t b)
{
    return std::uint32_t((a + b - 1) / b);
}

// Every dimension the shaders see is padded to whole vec4s (with zeros, which change no sum).
std::uint32_t pad4(std::uint32_t n)
{
    return (n + 3) & ~3u;
}

// gemm.comp's constant_id 2..6 and 10 (the others follow from the variant).
struct GemmConfig
{
    bool transposedB = false;
    std::uint32_t op = 0; // 0 dot (cosine: of unit rows), 1 additive
    bool bias = false;
    bool maskSkip = false;
    bool keyRange = false;
    std::uint32_t skip = 0; // 0 never, 1 by column, 2 by batch
};

// ---- Buffers ---------------------------------------------------------------------------------

enum class Direction { None, Upload, Readback };

// A device buffer and, on a device that does not share the host's memory, its host staging
// twin. floats() is where the CPU reads or writes either way.
struct Mirror
{
    Buffer device;
    Buffer staging;

    static Mirror create(const Device& d, VkDeviceSize bytes, Direction direction)
    {
        Mirror m;
        if (direction == Direction::None) {
            m.device = Buffer::create(d, bytes, MemoryKind::DeviceLocal);
        } else if (d.unifiedMemory()) {
            m.device = Buffer::create(d, bytes, MemoryKind::Shared);
        } else {
            m.device = Buffer::create(d, bytes, MemoryKind::DeviceLocal);
            m.staging = Buffer::create(d, bytes,
                                       direction == Direction::Upload ? MemoryKind::Upload
                                                                      : MemoryKind::Readback);
        }
        return m;
    }
    float* floats() const { return staging ? staging.floats() : device.floats(); }
    std::uint32_t* words() const { return staging ? staging.words() : device.words(); }
};

// ---- The recorded plan for one shape ------------------------------------------------------

struct PlanKey
{
    int tq = 0, tk = 0, dModel = 0, dK = 0, dV = 0, heads = 0;
    core::ScoreKind score = core::ScoreKind::Dot;
    core::Normalization normalization = core::Normalization::Softmax;
    bool keep = false;
    bool cross = false;
    bool custom = false;
    bool rotary = false;
    int rowBlock = 1;
    int colBlock = 1;
    core::PoolMode pool = core::PoolMode::Mean;

    bool operator==(const PlanKey&) const = default;
    bool pooled() const { return rowBlock > 1 || colBlock > 1; }
};

// The padded sizes the shaders work with (every one a multiple of 4).
struct Dims
{
    std::uint32_t h, tq, tk, dm, dk, dv; // true sizes
    std::uint32_t dm4, dk4, dv4;         // padded widths
    std::uint32_t tk4;                   // the score row stride
    std::uint32_t nq, nkv, nv;           // widths of all heads' Q, [K | V] and head outputs
    std::uint32_t nqkv, kOff, vOff; // the projection buffer [Q | K | V]: width, K and V columns
    std::uint32_t projRows;         // its rows: queries, keys padded to 4

    explicit Dims(const PlanKey& k)
        : h(std::uint32_t(k.heads)), tq(std::uint32_t(k.tq)), tk(std::uint32_t(k.tk)),
          dm(std::uint32_t(k.dModel)), dk(std::uint32_t(k.dK)), dv(std::uint32_t(k.dV)),
          dm4(pad4(dm)), dk4(pad4(dk)), dv4(pad4(dv)), tk4(pad4(tk)), nq(h * dk4),
          nkv(h * (dk4 + dv4)), nv(h * dv4), nqkv(nq + nkv), kOff(nq), vOff(2 * nq),
          projRows(std::max(tq, tk4))
    {
    }
};

// Offsets (in floats, multiples of 4) of each part of the packed weight buffer.
struct WeightLayout
{
    std::uint32_t wqkv = 0, bqkv = 0, bilinear = 0, additive = 0, wo = 0, bo = 0, total = 0;
};

// Per head, which of the packed weights differ between two ModelWeights (all, against none).
struct HeadChanges
{
    bool wq = true, wk = true, wv = true, bilinear = true, additive = true, wo = true;
};

struct WeightChanges
{
    std::vector<HeadChanges> heads;
    bool bo = true;

    // Nothing of the one is in the other: a different weight set, not an edit of it.
    bool everything() const
    {
        for (const HeadChanges& c : heads)
            if (!c.wq || !c.wk || !c.wv || !c.wo)
                return false;
        return true;
    }
};

struct StageMark
{
    std::string name;
    std::uint32_t begin;
    std::uint32_t end;
};

// One vkCmdDispatchIndirect: its full size, and the head bits (or kAlways / kInputs) that
// decide per compute whether it runs at all. A dispatch of 0 workgroups costs lavapipe a
// microsecond, an early-returning one 15-40.
constexpr std::uint32_t kAlways = 0;
constexpr std::uint32_t kInputs = 1u << 30;

struct IndirectSlot
{
    std::uint32_t groups[3];
    std::uint32_t when;
};

struct Submission
{
    VkCommandBuffer commands = VK_NULL_HANDLE;
    int firstChunk = 0;
    int lastChunk = 0; // exclusive
    std::uint32_t firstQuery = 0;
    std::uint32_t queryCount = 0;
    std::vector<StageMark> stages;
};

struct Plan
{
    PlanKey key;
    Dims dims;
    int rowsPerChunk = 0;
    int chunks = 0;
    int gridRows = 0;
    int gridCols = 0;
    bool multiSubmit = false;
    WeightLayout weightLayout;
    std::uint32_t xRows = 0;         // Tq, plus Tk for cross-attention
    std::uint32_t paddingOffset = 0; // in the mask buffer (uint words)
    std::uint32_t customOffset = 0;
    std::uint32_t customWords = 0;
    std::uint32_t maskWords = 0;

    Buffer params;
    Mirror inputs, weights, maskData;
    Mirror x, proj, headOut, out, status, grid;
    Mirror rot;         // rotary: [Q' | K'] per row, each head's d_k4 columns side by side
    Mirror rotaryTable; // rotary: per position and pair (cos, sin)
    Buffer indirect;    // VkDispatchIndirectCommand per dispatch, 16 bytes apart
    std::vector<IndirectSlot> dispatches;
    Buffer qm;       // Q M (bilinear) or Q with unit rows (cosine)
    Buffer km;       // K with unit rows (cosine)
    Buffer partials; // [head][chunk row][d_model4]: H_h W_O,h
    Mirror raw, scaled, masked, chunkWeights;
    TimestampQueries queries;

    // Command buffers recorded against one weights buffer: the plan's own (id 0) or a cached
    // model layer's (its WeightCache id). Every recording has the same dispatches.
    struct Recording
    {
        DescriptorPool descriptors;
        std::vector<Submission> submissions;
    };
    std::map<std::uint64_t, Recording> recordings;
    const Recording* current = nullptr; // what this compute submits
    // The weights packed in the own buffer (`weights`), for the next edit's incremental write.
    std::shared_ptr<const core::ModelWeights> ownContent;

    // What the last successful compute left on the device (every stage's results stay valid
    // while nothing they depend on changes; only a single-chunk plan keeps them all).
    std::shared_ptr<const core::Problem> last;
    Params lastParams{};
    std::vector<std::uint32_t> lastMask;

    explicit Plan(const PlanKey& k) : key(k), dims(k) {}
    bool incremental() const { return chunks == 1; }
    int chunkRows(int chunk) const { return std::min(rowsPerChunk, key.tq - chunk * rowsPerChunk); }
    std::uint32_t rowStride() const { return dims.tk4; }
    std::uint32_t headStride() const { return std::uint32_t(rowsPerChunk) * rowStride(); }
};

// Timestamps written by submission s: one at the start, one after each stage.
std::uint32_t queriesPerSubmission(const Plan& p, int s)
{
    const int chunks = p.multiSubmit ? 1 : p.chunks;
    const std::uint32_t perChunk = p.key.pooled() ? 4 : 3;
    return 1 + (s == 0 ? 1 : 0) + std::uint32_t(chunks) * perChunk;
}

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

// Copies a rows x cols block of row-major floats with a source row stride.
void copyRows(float* to, const float* from, int rows, int cols, std::size_t fromStride)
{
    for (int r = 0; r < rows; ++r)
        std::memcpy(to + std::size_t(r) * cols, from + std::size_t(r) * fromStride,
                    std::size_t(cols) * sizeof(float));
}

} // namespace

// ---- Implementation ---------------------------------------------------------------------------

static_assert(kMaxHeadBits >= core::kMaxHeads, "one HEAD_* word per head");

struct VulkanBackend::Impl
{
    Instance instance;
    DeviceInfo info;
    Device device;
    PipelineCache cache;
    CommandContext commands;
    ShaderVariant variant = ShaderVariant::Registers;
    std::map<std::string, std::unique_ptr<ComputePipeline>> pipelines;
    bool pipelinesAdded = false;
    std::unique_ptr<Plan> plan;
    int records = 0;
    std::mutex mutex;
    // Device copies of model weights, shared by the block operations; destroyed before the
    // device (members go in reverse order).
    WeightCache weights;

    Impl(Instance&& i, const DeviceInfo& d)
        : instance(std::move(i)), info(d), device(Device::create(d)),
          cache(PipelineCache::create(device)), commands(CommandContext::create(device)),
          variant(variantFor(d)), weights(device, WeightCache::defaultBudget(device))
    {
    }
    ~Impl()
    {
        device.waitIdle();
        plan.reset();
        pipelines.clear();
        cache.save();
    }

    const ComputePipeline& pipeline(const std::string& shader, const std::vector<Binding>& bindings,
                                    std::uint32_t pushBytes,
                                    const std::vector<std::uint32_t>& constants);
    const ComputePipeline& gemmPipeline(const GemmConfig& config);
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

    void buildPlan(const PlanKey& key);
    void record(Plan& p, Plan::Recording& r, const Buffer& weightsBuffer, bool ownWeights);
    void clearBuffers(Plan& p);
    void upload(const core::Problem& problem);
    WeightChanges compareWeights(const core::ModelWeights& now,
                                 const core::ModelWeights* before) const;
    void packWeights(float* to, const core::ModelWeights& mw, const WeightChanges& changes) const;
    void selectWeights(const core::Problem& problem, const core::Problem* previous,
                       const WeightChanges& changes);
    std::shared_ptr<core::AttentionResult> run(std::shared_ptr<const core::Problem> problem,
                                               const core::ComputeOptions& options);
};

const ComputePipeline& VulkanBackend::Impl::pipeline(const std::string& shader,
                                                     const std::vector<Binding>& bindings,
                                                     std::uint32_t pushBytes,
                                                     const std::vector<std::uint32_t>& constants)
{
    std::string key = shader;
    for (std::uint32_t c : constants)
        key.append(1, ':').append(std::to_string(c));
    auto found = pipelines.find(key);
    if (found == pipelines.end()) {
        auto created = std::make_unique<ComputePipeline>(
            ComputePipeline::create(device, cache, shader, bindings, pushBytes, constants));
        found = pipelines.emplace(key, std::move(created)).first;
        pipelinesAdded = true;
    }
    return *found->second;
}

constexpr Binding kUniform{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
constexpr Binding kStorage{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
constexpr Binding kTexels{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_FORMAT_R32G32B32A32_SFLOAT};
constexpr Binding kBits{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_FORMAT_R32_UINT};
constexpr Binding kScalars{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_FORMAT_R32_SFLOAT};

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
    return pipeline("gemm", {kUniform, kTexels, kTexels, kStorage, kTexels}, sizeof(GemmPush),
                    constants);
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
    // 7 per chunk.
    p->indirect = Buffer::create(device, VkDeviceSize(5 + 7 * p->chunks) * 16,
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
          &p.raw, &p.scaled, &p.masked, &p.chunkWeights, &p.rot, &p.rotaryTable}) {
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

void VulkanBackend::Impl::record(Plan& p, Plan::Recording& r, const Buffer& weightsBuffer,
                                 bool ownWeights)
{
    p.dispatches.clear(); // every recording makes the same dispatches, in the same order
    const PlanKey& key = p.key;
    const Dims& d = p.dims;
    const WeightLayout& w = p.weightLayout;
    const bool bilinear = key.score == core::ScoreKind::Bilinear;
    const bool cosine = key.score == core::ScoreKind::Cosine;

    // Pipelines.
    const ComputePipeline& add =
        pipeline("add", {kUniform, kStorage, kStorage}, sizeof(AddPush), {64});
    const ComputePipeline& projection = gemmPipeline({false, 0, true, false, false, 1});
    const ComputePipeline& perHead = gemmPipeline({false, 0, false, false, false, 2});
    const std::uint32_t scoreOp = key.score == core::ScoreKind::Additive ? 1u : 0u;
    const ComputePipeline& unitRows =
        pipeline("unit_rows", {kUniform, kTexels, kStorage, kStorage}, sizeof(UnitPush), {64});
    // Without kept intermediates, cells that the causal/window rules mask are never computed.
    const ComputePipeline& scores = gemmPipeline({true, scoreOp, false, !key.keep, false, 2});
    const ComputePipeline& weighted = gemmPipeline({false, 0, false, false, true, 2});
    const ComputePipeline& sumHeads =
        pipeline("sum_heads", {kUniform, kTexels, kTexels, kStorage}, sizeof(SumPush), {64});
    const bool registers = variant == ShaderVariant::Registers;
    const ComputePipeline& normalize =
        pipeline(registers ? "normalize" : "normalize_subgroup",
                 {kUniform, kTexels, kStorage, kStorage, kBits, kStorage}, sizeof(NormalizePush),
                 {normalizeWorkgroup(), std::uint32_t(key.normalization), key.keep ? 1u : 0u});
    const ComputePipeline& pool = pipeline("pool", {kUniform, kTexels, kStorage}, sizeof(PoolPush),
                                           {64, key.pool == core::PoolMode::Max ? 1u : 0u});
    const ComputePipeline* rotary =
        key.rotary ? &pipeline("rotary", {kUniform, kScalars, kScalars, kStorage},
                               sizeof(RotaryPush), {64})
                   : nullptr;

    // Descriptor sets (one per kind of dispatch; chunks differ only in push constants).
    // The scaled scores: their own buffer when kept, else the weights' (normalised in place).
    const Buffer& scaledScores = key.keep ? p.scaled.device : p.chunkWeights.device;
    const VkDescriptorSet setAdd =
        r.descriptors.allocate(add, {&p.params, &p.inputs.device, &p.x.device});
    const VkDescriptorSet setProj = r.descriptors.allocate(
        projection, {&p.params, &p.x.device, &weightsBuffer, &p.proj.device, &weightsBuffer});
    // With rotary positions the scores (and Q M, the unit rows) read the rotated [Q' | K'].
    const Buffer* qk = key.rotary ? &p.rot.device : &p.proj.device;
    const std::uint32_t qkStride = key.rotary ? 2 * d.nq : d.nqkv; // floats per row
    const std::uint32_t qkKeys = key.rotary ? d.nq : d.kOff;       // where K starts in a row
    const VkDescriptorSet setRotary =
        key.rotary ? r.descriptors.allocate(
                         *rotary, {&p.params, &p.proj.device, &p.rotaryTable.device, &p.rot.device})
                   : VK_NULL_HANDLE;
    const VkDescriptorSet setQM =
        bilinear ? r.descriptors.allocate(perHead,
                                          {&p.params, qk, &weightsBuffer, &p.qm, &weightsBuffer})
                 : VK_NULL_HANDLE;
    const VkDescriptorSet setUnit =
        cosine ? r.descriptors.allocate(unitRows, {&p.params, qk, &p.qm, &p.km}) : VK_NULL_HANDLE;
    const Buffer* left = bilinear || cosine ? &p.qm : qk;
    const Buffer* right = cosine ? &p.km : qk;
    const VkDescriptorSet setScores =
        r.descriptors.allocate(scores, {&p.params, left, right, &scaledScores, &weightsBuffer});
    const VkDescriptorSet setRawScores =
        key.keep ? r.descriptors.allocate(scores,
                                          {&p.params, left, right, &p.raw.device, &weightsBuffer})
                 : VK_NULL_HANDLE;
    const VkDescriptorSet setNormalize = r.descriptors.allocate(
        normalize, {&p.params, &scaledScores, key.keep ? &p.masked.device : &p.chunkWeights.device,
                    &p.chunkWeights.device, &p.maskData.device, &p.status.device});
    const VkDescriptorSet setPV =
        r.descriptors.allocate(weighted, {&p.params, &p.chunkWeights.device, &p.proj.device,
                                          &p.headOut.device, &weightsBuffer});
    const VkDescriptorSet setWo = r.descriptors.allocate(
        perHead, {&p.params, &p.headOut.device, &weightsBuffer, &p.partials, &weightsBuffer});
    const VkDescriptorSet setSum =
        r.descriptors.allocate(sumHeads, {&p.params, &p.partials, &weightsBuffer, &p.out.device});
    const VkDescriptorSet setPool =
        key.pooled()
            ? r.descriptors.allocate(pool, {&p.params, &p.chunkWeights.device, &p.grid.device})
            : VK_NULL_HANDLE;

    // Every dispatch is indirect: the host writes its size before each submit, 0 when none of
    // the heads it serves changed (see upload()).
    auto dispatch = [&p](VkCommandBuffer cb, const ComputePipeline& pipe, VkDescriptorSet set,
                         const void* push, std::uint32_t bytes, std::uint32_t gx, std::uint32_t gy,
                         std::uint32_t gz, std::uint32_t when) {
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe.handle());
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe.layout(), 0, 1, &set, 0,
                                nullptr);
        vkCmdPushConstants(cb, pipe.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, bytes, push);
        const std::uint32_t slot = std::uint32_t(p.dispatches.size());
        p.dispatches.push_back({{std::max(1u, gx), std::max(1u, gy), std::max(1u, gz)}, when});
        vkCmdDispatchIndirect(cb, p.indirect.handle(), VkDeviceSize(slot) * 16);
    };
    auto gemm = [&](VkCommandBuffer cb, const ComputePipeline& pipe, VkDescriptorSet set,
                    const GemmPush& push, std::uint32_t batch, std::uint32_t when) {
        dispatch(cb, pipe, set, &push, sizeof push, ceilDiv(push.N, gemmTileCols()),
                 ceilDiv(push.M, gemmTileRows()), batch, when);
    };
    auto barrier = [](VkCommandBuffer cb, VkPipelineStageFlags src, VkAccessFlags srcAccess,
                      VkPipelineStageFlags dst, VkAccessFlags dstAccess) {
        VkMemoryBarrier memory{};
        memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
        memory.srcAccessMask = srcAccess;
        memory.dstAccessMask = dstAccess;
        vkCmdPipelineBarrier(cb, src, dst, 0, 1, &memory, 0, nullptr, 0, nullptr);
    };
    // Each stage's writes are visible to the next stage's reads (and ordered before its writes).
    auto computeBarrier = [&](VkCommandBuffer cb) {
        barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT,
                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    };
    auto copyWhole = [](VkCommandBuffer cb, const Buffer& from, const Buffer& to) {
        const VkBufferCopy region{0, 0, std::min(from.size(), to.size())};
        vkCmdCopyBuffer(cb, from.handle(), to.handle(), 1, &region);
    };

    std::uint32_t nextQuery = 0;
    const int submissions = p.multiSubmit ? p.chunks : 1;
    for (int s = 0; s < submissions; ++s) {
        Submission sub;
        sub.firstChunk = p.multiSubmit ? s : 0;
        sub.lastChunk = p.multiSubmit ? s + 1 : p.chunks;
        const bool first = s == 0;
        const bool last = s == submissions - 1;
        sub.commands = commands.allocate();
        VkCommandBuffer cb = sub.commands;
        VkCommandBufferBeginInfo begin{};
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");

        const bool timed = device.timestamps();
        std::uint32_t lastQuery = 0;
        sub.firstQuery = nextQuery;
        auto stamp = [&](const char* stage) {
            if (!timed)
                return;
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, p.queries.handle(),
                                nextQuery);
            if (stage)
                sub.stages.push_back({stage, lastQuery, nextQuery});
            lastQuery = nextQuery++;
        };
        if (timed)
            vkCmdResetQueryPool(cb, p.queries.handle(), sub.firstQuery, queriesPerSubmission(p, s));

        if (first) {
            // Host writes (inputs, weights, mask, params) -> the shaders that read them.
            if (device.unifiedMemory()) {
                barrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
                        VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_ACCESS_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_SHADER_READ_BIT |
                            VK_ACCESS_UNIFORM_READ_BIT);
            } else {
                // Host writes -> transfer reads of the staging buffers; the copies -> shader reads.
                barrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT |
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT |
                            VK_ACCESS_UNIFORM_READ_BIT);
                // The own weights go up with every compute; a cached layer's are on the device.
                for (const Mirror* m : {&p.inputs, &p.weights, &p.maskData, &p.rotaryTable})
                    if (m->staging && (m != &p.weights || ownWeights))
                        copyWhole(cb, m->staging, m->device);
            }
            if (key.pooled() && !p.incremental()) {
                // The grid accumulates over chunks: 0 for sums, -inf for maxima.
                const std::uint32_t fill = key.pool == core::PoolMode::Max ? 0xff800000u : 0u;
                vkCmdFillBuffer(cb, p.grid.device.handle(), 0, VK_WHOLE_SIZE, fill);
            }
            if (!device.unifiedMemory() || (key.pooled() && !p.incremental()))
                barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
            stamp(nullptr);

            // X = E + P.
            const AddPush addPush{p.xRows * d.dm4 / 4, p.xRows * d.dm4 / 4};
            dispatch(cb, add, setAdd, &addPush, sizeof addPush,
                     std::min(ceilDiv(addPush.count, 64 * 4), 65535u), 1, 1, kInputs);
            computeBarrier(cb);

            // [Q | K | V] = X [W_q | W_k | W_v] + [b_q | b_k | b_v] for all heads at once: one
            // product for self-attention, two for cross-attention (queries and keys differ).
            GemmPush gp;
            gp.K = d.dm4;
            gp.lda = d.dm4, gp.ldb = d.nqkv, gp.ldc = d.nqkv;
            gp.skipWidthA = d.dk4, gp.skipWidthB = d.dv4;
            gp.skipBitA = kHeadQ, gp.skipBitB = kHeadK, gp.skipBitC = kHeadV;
            if (!key.cross) {
                gp.M = d.tq, gp.N = d.nqkv;
                gp.offB = w.wqkv, gp.offAux = w.bqkv;
                gp.skipSplit1 = d.kOff, gp.skipSplit2 = d.vOff;
                gemm(cb, projection, setProj, gp, 1, kHeadQ | kHeadK | kHeadV);
            } else {
                GemmPush gq = gp;
                gq.M = d.tq, gq.N = d.nq;
                gq.offB = w.wqkv, gq.offAux = w.bqkv;
                gq.skipSplit1 = gq.skipSplit2 = d.nq;
                gemm(cb, projection, setProj, gq, 1, kHeadQ);
                GemmPush gkv = gp;
                gkv.M = d.tk, gkv.N = d.nkv;
                gkv.offA = d.tq * d.dm4;
                gkv.offB = w.wqkv + d.kOff, gkv.offC = d.kOff, gkv.offAux = w.bqkv + d.kOff;
                gkv.skipSplit1 = 0, gkv.skipSplit2 = d.vOff - d.kOff;
                gemm(cb, projection, setProj, gkv, 1, kHeadK | kHeadV);
            }
            computeBarrier(cb);
            if (key.rotary) {
                // Q' and K': every head's rows turned by their positions' angles (RoFormer eq. 34).
                const RotaryPush rp{d.dk / 2, d.dk4, d.nqkv, d.kOff, 2 * d.nq, d.nq};
                const std::uint64_t pairs = std::uint64_t(std::max(d.tq, d.tk)) * (d.dk / 2);
                dispatch(cb, *rotary, setRotary, &rp, sizeof rp,
                         std::min(ceilDiv(pairs, 64), 4096u), d.h, 2, kHeadQ | kHeadK);
                computeBarrier(cb);
            }
            if (bilinear) {
                // q_i^T M k_j = (Q M)_i . k_j (Luong et al. 2015 "general"), per head.
                GemmPush gm;
                gm.M = d.tq, gm.N = d.dk4, gm.K = d.dk4;
                gm.lda = qkStride, gm.ldb = d.dk4, gm.ldc = d.nq;
                gm.offB = w.bilinear;
                gm.strideA = d.dk4, gm.strideB = d.dk4 * d.dk4, gm.strideC = d.dk4;
                gm.skipBitA = kHeadQM;
                gemm(cb, perHead, setQM, gm, d.h, kHeadQM);
                computeBarrier(cb);
            }
            if (cosine) {
                // cos = q.k / (|q| |k|), 0 where either is zero: unit rows first, as core does.
                const UnitPush up{d.dk4 / 4, qkStride / 4, qkKeys / 4, d.nq / 4};
                dispatch(cb, unitRows, setUnit, &up, sizeof up, ceilDiv(std::max(d.tq, d.tk), 64),
                         d.h, 2, kHeadQM | kHeadK);
                computeBarrier(cb);
            }
            stamp("embed + project");
        } else {
            stamp(nullptr);
        }

        for (int c = sub.firstChunk; c < sub.lastChunk; ++c) {
            const std::uint32_t r0 = std::uint32_t(c * p.rowsPerChunk);
            const std::uint32_t rows = std::uint32_t(p.chunkRows(c));

            // Scaled scores of every head for rows [r0, r0 + rows): S = (s Q_h) K_h^T (or the
            // additive or cosine score), into the chunk buffer [head][row][key].
            GemmPush gs;
            gs.M = rows, gs.N = d.tk, gs.K = d.dk4;
            gs.lda = bilinear || cosine ? d.nq : qkStride, gs.ldb = cosine ? d.nq : qkStride,
            gs.ldc = p.rowStride();
            gs.offA = r0 * gs.lda, gs.offB = cosine ? 0 : qkKeys;
            gs.offAux = w.additive;
            gs.strideA = d.dk4, gs.strideB = d.dk4, gs.strideC = p.headStride(),
            gs.strideAux = d.dk4;
            gs.rowBase = std::int32_t(r0);
            gs.skipBitA = kHeadScores;
            gs.scaled = 1;
            gemm(cb, scores, setScores, gs, d.h, kHeadScores);
            if (key.keep) {
                gs.scaled = 0; // and the raw scores, kept for the pipeline view
                gemm(cb, scores, setRawScores, gs, d.h, kHeadScores);
            }
            computeBarrier(cb);

            const NormalizePush np{rows,          std::int32_t(r0), p.headStride(),
                                   p.rowStride(), p.paddingOffset,  p.customOffset,
                                   p.customWords};
            if (registers)
                dispatch(cb, normalize, setNormalize, &np, sizeof np,
                         ceilDiv(rows, normalizeWorkgroup()), d.h, 1, kHeadScores);
            else
                dispatch(cb, normalize, setNormalize, &np, sizeof np, rows, d.h, 1, kHeadScores);
            computeBarrier(cb);
            stamp("scores + mask + normalize");

            // Head outputs b_i = sum_j alpha_ij v_j (seed 001) for these rows.
            GemmPush gv;
            gv.M = rows, gv.N = d.dv4, gv.K = d.tk;
            gv.lda = p.rowStride(), gv.ldb = d.nqkv, gv.ldc = d.nv;
            gv.offB = d.vOff, gv.offC = r0 * d.nv;
            gv.strideA = p.headStride(), gv.strideB = d.dv4, gv.strideC = d.dv4;
            gv.rowBase = std::int32_t(r0);
            gv.skipBitA = kHeadOutput;
            gemm(cb, weighted, setPV, gv, d.h, kHeadOutput);
            stamp("weights x V");

            if (key.pooled()) {
                const std::uint32_t firstGridRow = r0 / std::uint32_t(key.rowBlock);
                const std::uint32_t lastGridRow = (r0 + rows - 1) / std::uint32_t(key.rowBlock);
                const PoolPush pp{rows,
                                  r0,
                                  d.tq,
                                  d.tk,
                                  std::uint32_t(key.rowBlock),
                                  std::uint32_t(key.colBlock),
                                  std::uint32_t(p.gridRows),
                                  std::uint32_t(p.gridCols),
                                  p.headStride(),
                                  p.rowStride(),
                                  firstGridRow,
                                  p.incremental() ? 0u : 1u};
                dispatch(cb, pool, setPool, &pp, sizeof pp, ceilDiv(std::uint32_t(p.gridCols), 64),
                         lastGridRow - firstGridRow + 1, d.h, kHeadScores);
                stamp("pool");
            }
            computeBarrier(cb);

            // Z = Cat[H_1 .. H_h] W^O + b_O (seed 004), as the sum over enabled heads of
            // H_h W_O,h (W_O,h: head h's d_v rows of W^O): an edit of one head redoes one product.
            GemmPush go;
            go.M = rows, go.N = d.dm4, go.K = d.dv4;
            go.lda = d.nv, go.ldb = d.dm4, go.ldc = d.dm4;
            go.offA = r0 * d.nv, go.offB = w.wo;
            go.strideA = d.dv4, go.strideB = d.dv4 * d.dm4,
            go.strideC = std::uint32_t(p.rowsPerChunk) * d.dm4;
            go.skipBitA = kHeadPartial;
            gemm(cb, perHead, setWo, go, d.h, kHeadPartial);
            computeBarrier(cb);
            const SumPush sp{
                rows * d.dm4 / 4, d.dm4 / 4, std::uint32_t(p.rowsPerChunk) * d.dm4 / 4, d.h, w.bo,
                r0 * d.dm4 / 4};
            dispatch(cb, sumHeads, setSum, &sp, sizeof sp, std::min(ceilDiv(sp.count, 64), 4096u),
                     1, 1, kAlways);
            // The next chunk overwrites the chunk buffers that this one's readers used.
            computeBarrier(cb);
            stamp("concat + W_O");
        }

        // Results -> the host.
        std::vector<const Mirror*> results;
        if (key.keep)
            results.insert(results.end(), {&p.raw, &p.scaled, &p.masked});
        if (!key.pooled())
            results.push_back(&p.chunkWeights);
        if (last)
            results.insert(results.end(), {&p.x, &p.proj, &p.headOut, &p.out, &p.status});
        if (last && key.rotary && key.keep)
            results.push_back(&p.rot);
        if (last && key.pooled())
            results.push_back(&p.grid);
        if (device.unifiedMemory()) {
            barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                    VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        } else {
            // Shader writes -> transfer reads; the copies -> host reads.
            barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                    VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
            for (const Mirror* m : results)
                copyWhole(cb, m->device, m->staging);
            barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        }
        check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
        sub.queryCount = nextQuery - sub.firstQuery;
        r.submissions.push_back(std::move(sub));
    }
}

// Bitwise equality (memcmp: an order of magnitude faster than Eigen's == here). Two empty
// matrices (no bias) are equal without memcmp: their data() is null, and memcmp on null is
// undefined even for 0 bytes (UBSan reports it).
template <typename A, typename B> bool sameFloats(const A& a, const B& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           (a.size() == 0 ||
            std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0);
}

WeightChanges VulkanBackend::Impl::compareWeights(const core::ModelWeights& mw,
                                                  const core::ModelWeights* before) const
{
    const PlanKey& key = plan->key;
    const Dims& d = plan->dims;
    WeightChanges changes;
    changes.heads.resize(d.h);
    if (!before || before->headCount() != mw.headCount())
        return changes; // all
    if (before == &mw) {
        changes.heads.assign(d.h, HeadChanges{false, false, false, false, false, false});
        changes.bo = false;
        return changes;
    }
    const bool bilinear = key.score == core::ScoreKind::Bilinear;
    const bool additive = key.score == core::ScoreKind::Additive;
    for (std::uint32_t z = 0; z < d.h; ++z) {
        const core::HeadWeights& head = mw.heads[z];
        const core::HeadWeights& was = before->heads[z];
        HeadChanges& c = changes.heads[z];
        c.wq = !sameFloats(head.Wq, was.Wq) || !sameFloats(head.bq, was.bq);
        c.wk = !sameFloats(head.Wk, was.Wk) || !sameFloats(head.bk, was.bk);
        c.wv = !sameFloats(head.Wv, was.Wv) || !sameFloats(head.bv, was.bv);
        c.bilinear = bilinear && !sameFloats(head.bilinear, was.bilinear);
        c.additive = additive && !sameFloats(head.wAdditive, was.wAdditive);
        // Head z's d_v rows of W^O, contiguous in the row-major matrix.
        const std::size_t woFloats = std::size_t(d.dv) * d.dm;
        c.wo = before->Wo.size() != mw.Wo.size() ||
               std::memcmp(mw.Wo.data() + z * woFloats, before->Wo.data() + z * woFloats,
                           woFloats * sizeof(float)) != 0;
    }
    changes.bo = !sameFloats(mw.bo, before->bo);
    return changes;
}

// The weights as the shaders read them (row-major, heads side by side, padded), into `wb`: only
// the parts that `changes` names are written (the rest, padding included, is left as it is).
void VulkanBackend::Impl::packWeights(float* wb, const core::ModelWeights& mw,
                                      const WeightChanges& changes) const
{
    const Dims& d = plan->dims;
    const WeightLayout& w = plan->weightLayout;
    const std::size_t dk = d.dk;
    const std::size_t dv = d.dv;
    auto bias = [](float* to, const core::RowVector& b, std::size_t n) {
        if (std::size_t(b.size()) == n)
            std::memcpy(to, b.data(), n * sizeof(float));
        else
            std::fill(to, to + n, 0.0f);
    };
    for (std::uint32_t z = 0; z < d.h; ++z) {
        const core::HeadWeights& head = mw.heads[z];
        const HeadChanges& c = changes.heads[z];
        for (std::uint32_t r = 0; r < d.dm; ++r) {
            float* row = wb + w.wqkv + std::size_t(r) * d.nqkv;
            if (c.wq)
                std::memcpy(row + z * d.dk4, head.Wq.row(r).data(), dk * sizeof(float));
            if (c.wk)
                std::memcpy(row + d.kOff + z * d.dk4, head.Wk.row(r).data(), dk * sizeof(float));
            if (c.wv)
                std::memcpy(row + d.vOff + z * d.dv4, head.Wv.row(r).data(), dv * sizeof(float));
        }
        if (c.wq)
            bias(wb + w.bqkv + z * d.dk4, head.bq, dk);
        if (c.wk)
            bias(wb + w.bqkv + d.kOff + z * d.dk4, head.bk, dk);
        if (c.wv)
            bias(wb + w.bqkv + d.vOff + z * d.dv4, head.bv, dv);
        if (c.bilinear && plan->key.score == core::ScoreKind::Bilinear)
            for (std::size_t r = 0; r < dk; ++r)
                std::memcpy(wb + w.bilinear + std::size_t(z) * d.dk4 * d.dk4 + r * d.dk4,
                            head.bilinear.row(Eigen::Index(r)).data(), dk * sizeof(float));
        if (c.additive && plan->key.score == core::ScoreKind::Additive)
            std::memcpy(wb + w.additive + z * d.dk4, head.wAdditive.data(), dk * sizeof(float));
        if (c.wo)
            for (std::size_t r = 0; r < dv; ++r)
                std::memcpy(wb + w.wo + (std::size_t(z) * d.dv4 + r) * d.dm4,
                            mw.Wo.row(Eigen::Index(z * dv + r)).data(),
                            std::size_t(d.dm) * sizeof(float));
    }
    if (changes.bo)
        bias(wb + w.bo, mw.bo, d.dm);
}

// Where this compute reads its weights from, recorded against it if it is new to the plan:
//  - a weight set the device cache holds (a model layer seen before): nothing is uploaded;
//  - a set that shares no matrix with the last compute's (another layer of a model, a new
//    seed): packed once into a new cache entry, which the next forward finds;
//  - otherwise an edit of the last set: the plan's own buffer, where only the matrices that
//    differ from what it holds are rewritten, so that an edit stays a small upload.
void VulkanBackend::Impl::selectWeights(const core::Problem& problem, const core::Problem* previous,
                                        const WeightChanges& changes)
{
    Plan& p = *plan;
    const Dims& d = p.dims;
    const core::ModelWeights& mw = *problem.weights;
    // The packed layout depends on the widths and on the score's extra weights.
    const std::uint32_t layout = 0x80000000u | (d.dk << 16) | (d.dv << 2) |
                                 (p.key.score == core::ScoreKind::Bilinear ? 1u : 0u) |
                                 (p.key.score == core::ScoreKind::Additive ? 2u : 0u);
    const WeightCache::Key cacheKey{&mw, d.h, d.dm, layout};
    const std::weak_ptr<const void> owner = problem.weights;
    WeightCache::Cached chosen = weights.find(cacheKey, 0, owner);
    if (!chosen) {
        // (`changes` is against the previous compute when the plan is incremental.)
        const bool fresh =
            !previous ||
            (p.incremental() ? changes : compareWeights(mw, previous->weights.get())).everything();
        if (fresh) {
            chosen = weights.get(
                cacheKey, 0, p.weightLayout.total,
                [&](float* to) { packWeights(to, mw, compareWeights(mw, nullptr)); }, owner);
        } else {
            const WeightChanges own = previous && p.ownContent.get() == previous->weights.get()
                                          ? changes
                                          : compareWeights(mw, p.ownContent.get());
            packWeights(p.weights.floats(), mw, own);
            p.ownContent = problem.weights;
        }
    }
    const std::uint64_t id = chosen ? chosen.id : 0;
    auto found = p.recordings.find(id);
    if (found == p.recordings.end()) {
        // Recordings of layers that left the cache are never submitted again: past a bound,
        // start over.
        if (p.recordings.size() >= 64) {
            p.recordings.clear();
            commands.reset();
        }
        found = p.recordings.emplace(id, Plan::Recording{}).first;
        found->second.descriptors = DescriptorPool::create(device, 13, 13 * 4, 13, 13 * 4);
        record(p, found->second, chosen ? *chosen.buffer : p.weights.device, !chosen);
    }
    p.current = &found->second;
}

void VulkanBackend::Impl::upload(const core::Problem& problem)
{
    Plan& p = *plan;
    const PlanKey& key = p.key;
    const Dims& d = p.dims;
    const core::ModelWeights& mw = *problem.weights;
    const bool bilinear = key.score == core::ScoreKind::Bilinear;
    const bool cosine = key.score == core::ScoreKind::Cosine;
    weights.beginOperation(); // the cached weights this compute reads stay while it runs

    // What changed since the last compute of this plan; everything when there is none.
    const std::shared_ptr<const core::Problem> previous =
        std::move(p.last); // cleared until this compute succeeds
    const core::Problem* old = p.incremental() ? previous.get() : nullptr;
    const bool all = old == nullptr;
    auto same = [](const auto& a, const auto& b) { return sameFloats(a, b); };

    bool anyPadding = false;
    for (int j = 0; j < key.tk; ++j)
        anyPadding = anyPadding || (std::size_t(j) < problem.keyIsPadding.size() &&
                                    problem.keyIsPadding[std::size_t(j)]);
    Params params{};
    params.scale = problem.scoreScale();
    params.fillValue = core::maskFillValue(problem.fill);
    params.fillExcludes = problem.fill == core::MaskFill::NegativeInfinity ? 1 : 0;
    params.causal = problem.mask.causal ? 1 : 0;
    params.window = problem.mask.window;
    params.windowCausal = problem.mask.windowCausal ? 1 : 0;
    params.usePadding = problem.mask.padding && anyPadding ? 1 : 0;
    params.useCustom = key.custom ? 1 : 0;
    params.queries = key.tq;
    params.keys = key.tk;

    // Padding bits per key, then custom cells as bit rows.
    std::vector<std::uint32_t> mask(p.maskWords, 0u);
    if (params.usePadding)
        for (int j = 0; j < key.tk; ++j)
            if (problem.keyIsPadding[std::size_t(j)])
                mask[p.paddingOffset + std::uint32_t(j) / 32] |= 1u << (j % 32);
    if (key.custom)
        for (const auto& [i, j] : problem.mask.customCells)
            if (i >= 0 && i < key.tq && j >= 0 && j < key.tk)
                mask[p.customOffset + std::size_t(i) * p.customWords + std::size_t(j) / 32] |=
                    1u << (j % 32);
    const bool maskChanged = all || mask != p.lastMask;
    if (maskChanged)
        std::copy(mask.begin(), mask.end(), p.maskData.words());
    const bool rulesChanged =
        all || maskChanged ||
        std::memcmp(&params, &p.lastParams, offsetof(Params, inputsChanged)) != 0;

    // [E_q; E_k | P_q; P_k], rows padded to d_model4 (the padding stays zero).
    const bool inputsChanged = all || !same(problem.queryEmbedding, old->queryEmbedding) ||
                               !same(problem.queryPosition, old->queryPosition) ||
                               (key.cross && (!same(problem.keyEmbedding, old->keyEmbedding) ||
                                              !same(problem.keyPosition, old->keyPosition)));
    if (inputsChanged) {
        float* in = p.inputs.floats();
        const std::size_t xFloats = std::size_t(p.xRows) * d.dm4;
        auto putRows = [&d](float* to, const Matrix& m) {
            for (Eigen::Index r = 0; r < m.rows(); ++r)
                std::memcpy(to + std::size_t(r) * d.dm4, m.row(r).data(),
                            std::size_t(d.dm) * sizeof(float));
            return to + std::size_t(m.rows()) * d.dm4;
        };
        float* e = putRows(in, problem.queryEmbedding);
        if (key.cross)
            putRows(e, problem.keyEmbedding);
        float* pos = putRows(in + xFloats, problem.queryPosition);
        if (key.cross)
            putRows(pos, problem.keyPosition);
    }

    // Rotary angles: cos and sin of p * theta_j per position and pair, in double as core's
    // rotate() computes them, then rounded to float. A change turns every head's Q and K again.
    const bool rotaryChanged = key.rotary && (all || problem.rotary != old->rotary);
    if (rotaryChanged) {
        float* table = p.rotaryTable.floats();
        const std::size_t half = problem.rotary.inverseFrequencies.size();
        for (std::uint32_t i = 0; i < std::max(d.tq, d.tk); ++i) {
            const double position = double(problem.rotary.firstPosition) + double(i);
            for (std::size_t j = 0; j < half; ++j) {
                const double angle = position * double(problem.rotary.inverseFrequencies[j]);
                table[2 * (i * half + j)] = float(std::cos(angle));
                table[2 * (i * half + j) + 1] = float(std::sin(angle));
            }
        }
    }

    // Which weights changed since the last compute (the stages they feed run again), and the
    // buffer the shaders read them from this time (selectWeights).
    const WeightChanges changes = compareWeights(mw, all ? nullptr : old->weights.get());
    selectWeights(problem, previous.get(), changes);
    for (std::uint32_t z = 0; z < d.h; ++z) {
        const core::HeadWeights& head = mw.heads[z];
        const HeadChanges& c = changes.heads[z];
        const bool wq = c.wq, wk = c.wk, wv = c.wv, m = c.bilinear, wa = c.additive, wo = c.wo;

        // The stages of this head that must run (common.glsl's HEAD_* bits).
        const bool q = inputsChanged || wq || rotaryChanged;
        const bool k = inputsChanged || wk || rotaryChanged;
        const bool v = inputsChanged || wv;
        const bool qm = (bilinear && (q || m)) || (cosine && q); // Q M, or Q's unit rows
        const bool scores = rulesChanged || q || k || qm || wa;
        const bool out = scores || v;
        const bool partial = out || wo;
        params.headBits[z] = (q ? kHeadQ : 0) | (k ? kHeadK : 0) | (v ? kHeadV : 0) |
                             (qm ? kHeadQM : 0) | (scores ? kHeadScores : 0) |
                             (out ? kHeadOutput : 0) | (partial ? kHeadPartial : 0) |
                             (head.enabled ? kHeadEnabled : 0);
    }

    params.inputsChanged = inputsChanged ? 1 : 0;
    std::memcpy(p.params.mapped(), &params, sizeof params);

    // Dispatch sizes: 0 workgroups where no head needs the stage.
    std::uint32_t any = 0;
    for (std::uint32_t z = 0; z < d.h; ++z)
        any |= params.headBits[z];
    std::uint32_t* command = p.indirect.words();
    for (std::size_t i = 0; i < p.dispatches.size(); ++i) {
        const IndirectSlot& slot = p.dispatches[i];
        const bool run =
            slot.when == kAlways || (slot.when == kInputs ? inputsChanged : (any & slot.when) != 0);
        command[4 * i] = run ? slot.groups[0] : 0;
        command[4 * i + 1] = slot.groups[1];
        command[4 * i + 2] = slot.groups[2];
    }
    p.lastParams = params;
    p.lastMask = std::move(mask);
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
    result->queryInput = Strided(x, tq, key.dModel, Eigen::OuterStride<>(d.dm4));
    result->keyInput = key.cross ? Matrix(Strided(x + std::size_t(tq) * d.dm4, tk, key.dModel,
                                                  Eigen::OuterStride<>(d.dm4)))
                                 : result->queryInput;
    result->concat = Matrix::Zero(tq, Eigen::Index(h) * dv);
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
        if (head.enabled)
            result->concat.middleCols(z * dv, dv) = head.output;
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

    if (pipelinesAdded) {
        cache.save();
        pipelinesAdded = false;
    }
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
