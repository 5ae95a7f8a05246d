#include "vulkan_block_ops.h"

#include "core/error.h"
#include "gpu/command_context.h"
#include "gpu/descriptor_pool.h"
#include "gpu/device.h"
#include "gpu/shader_interface.h"
#include "gpu/vulkan_error.h"
#include "gpu/vulkan_functions.h"
#include "op_context.h"
#include "op_linear.h"
#include "op_row_norm.h"
#include "pipeline_library.h"
#include "staged_buffer.h"
#include "weight_cache.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

namespace attn::gpu {
namespace {

using core::Matrix;
constexpr VkDeviceSize kFloat = sizeof(float);

std::uint32_t pad4(Eigen::Index n)
{
    return (std::uint32_t(n) + 3) & ~3u;
}

// How an entry of the weight cache is laid out (part of its key).
enum Layout : std::uint32_t {
    kPaddedMatrix = 1,   // pad4(rows) x pad4(cols), zeros around
    kPaddedRow = 2,      // pad4(cols)
    kNormWeights = 3,    // g then b, pad4(cols) each
    kVocabularyRows = 4, // rows x pad4(cols): a chunk of the output embedding
};

std::string shapeOf(const Matrix& m)
{
    return std::to_string(m.rows()) + "x" + std::to_string(m.cols());
}

} // namespace

struct VulkanBlockOps::Impl
{
    const Device& device;
    ShaderVariant variant;
    std::mutex& mutex;
    WeightCache& weights;
    PipelineLibrary pipelines;
    CommandContext commands;
    Buffer params; // a zeroed common.glsl Params block (gemm.comp reads it; nothing here uses it)
    // Grown on demand and kept: the rows in, the rows out, the feed-forward's hidden rows.
    StagedBuffer input;
    StagedBuffer output;
    Buffer hidden;
    Buffer gate; // the gated feed-forward's act(x W_gate + b)

    Impl(const Device& d, const PipelineCache& cache, ShaderVariant v, std::mutex& m,
         WeightCache& w)
        : device(d), variant(v), mutex(m), weights(w), pipelines(d, cache),
          commands(CommandContext::create(d)),
          params(Buffer::create(d, sizeof(Params),
                                d.unifiedMemory() ? MemoryKind::Shared : MemoryKind::Upload))
    {
        std::memset(params.mapped(), 0, params.size());
    }

    const Buffer& matrix(const Matrix& w);
    const Buffer& row(const core::RowVector& b);
    const Buffer& normWeights(const core::NormWeights& w);

