#pragma once

#include "attention_result.h"
#include "block_ops.h"
#include "problem.h"

#include <atomic>
#include <memory>
#include <string>

namespace attn::core {

struct ComputeOptions
{
    // Keep raw, scaled and masked scores per head (the pipeline view, --dump). Off, only
    // Q, K, V, weights and outputs are kept.
    bool keepIntermediates = true;
    // When positive and a weight matrix is larger, weights are pooled to at most this grid
    // (the view's resolution), so nothing larger than the screen leaves the backend.
    int viewRows = 0;
    int viewCols = 0;
    PoolMode pool = PoolMode::Mean;
    // Checked between blocks of rows where a backend can stop (the CPU backend; one Vulkan
    // submission runs to its end): when it becomes true, compute throws Cancelled (error.h).
    const std::atomic<bool>* cancel = nullptr;
};

// A backend turns a resolved problem into an immutable result.
class Backend
{
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;
    virtual std::string deviceName() const = 0;
    // Throws Error for invalid problems; a backend-level fault (device lost, out of memory)
    // throws BackendFault so the caller can fall back.
    virtual std::shared_ptr<const AttentionResult> compute(std::shared_ptr<const Problem> problem,
                                                           const ComputeOptions& options) = 0;
    // What a real model computes between attention layers (norms, feed-forward, logits), on
    // the same device. Faults are thrown as BackendFault, like compute's.
    virtual BlockOps& blockOps() = 0;
};

class BackendFault : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

} // namespace attn::core
