#include "vulkan_backend_impl.h"

#include "core/error.h"
#include "vulkan_error.h"
#include "vulkan_functions.h"

#include <algorithm>
#include <cstring>

namespace attn::gpu {

using namespace detail;
using core::Matrix;

namespace {

// Bitwise equality (memcmp: an order of magnitude faster than Eigen's == here). Two empty
// matrices (no bias) are equal without memcmp: their data() is null, and memcmp on null is
// undefined even for 0 bytes (UBSan reports it).
template <typename A, typename B> bool sameFloats(const A& a, const B& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           (a.size() == 0 ||
            std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0);
}

} // namespace

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
        found->second.descriptors = DescriptorPool::create(device, 15, 15 * 4, 15, 15 * 4);
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
        if (problem.hasPositions()) {
            float* pos = putRows(in + xFloats, problem.queryPosition);
            if (key.cross)
                putRows(pos, problem.keyPosition);
        } else { // none: the embeddings already hold them
            std::fill(in + xFloats, in + 2 * xFloats, 0.0f);
        }
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

    // The score bias, each head's rows padded to Tk4 (the padding stays zero). A change scores
    // every head again.
    const bool biasChanged = key.bias && (all || (problem.scoreBias != old->scoreBias &&
                                                  !same(*problem.scoreBias, *old->scoreBias)));
    if (biasChanged) {
        const core::Matrix& bias = *problem.scoreBias;
        float* to = p.scoreBias.floats();
        for (Eigen::Index r = 0; r < bias.rows(); ++r)
            std::memcpy(to + std::size_t(r) * d.tk4, bias.row(r).data(),
                        std::size_t(d.tk) * sizeof(float));
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
        const bool scores = rulesChanged || biasChanged || q || k || qm || wa;
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

} // namespace attn::gpu