    // x (rows x cols) into the input buffer, each row padded to pad4(cols) with zeros.
    void putRows(const Matrix& x);
    // rows x cols from the output buffer, whose rows are `stride` floats apart.
    Matrix takeRows(Eigen::Index rows, Eigen::Index cols, std::uint32_t stride) const;
    // One command buffer: the input's upload, what `record` adds, the output's download;
    // submitted and waited for. `dispatches` sizes the descriptor pool.
    void execute(std::uint32_t dispatches, VkDeviceSize inputBytes, VkDeviceSize outputBytes,
                 const std::function<void(OpContext&)>& record);
    void reserve(StagedBuffer& b, VkDeviceSize bytes, StagedBuffer::Direction direction);
    void reserve(Buffer& b, VkDeviceSize bytes);
    void linear(OpContext& context, const Buffer& a, std::uint32_t lda, std::uint32_t rows,
                const core::LinearWeights& w, const Buffer& c, const core::Activation* activation,
                const Buffer& weight, const Buffer* bias);
};

VulkanBlockOps::VulkanBlockOps(const Device& device, const PipelineCache& cache,
                               ShaderVariant variant, std::mutex& queueMutex, WeightCache& weights)
    : m(std::make_unique<Impl>(device, cache, variant, queueMutex, weights))
{
}

VulkanBlockOps::~VulkanBlockOps() = default;

// ---- Weights ---------------------------------------------------------------------------------

const Buffer& VulkanBlockOps::Impl::matrix(const Matrix& w)
{
    const std::uint32_t cols4 = pad4(w.cols());
    const std::size_t floats = std::size_t(pad4(w.rows())) * cols4;
    return *weights
                .get({w.data(), w.rows(), w.cols(), kPaddedMatrix},
                     sampledFingerprint(w.data(), std::size_t(w.size())), floats,
                     [&w, cols4](float* to) {
                         for (Eigen::Index r = 0; r < w.rows(); ++r)
                             std::memcpy(to + std::size_t(r) * cols4, w.row(r).data(),
                                         std::size_t(w.cols()) * sizeof(float));
                     })
                .buffer;
}

const Buffer& VulkanBlockOps::Impl::row(const core::RowVector& b)
{
    return *weights
                .get({b.data(), 1, b.size(), kPaddedRow},
                     sampledFingerprint(b.data(), std::size_t(b.size())), pad4(b.size()),
                     [&b](float* to) {
                         std::memcpy(to, b.data(), std::size_t(b.size()) * sizeof(float));
                     })
                .buffer;
}

const Buffer& VulkanBlockOps::Impl::normWeights(const core::NormWeights& w)
{
    const std::uint32_t width4 = pad4(w.gain.size());
    const std::uint64_t fingerprint =
        sampledFingerprint(w.gain.data(), std::size_t(w.gain.size())) * 31 +
        sampledFingerprint(w.bias.data(), std::size_t(w.bias.size()));
    return *weights
                .get({w.gain.data(), w.bias.size(), w.gain.size(), kNormWeights}, fingerprint,
                     2 * std::size_t(width4),
                     [&w, width4](float* to) {
                         std::memcpy(to, w.gain.data(), std::size_t(w.gain.size()) * sizeof(float));
                         if (w.bias.size())
                             std::memcpy(to + width4, w.bias.data(),
                                         std::size_t(w.bias.size()) * sizeof(float));
                     })
                .buffer;
}

// ---- Buffers and submission -------------------------------------------------------------------

void VulkanBlockOps::Impl::reserve(StagedBuffer& b, VkDeviceSize bytes,
                                   StagedBuffer::Direction direction)
{
    if (b && b.size() >= bytes)
        return;
    const VkDeviceSize grown = b ? std::max(bytes, b.size() + b.size() / 2) : bytes;
    b = StagedBuffer(); // the old one first
    b = StagedBuffer::create(device, grown, direction);
}

void VulkanBlockOps::Impl::reserve(Buffer& b, VkDeviceSize bytes)
{
    if (b && b.size() >= bytes)
        return;
    const VkDeviceSize grown = b ? std::max(bytes, b.size() + b.size() / 2) : bytes;
    b = Buffer();
    b = Buffer::create(device, grown, MemoryKind::DeviceLocal);
}

void VulkanBlockOps::Impl::putRows(const Matrix& x)
{
    const std::uint32_t width4 = pad4(x.cols());
    reserve(input, VkDeviceSize(x.rows()) * width4 * kFloat, StagedBuffer::Direction::Upload);
    float* to = input.floats();
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        float* line = to + std::size_t(r) * width4;
        std::memcpy(line, x.row(r).data(), std::size_t(x.cols()) * sizeof(float));
        std::fill(line + x.cols(), line + width4, 0.0f);
    }
}

Matrix VulkanBlockOps::Impl::takeRows(Eigen::Index rows, Eigen::Index cols,
                                      std::uint32_t stride) const
{
    using Strided = Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>;
    return Strided(output.floats(), rows, cols, Eigen::OuterStride<>(stride));
}

