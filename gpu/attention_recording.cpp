#include "vulkan_backend_impl.h"

#include "core/error.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <algorithm>

namespace attn::gpu {

using namespace detail;

namespace {

// The compute pipelines one plan dispatches (the optional ones null where unused).
struct AttentionPipelines
{
    const ComputePipeline* add = nullptr;
    const ComputePipeline* projection = nullptr;
    const ComputePipeline* perHead = nullptr;
    const ComputePipeline* unitRows = nullptr;
    const ComputePipeline* scores = nullptr;
    const ComputePipeline* weighted = nullptr;
    const ComputePipeline* sumHeads = nullptr;
    const ComputePipeline* normalize = nullptr;
    const ComputePipeline* pool = nullptr;
    const ComputePipeline* rotary = nullptr;
    const ComputePipeline* scoreBias = nullptr;
};

// What the recording needs of the device and the shader shapes.
struct RecordingTarget
{
    const Device& device;
    CommandContext& commands;
    std::uint32_t gemmTileRows;
    std::uint32_t gemmTileCols;
    std::uint32_t normalizeWorkgroup;
    bool registers; // ShaderVariant::Registers: normalize.comp, one row per invocation
};

// Records the command buffers of one plan against one weights buffer: every stage of every
// chunk, each dispatch indirect (its size written per compute, 0 when none of the heads it
// serves changed), with a timestamp after each stage.
class AttentionRecorder
{
public:
    AttentionRecorder(Plan& plan, Plan::Recording& recording, const Buffer& weights,
                      bool ownWeights, const AttentionPipelines& pipelines,
                      const RecordingTarget& target)
        : p(plan), r(recording), m_weights(weights), m_ownWeights(ownWeights), pipes(pipelines),
          m_target(target), key(plan.key), d(plan.dims), w(plan.weightLayout),
          bilinear(key.score == core::ScoreKind::Bilinear),
          cosine(key.score == core::ScoreKind::Cosine),
          // With rotary positions the scores (and Q M, the unit rows) read the rotated [Q' | K'].
          qk(key.rotary ? &p.rot.device : &p.proj.device),
          qkStride(key.rotary ? 2 * d.nq : d.nqkv), // floats per row
          qkKeys(key.rotary ? d.nq : d.kOff)        // where K starts in a row
    {
    }

    void record()
    {
        p.dispatches.clear(); // every recording makes the same dispatches, in the same order
        allocateDescriptorSets();
        const int submissions = p.multiSubmit ? p.chunks : 1;
        for (int s = 0; s < submissions; ++s)
            recordSubmission(s, submissions);
    }

private:
    // Descriptor sets, one per kind of dispatch (chunks differ only in push constants).
    struct Sets
    {
        VkDescriptorSet add = VK_NULL_HANDLE, projection = VK_NULL_HANDLE, rotary = VK_NULL_HANDLE,
                        qm = VK_NULL_HANDLE, unit = VK_NULL_HANDLE, scores = VK_NULL_HANDLE,
                        rawScores = VK_NULL_HANDLE, normalize = VK_NULL_HANDLE,
                        weighted = VK_NULL_HANDLE, wo = VK_NULL_HANDLE, sum = VK_NULL_HANDLE,
                        pool = VK_NULL_HANDLE, scaledBias = VK_NULL_HANDLE,
                        rawBias = VK_NULL_HANDLE;
    };

    // Timestamps of one command buffer: one at the start, one after each stage.
    struct Stamps
    {
        VkCommandBuffer cb;
        Submission& sub;
        std::uint32_t& nextQuery;
        VkQueryPool pool;
        bool timed;
        std::uint32_t lastQuery = 0;

        void operator()(const char* stage)
        {
            if (!timed)
                return;
            vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, pool, nextQuery);
            if (stage)
                sub.stages.push_back({stage, lastQuery, nextQuery});
            lastQuery = nextQuery++;
        }
    };

