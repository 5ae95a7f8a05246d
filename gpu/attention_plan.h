#pragma once

// The Vulkan backend's attention plan: for one problem shape (PlanKey), the padded sizes the
// shaders see, the device buffers, the indirect dispatches and the command buffers recorded
// for it. Internal to gpu/: vulkan_backend.cpp builds plans and runs them,
// attention_recording.cpp records their command buffers, weight_upload.cpp writes the
// inputs and packs the weights.

#include "buffer.h"
#include "core/attention_result.h"
#include "core/pooling.h"
#include "core/problem.h"
#include "descriptor_pool.h"
#include "device.h"
#include "shader_interface.h"
#include "timestamp_queries.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attn::gpu::detail {

using Clock = std::chrono::steady_clock;
inline constexpr VkDeviceSize kFloat = sizeof(float);

inline double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

inline std::uint32_t ceilDiv(std::uint64_t a, std::uint64_t b)
{
    return std::uint32_t((a + b - 1) / b);
}

// Every dimension the shaders see is padded to whole vec4s (with zeros, which change no sum).
inline std::uint32_t pad4(std::uint32_t n)
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
    bool bias = false; // a per-head score bias (Problem::scoreBias)
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
inline constexpr std::uint32_t kAlways = 0;
inline constexpr std::uint32_t kInputs = 1u << 30;

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
    Mirror scoreBias;   // Problem::scoreBias, [head][query][key], rows padded to Tk4
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
inline std::uint32_t queriesPerSubmission(const Plan& p, int s)
{
    const int chunks = p.multiSubmit ? 1 : p.chunks;
    const std::uint32_t perChunk = p.key.pooled() ? 4 : 3;
    return 1 + (s == 0 ? 1 : 0) + std::uint32_t(chunks) * perChunk;
}

// Copies a rows x cols block of row-major floats with a source row stride.
inline void copyRows(float* to, const float* from, int rows, int cols, std::size_t fromStride)
{
    for (int r = 0; r < rows; ++r)
        std::memcpy(to + std::size_t(r) * cols, from + std::size_t(r) * fromStride,
                    std::size_t(cols) * sizeof(float));
}

} // namespace attn::gpu::detail