void VulkanBlockOps::Impl::execute(std::uint32_t dispatches, VkDeviceSize inputBytes,
                                   VkDeviceSize outputBytes,
                                   const std::function<void(OpContext&)>& record)
{
    // At most 5 bindings a dispatch: one uniform, one storage, three texel buffers.
    DescriptorPool descriptors =
        DescriptorPool::create(device, dispatches, dispatches, dispatches, 3 * dispatches);
    VkCommandBuffer cb = commands.allocate();
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer");
    // Host writes of the rows (and, in place, of the weights: WeightCache's uploads end before
    // this submission) -> the shaders' reads.
    input.recordUpload(cb, inputBytes);
    OpContext context(device, pipelines, descriptors, variant, params, cb);
    record(context);
    output.recordDownload(cb, outputBytes);
    check(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
    try {
        commands.submitAndWait(cb);
    } catch (...) {
        commands.reset();
        throw;
    }
    commands.reset();
    pipelines.saveIfChanged();
}

void VulkanBlockOps::Impl::linear(OpContext& context, const Buffer& a, std::uint32_t lda,
                                  std::uint32_t rows, const core::LinearWeights& w, const Buffer& c,
                                  const core::Activation* activation, const Buffer& weight,
                                  const Buffer* bias)
{
    OpLinear::Args args;
    args.a = &a;
    args.lda = lda;
    args.b = &weight;
    args.ldb = pad4(w.weight.cols());
    args.bias = bias;
    args.c = &c;
    args.ldc = pad4(w.weight.cols());
    args.m = rows;
    args.n = std::uint32_t(w.weight.cols());
    args.k4 = pad4(w.weight.rows());
    args.activation = activation;
    OpLinear::record(context, args);
}

// ---- Operations --------------------------------------------------------------------------------

Matrix VulkanBlockOps::norm(const Matrix& x, const core::NormWeights& w)
{
    if (w.gain.size() != x.cols() || (w.bias.size() && w.bias.size() != x.cols()))
        throw core::Error("norm: weights of width " + std::to_string(w.gain.size()) +
                          " for rows of width " + std::to_string(x.cols()));
    if (x.rows() == 0)
        return Matrix(0, x.cols());
    std::lock_guard lock(m->mutex);
    m->weights.beginOperation();
    const std::uint32_t width4 = pad4(x.cols());
    const VkDeviceSize bytes = VkDeviceSize(x.rows()) * width4 * kFloat;
    const Buffer& weights = m->normWeights(w);
    m->putRows(x);
    m->reserve(m->output, bytes, StagedBuffer::Direction::Readback);
    OpRowNorm::Shape shape;
    shape.rows = std::uint32_t(x.rows());
    shape.width = std::uint32_t(x.cols());
    shape.width4 = width4;
    shape.eps = w.eps;
    shape.rms = w.kind == core::NormKind::RmsNorm;
    shape.bias = w.bias.size() > 0;
    m->execute(1, bytes, bytes, [&](OpContext& context) {
        OpRowNorm::record(context, m->input.device(), weights, m->output.device(), shape);
    });
    return m->takeRows(x.rows(), x.cols(), width4);
}

Matrix VulkanBlockOps::feedForward(const Matrix& x, const core::FeedForwardWeights& w)
{
    const bool gated = w.kind == core::FeedForwardKind::Gated;
    const Eigen::Index hiddenWidth = w.in.weight.cols();
    if (w.in.weight.rows() != x.cols() || w.out.weight.rows() != hiddenWidth ||
        (gated && (w.gate.weight.rows() != x.cols() || w.gate.weight.cols() != hiddenWidth)))
        throw core::Error("feed-forward: weights " + shapeOf(w.in.weight) + ", " +
                          shapeOf(w.gate.weight) + ", " + shapeOf(w.out.weight) +
                          " for rows of width " + std::to_string(x.cols()));
    const Eigen::Index outWidth = w.out.weight.cols();
    if (x.rows() == 0)
        return Matrix(0, outWidth);
    std::lock_guard lock(m->mutex);
    m->weights.beginOperation();
    const std::uint32_t rows = std::uint32_t(x.rows());
    const std::uint32_t in4 = pad4(x.cols());
    const std::uint32_t hidden4 = pad4(hiddenWidth);
    const std::uint32_t out4 = pad4(outWidth);
    // Every weight first (a miss may submit its upload), then the one command buffer.
    const Buffer& wIn = m->matrix(w.in.weight);
    const Buffer* bIn = w.in.bias.size() ? &m->row(w.in.bias) : nullptr;
    const Buffer* wGate = gated ? &m->matrix(w.gate.weight) : nullptr;
    const Buffer* bGate = gated && w.gate.bias.size() ? &m->row(w.gate.bias) : nullptr;
    const Buffer& wOut = m->matrix(w.out.weight);
    const Buffer* bOut = w.out.bias.size() ? &m->row(w.out.bias) : nullptr;
    m->putRows(x);
    const VkDeviceSize hiddenBytes = VkDeviceSize(rows) * hidden4 * kFloat;
    m->reserve(m->hidden, hiddenBytes);
    if (gated)
        m->reserve(m->gate, hiddenBytes);
    const VkDeviceSize outBytes = VkDeviceSize(rows) * out4 * kFloat;
    m->reserve(m->output, outBytes, StagedBuffer::Direction::Readback);
    const core::Activation activation = w.activation;
    m->execute(4, VkDeviceSize(rows) * in4 * kFloat, outBytes, [&](OpContext& context) {
        const Buffer& in = m->input.device();
        if (gated) {
            // Gated (SwiGLU): H = act(x W_gate + b_gate) * (x W_in + b_in), the two products
            // side by side, then their product.
            m->linear(context, in, in4, rows, w.gate, m->gate, &activation, *wGate, bGate);
            m->linear(context, in, in4, rows, w.in, m->hidden, nullptr, wIn, bIn);
            context.computeBarrier();
            OpLinear::recordMultiply(context, m->gate, m->hidden, m->hidden, rows * hidden4);
        } else {
            // H = act(x W_in + b_in) (Vaswani et al. 2017, eq. 2, with the family's activation).
            m->linear(context, in, in4, rows, w.in, m->hidden, &activation, wIn, bIn);
        }
        context.computeBarrier();
        m->linear(context, m->hidden, hidden4, rows, w.out, m->output.device(), nullptr, wOut,
                  bOut);
    });
    return m->takeRows(x.rows(), outWidth, out4);
}

Matrix VulkanBlockOps::dense(const Matrix& x, const core::LinearWeights& w,
                             core::Activation activation)
{
    if (w.weight.rows() != x.cols())
        throw core::Error("dense: weights " + shapeOf(w.weight) + " for rows of width " +
                          std::to_string(x.cols()));
    if (x.rows() == 0)
        return Matrix(0, w.weight.cols());
    std::lock_guard lock(m->mutex);
    m->weights.beginOperation();
    const std::uint32_t rows = std::uint32_t(x.rows());
    const std::uint32_t in4 = pad4(x.cols());
    const std::uint32_t out4 = pad4(w.weight.cols());
    const Buffer& weight = m->matrix(w.weight);
    const Buffer* bias = w.bias.size() ? &m->row(w.bias) : nullptr;
    m->putRows(x);
    const VkDeviceSize outBytes = VkDeviceSize(rows) * out4 * kFloat;
    m->reserve(m->output, outBytes, StagedBuffer::Direction::Readback);
    m->execute(1, VkDeviceSize(rows) * in4 * kFloat, outBytes, [&](OpContext& context) {
        m->linear(context, m->input.device(), in4, rows, w, m->output.device(), &activation, weight,
                  bias);
    });
    return m->takeRows(x.rows(), w.weight.cols(), out4);
}

Matrix VulkanBlockOps::logits(const Matrix& x, const Matrix& outputEmbedding,
                              const core::RowVector& bias)
{
    const Matrix& e = outputEmbedding;
    if (e.cols() != x.cols() || (bias.size() && bias.size() != e.rows()))
        throw core::Error("logits: output embedding " + shapeOf(e) + " and a bias of " +
                          std::to_string(bias.size()) + " for rows of width " +
                          std::to_string(x.cols()));
    const Eigen::Index vocab = e.rows();
    if (x.rows() == 0 || vocab == 0)
        return Matrix(x.rows(), vocab);
    std::lock_guard lock(m->mutex);
    m->weights.beginOperation();
    const VkPhysicalDeviceLimits& limits = m->device.limits();
    const std::uint32_t d4 = pad4(e.cols());
    const std::uint32_t vocab4 = pad4(vocab);

    // E in chunks of vocabulary rows, each one texel-buffer binding (gpt2's 50257 x 768 is one
    // 154 MB chunk; Llama 3's 128256 x 4096 takes nine). A multiple of 4 rows, so that every
    // chunk's logits start on a whole vec4. ATTN_VK_LOGITS_CHUNK_ROWS (tests) makes them small.
    const VkDeviceSize chunkBytes = std::min<VkDeviceSize>(
        VkDeviceSize(limits.maxTexelBufferElements) * 16, VkDeviceSize(256) << 20);
    std::uint64_t chunkRows = std::max<std::uint64_t>(4, chunkBytes / (VkDeviceSize(d4) * kFloat));
    if (const char* env = std::getenv("ATTN_VK_LOGITS_CHUNK_ROWS"))
        chunkRows = std::max<std::uint64_t>(
            4, std::min<std::uint64_t>(chunkRows, std::strtoull(env, nullptr, 10)));
    chunkRows &= ~std::uint64_t(3);
    struct Chunk
    {
        const Buffer* rows;
        std::uint32_t first;
        std::uint32_t count;
    };
    std::vector<Chunk> chunks;
    for (std::uint64_t first = 0; first < std::uint64_t(vocab); first += chunkRows) {
        const std::uint32_t count =
            std::uint32_t(std::min<std::uint64_t>(chunkRows, std::uint64_t(vocab) - first));
        const float* start = e.data() + first * std::uint64_t(e.cols());
        const Eigen::Index cols = e.cols();
        const Buffer& buffer =
            *m->weights
                 .get({start, count, cols, kVocabularyRows},
                      sampledFingerprint(start, std::size_t(count) * std::size_t(cols)),
                      std::size_t(count) * d4,
                      [start, count, cols, d4](float* to) {
                          for (std::uint32_t r = 0; r < count; ++r)
                              std::memcpy(to + std::size_t(r) * d4, start + std::size_t(r) * cols,
                                          std::size_t(cols) * sizeof(float));
                      })
                 .buffer;
        chunks.push_back({&buffer, std::uint32_t(first), count});
    }
    const Buffer* b = bias.size() ? &m->row(bias) : nullptr;

    // The logits of as many rows at a time as one storage binding holds.
    const std::uint64_t rowBytes = std::uint64_t(vocab4) * kFloat;
    if (rowBytes > limits.maxStorageBufferRange)
        throw core::BackendFault("Vulkan: one row of " + std::to_string(vocab) +
                                 " logits exceeds this device's largest storage binding");
    const std::uint32_t rowsPerPass = std::uint32_t(std::clamp<std::uint64_t>(
        limits.maxStorageBufferRange / rowBytes, 1, std::uint64_t(x.rows())));
    Matrix result(x.rows(), vocab);
    m->putRows(x);
    m->reserve(m->output, VkDeviceSize(rowsPerPass) * rowBytes, StagedBuffer::Direction::Readback);
    for (std::uint32_t r0 = 0; r0 < std::uint32_t(x.rows()); r0 += rowsPerPass) {
        const std::uint32_t rows =
            std::min<std::uint32_t>(rowsPerPass, std::uint32_t(x.rows()) - r0);
        m->execute(std::uint32_t(chunks.size()), VkDeviceSize(x.rows()) * d4 * kFloat,
                   VkDeviceSize(rows) * rowBytes, [&](OpContext& context) {
                       // Logits x E^T + b (B transposed: one vocabulary row per column).
                       for (const Chunk& chunk : chunks) {
                           OpLinear::Args args;
                           args.a = &m->input.device();
                           args.offA = r0 * d4;
                           args.lda = d4;
                           args.b = chunk.rows;
                           args.ldb = d4;
                           args.transposedB = true;
                           args.bias = b;
                           args.offBias = chunk.first;
                           args.c = &m->output.device();
                           args.offC = chunk.first;
                           args.ldc = vocab4;
                           args.m = rows;
                           args.n = chunk.count;
                           args.k4 = d4;
                           OpLinear::record(context, args);
                       }
                   });
        result.middleRows(r0, rows) = m->takeRows(rows, vocab, vocab4);
    }
    return result;
}

} // namespace attn::gpu