    void allocateDescriptorSets()
    {
        // The scaled scores: their own buffer when kept, else the weights' (normalised in place).
        const Buffer& scaledScores = key.keep ? p.scaled.device : p.chunkWeights.device;
        const Buffer* weights = &m_weights;
        sets.add = r.descriptors.allocate(*pipes.add, {&p.params, &p.inputs.device, &p.x.device});
        sets.projection = r.descriptors.allocate(
            *pipes.projection, {&p.params, &p.x.device, weights, &p.proj.device, weights});
        if (key.rotary)
            sets.rotary = r.descriptors.allocate(
                *pipes.rotary, {&p.params, &p.proj.device, &p.rotaryTable.device, &p.rot.device});
        if (bilinear)
            sets.qm =
                r.descriptors.allocate(*pipes.perHead, {&p.params, qk, weights, &p.qm, weights});
        if (cosine)
            sets.unit = r.descriptors.allocate(*pipes.unitRows, {&p.params, qk, &p.qm, &p.km});
        const Buffer* left = bilinear || cosine ? &p.qm : qk;
        const Buffer* right = cosine ? &p.km : qk;
        sets.scores =
            r.descriptors.allocate(*pipes.scores, {&p.params, left, right, &scaledScores, weights});
        if (key.keep)
            sets.rawScores = r.descriptors.allocate(
                *pipes.scores, {&p.params, left, right, &p.raw.device, weights});
        if (key.bias) {
            sets.scaledBias = r.descriptors.allocate(
                *pipes.scoreBias, {&p.params, &p.scoreBias.device, &scaledScores});
            if (key.keep)
                sets.rawBias = r.descriptors.allocate(
                    *pipes.scoreBias, {&p.params, &p.scoreBias.device, &p.raw.device});
        }
        sets.normalize = r.descriptors.allocate(
            *pipes.normalize,
            {&p.params, &scaledScores, key.keep ? &p.masked.device : &p.chunkWeights.device,
             &p.chunkWeights.device, &p.maskData.device, &p.status.device});
        sets.weighted =
            r.descriptors.allocate(*pipes.weighted, {&p.params, &p.chunkWeights.device,
                                                     &p.proj.device, &p.headOut.device, weights});
        sets.wo = r.descriptors.allocate(
            *pipes.perHead, {&p.params, &p.headOut.device, weights, &p.partials, weights});
        sets.sum = r.descriptors.allocate(*pipes.sumHeads,
                                          {&p.params, &p.partials, weights, &p.out.device});
        if (key.pooled())
            sets.pool = r.descriptors.allocate(*pipes.pool,
                                               {&p.params, &p.chunkWeights.device, &p.grid.device});
    }

