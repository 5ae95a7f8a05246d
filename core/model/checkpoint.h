#pragma once

#include "core/matrix.h"

#include <QString>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attn::core {

// The weights of a Hugging Face model folder: model.safetensors, or the shards named by
// model.safetensors.index.json (its weight_map), memory-mapped. Tensors are converted to
// float32 one at a time as they are read, and the mapped pages of a tensor already read are
// given back to the kernel (madvise), so a forward never holds the file and its float32 copy
// at once.
//
// safetensors: an 8-byte little-endian header length N, N bytes of JSON (per tensor: dtype,
// shape, data_offsets relative to the end of the header; "__metadata__" ignored), then the
// data (https://github.com/huggingface/safetensors, "Format").
class Checkpoint
{
public:
    struct Tensor
    {
        std::string name;
        std::string dtype; // "F32", "F16", "BF16", "I64", ... as in the header
        std::vector<std::int64_t> shape;
        QString file; // the shard's file name, for messages
    };

    // Reads the headers only (the data stays mapped, unread). Throws Error naming the file: no
    // safetensors in the folder (with how to convert a pytorch_model.bin when that is what is
    // there), a link to a file that is missing (the blob of a download cut short), a malformed
    // header, a shard the index names that is missing, a tensor outside its file, a tensor
    // name given twice.
    static std::unique_ptr<Checkpoint> open(const QString& folder);
    ~Checkpoint();

    bool contains(const std::string& name) const;
    const Tensor* find(const std::string& name) const; // null when absent
    std::vector<std::string> names() const;            // sorted
    // The dtype most weights have ("F32", "F16", "BF16"), for --model-info.
    std::string mainDtype() const;
    // What the floating-point tensors take once read as float32, from the headers alone: the
    // memory reading every weight allocates.
    std::int64_t float32Bytes() const;

    // The tensor as float32, rows x cols (a rank-1 tensor of n values is 1 x n; rank 2 as
    // stored). Throws Error "model.safetensors: h.3.attn.c_attn.weight: expected 768x2304,
    // got 768x2303" for a missing tensor, a wrong shape, a dtype other than F32/F16/BF16, or
    // a non-finite value. Pass -1 to accept any size in that dimension.
    Matrix matrix(const std::string& name, std::int64_t rows, std::int64_t cols) const;
    RowVector vector(const std::string& name, std::int64_t size) const;
    // The tensor stored rows x cols, returned transposed (cols x rows), in one pass: nn.Linear
    // weights (d_out x d_in in the file) into the row convention. Checks and messages as
    // matrix(), in the file's own shape.
    Matrix transposedMatrix(const std::string& name, std::int64_t rows, std::int64_t cols) const;

private:
    struct Impl;
    explicit Checkpoint(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m;
};

} // namespace attn::core