    void dispatch(VkCommandBuffer cb, const ComputePipeline& pipe, VkDescriptorSet set,
                  const void* push, std::uint32_t bytes, std::uint32_t gx, std::uint32_t gy,
                  std::uint32_t gz, std::uint32_t when)
    {
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe.handle());
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe.layout(), 0, 1, &set, 0,
                                nullptr);
        vkCmdPushConstants(cb, pipe.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, bytes, push);
        const std::uint32_t slot = std::uint32_t(p.dispatches.size());
        p.dispatches.push_back({{std::max(1u, gx), std::max(1u, gy), std::max(1u, gz)}, when});
        vkCmdDispatchIndirect(cb, p.indirect.handle(), VkDeviceSize(slot) * 16);
    }

    void gemm(VkCommandBuffer cb, const ComputePipeline& pipe, VkDescriptorSet set,
              const GemmPush& push, std::uint32_t batch, std::uint32_t when)
    {
        dispatch(cb, pipe, set, &push, sizeof push, ceilDiv(push.N, m_target.gemmTileCols),
                 ceilDiv(push.M, m_target.gemmTileRows), batch, when);
    }

    // Each stage's writes are visible to the next stage's reads (and ordered before its writes).
    static void computeBarrier(VkCommandBuffer cb)
    {
        recordMemoryBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT,
                            VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }

    static void copyWhole(VkCommandBuffer cb, const Buffer& from, const Buffer& to)
    {
        const VkBufferCopy region{0, 0, std::min(from.size(), to.size())};
        vkCmdCopyBuffer(cb, from.handle(), to.handle(), 1, &region);
    }

    void recordSubmission(int s, int submissions)
    {
        Submission sub;
        sub.firstChunk = p.multiSubmit ? s : 0;
        sub.lastChunk = p.multiSubmit ? s + 1 : p.chunks;
        sub.commands = m_target.commands.allocate();
        VkCommandBuffer cb = sub.commands;
        VkCommandBufferBeginInfo begin{};
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
        check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");

        sub.firstQuery = m_nextQuery;
        Stamps stamp{cb, sub, m_nextQuery, p.queries.handle(), m_target.device.timestamps()};
        if (stamp.timed)
            vkCmdResetQueryPool(cb, p.queries.handle(), sub.firstQuery, queriesPerSubmission(p, s));
        if (s == 0) {
            recordUploads(cb);
            stamp(nullptr);
            recordProjections(cb);
            stamp("embed + project");
        } else {
            stamp(nullptr);
        }
        for (int c = sub.firstChunk; c < sub.lastChunk; ++c)
            recordChunk(cb, c, stamp);
        recordReadback(cb, s == submissions - 1);
        check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
        sub.queryCount = m_nextQuery - sub.firstQuery;
        r.submissions.push_back(std::move(sub));
    }

    // Host writes (inputs, weights, mask, params) -> the shaders that read them.
    void recordUploads(VkCommandBuffer cb)
    {
        const Device& device = m_target.device;
        if (device.unifiedMemory()) {
            recordMemoryBarrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
                                VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT |
                                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                VK_ACCESS_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_SHADER_READ_BIT |
                                    VK_ACCESS_UNIFORM_READ_BIT);
        } else {
            // Host writes -> transfer reads of the staging buffers; the copies -> shader reads.
            recordMemoryBarrier(cb, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_WRITE_BIT,
                                VK_PIPELINE_STAGE_TRANSFER_BIT |
                                    VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT |
                                    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT |
                                    VK_ACCESS_UNIFORM_READ_BIT);
            // The own weights go up with every compute; a cached layer's are on the device.
            for (const Mirror* m :
                 {&p.inputs, &p.weights, &p.maskData, &p.rotaryTable, &p.scoreBias})
                if (m->staging && (m != &p.weights || m_ownWeights))
                    copyWhole(cb, m->staging, m->device);
        }
        if (key.pooled() && !p.incremental()) {
            // The grid accumulates over chunks: 0 for sums, -inf for maxima.
            const std::uint32_t fill = key.pool == core::PoolMode::Max ? 0xff800000u : 0u;
            vkCmdFillBuffer(cb, p.grid.device.handle(), 0, VK_WHOLE_SIZE, fill);
        }
        if (!device.unifiedMemory() || (key.pooled() && !p.incremental()))
            recordMemoryBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    }

    // X = E + P, then every head's Q, K and V (rotated, multiplied by M, or made unit rows as
    // the score needs).
    void recordProjections(VkCommandBuffer cb)
    {
        const AddPush addPush{p.xRows * d.dm4 / 4, p.xRows * d.dm4 / 4};
        dispatch(cb, *pipes.add, sets.add, &addPush, sizeof addPush,
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
            gemm(cb, *pipes.projection, sets.projection, gp, 1, kHeadQ | kHeadK | kHeadV);
        } else {
            GemmPush gq = gp;
            gq.M = d.tq, gq.N = d.nq;
            gq.offB = w.wqkv, gq.offAux = w.bqkv;
            gq.skipSplit1 = gq.skipSplit2 = d.nq;
            gemm(cb, *pipes.projection, sets.projection, gq, 1, kHeadQ);
            GemmPush gkv = gp;
            gkv.M = d.tk, gkv.N = d.nkv;
            gkv.offA = d.tq * d.dm4;
            gkv.offB = w.wqkv + d.kOff, gkv.offC = d.kOff, gkv.offAux = w.bqkv + d.kOff;
            gkv.skipSplit1 = 0, gkv.skipSplit2 = d.vOff - d.kOff;
            gemm(cb, *pipes.projection, sets.projection, gkv, 1, kHeadK | kHeadV);
        }
        computeBarrier(cb);
        if (key.rotary) {
            // Q' and K': every head's rows turned by their positions' angles (RoFormer eq. 34).
            const RotaryPush rp{d.dk / 2, d.dk4, d.nqkv, d.kOff, 2 * d.nq, d.nq};
            const std::uint64_t pairs = std::uint64_t(std::max(d.tq, d.tk)) * (d.dk / 2);
            dispatch(cb, *pipes.rotary, sets.rotary, &rp, sizeof rp,
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
            gemm(cb, *pipes.perHead, sets.qm, gm, d.h, kHeadQM);
            computeBarrier(cb);
        }
        if (cosine) {
            // cos = q.k / (|q| |k|), 0 where either is zero: unit rows first, as core does.
            const UnitPush up{d.dk4 / 4, qkStride / 4, qkKeys / 4, d.nq / 4};
            dispatch(cb, *pipes.unitRows, sets.unit, &up, sizeof up,
                     ceilDiv(std::max(d.tq, d.tk), 64), d.h, 2, kHeadQM | kHeadK);
            computeBarrier(cb);
        }
    }

    // One chunk of query rows through scores, mask and normalization, weights x V, the pooled
    // grid, and W^O.
    void recordChunk(VkCommandBuffer cb, int c, Stamps& stamp)
    {
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
        gs.strideA = d.dk4, gs.strideB = d.dk4, gs.strideC = p.headStride(), gs.strideAux = d.dk4;
        gs.rowBase = std::int32_t(r0);
        gs.skipBitA = kHeadScores;
        gs.scaled = 1;
        gemm(cb, *pipes.scores, sets.scores, gs, d.h, kHeadScores);
        if (key.keep) {
            gs.scaled = 0; // and the raw scores, kept for the pipeline view
            gemm(cb, *pipes.scores, sets.rawScores, gs, d.h, kHeadScores);
        }
        computeBarrier(cb);
        if (key.bias) {
            // + s b into the scaled scores, + b into the raw ones (a per-head score bias).
            ScoreBiasPush bp{rows, r0, d.tk, p.rowStride(), p.headStride(), d.tq, 1};
            const std::uint32_t groups = std::min(ceilDiv(std::uint64_t(rows) * d.tk, 64), 4096u);
            dispatch(cb, *pipes.scoreBias, sets.scaledBias, &bp, sizeof bp, groups, 1, d.h,
                     kHeadScores);
            if (key.keep) {
                bp.scaled = 0;
                dispatch(cb, *pipes.scoreBias, sets.rawBias, &bp, sizeof bp, groups, 1, d.h,
                         kHeadScores);
            }
            computeBarrier(cb);
        }

        const NormalizePush np{rows,          std::int32_t(r0), p.headStride(),
                               p.rowStride(), p.paddingOffset,  p.customOffset,
                               p.customWords};
        const std::uint32_t rowGroups =
            m_target.registers ? ceilDiv(rows, m_target.normalizeWorkgroup) : rows;
        dispatch(cb, *pipes.normalize, sets.normalize, &np, sizeof np, rowGroups, d.h, 1,
                 kHeadScores);
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
        gemm(cb, *pipes.weighted, sets.weighted, gv, d.h, kHeadOutput);
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
            dispatch(cb, *pipes.pool, sets.pool, &pp, sizeof pp,
                     ceilDiv(std::uint32_t(p.gridCols), 64), lastGridRow - firstGridRow + 1, d.h,
                     kHeadScores);
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
        gemm(cb, *pipes.perHead, sets.wo, go, d.h, kHeadPartial);
        computeBarrier(cb);
        const SumPush sp{
            rows * d.dm4 / 4, d.dm4 / 4, std::uint32_t(p.rowsPerChunk) * d.dm4 / 4, d.h, w.bo,
            r0 * d.dm4 / 4};
        dispatch(cb, *pipes.sumHeads, sets.sum, &sp, sizeof sp,
                 std::min(ceilDiv(sp.count, 64), 4096u), 1, 1, kAlways);
        // The next chunk overwrites the chunk buffers that this one's readers used.
        computeBarrier(cb);
        stamp("concat + W_O");
    }

    // Results -> the host.
    void recordReadback(VkCommandBuffer cb, bool last)
    {
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
        if (m_target.device.unifiedMemory()) {
            recordMemoryBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                                VK_ACCESS_HOST_READ_BIT);
        } else {
            // Shader writes -> transfer reads; the copies -> host reads.
            recordMemoryBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                VK_ACCESS_TRANSFER_READ_BIT);
            for (const Mirror* m : results)
                copyWhole(cb, m->device, m->staging);
            recordMemoryBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                                VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
        }
    }

    Plan& p;
    Plan::Recording& r;
    const Buffer& m_weights;
    bool m_ownWeights;
    const AttentionPipelines& pipes;
    const RecordingTarget& m_target;
    const PlanKey& key;
    const Dims& d;
    const WeightLayout& w;
    const bool bilinear;
    const bool cosine;
    const Buffer* qk;
    const std::uint32_t qkStride;
    const std::uint32_t qkKeys;
    Sets sets;
    std::uint32_t m_nextQuery = 0;
};

} // namespace

void VulkanBackend::Impl::record(Plan& p, Plan::Recording& r, const Buffer& weightsBuffer,
                                 bool ownWeights)
{
    const PlanKey& key = p.key;
    AttentionPipelines pipes;
    pipes.add = &pipelines.get("add", {kUniformBinding, kStorageBinding, kStorageBinding},
                               sizeof(AddPush), {64});
    pipes.projection = &gemmPipeline({false, 0, true, false, false, 1});
    pipes.perHead = &gemmPipeline({false, 0, false, false, false, 2});
    pipes.unitRows = &pipelines.get(
        "unit_rows", {kUniformBinding, kTexelBinding, kStorageBinding, kStorageBinding},
        sizeof(UnitPush), {64});
    // Without kept intermediates, cells that the causal/window rules mask are never computed.
    const std::uint32_t scoreOp = key.score == core::ScoreKind::Additive ? 1u : 0u;
    pipes.scores = &gemmPipeline({true, scoreOp, false, !key.keep, false, 2});
    pipes.weighted = &gemmPipeline({false, 0, false, false, true, 2});
    pipes.sumHeads = &pipelines.get(
        "sum_heads", {kUniformBinding, kTexelBinding, kTexelBinding, kStorageBinding},
        sizeof(SumPush), {64});
    const bool registers = variant == ShaderVariant::Registers;
    pipes.normalize = &pipelines.get(
        registers ? "normalize" : "normalize_subgroup",
        {kUniformBinding, kTexelBinding, kStorageBinding, kStorageBinding, kBitsBinding,
         kStorageBinding},
        sizeof(NormalizePush),
        {normalizeWorkgroup(), std::uint32_t(key.normalization), key.keep ? 1u : 0u});
    pipes.pool = &pipelines.get("pool", {kUniformBinding, kTexelBinding, kStorageBinding},
                                sizeof(PoolPush), {64, key.pool == core::PoolMode::Max ? 1u : 0u});
    if (key.rotary)
        pipes.rotary = &pipelines.get(
            "rotary", {kUniformBinding, kScalarBinding, kScalarBinding, kStorageBinding},
            sizeof(RotaryPush), {64});
    if (key.bias)
        pipes.scoreBias =
            &pipelines.get("score_bias", {kUniformBinding, kScalarBinding, kStorageBinding},
                           sizeof(ScoreBiasPush), {64});
    const RecordingTarget target{
        device, commands, gemmTileRows(), gemmTileCols(), normalizeWorkgroup(), registers};
    AttentionRecorder(p, r, weightsBuffer, ownWeights, pipes, target).record();
}

} // namespace attn::gpu
