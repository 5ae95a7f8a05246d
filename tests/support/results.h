#pragma once
// Comparing results bit for bit: undo, reload and repeated computes must reproduce every
// matrix exactly, not within a tolerance.

#include "core/attention_result.h"
#include "core/cpu_backend.h"
#include "core/scene.h"

#include <cstring>
#include <memory>

namespace attn::test {

inline bool bitIdentical(const core::Matrix& a, const core::Matrix& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0;
}

// Every matrix of two results, intermediates included, equal bit for bit.
inline bool sameResult(const core::AttentionResult& a, const core::AttentionResult& b)
{
    if (a.heads.size() != b.heads.size() || !bitIdentical(a.output, b.output) ||
        !bitIdentical(a.concat(), b.concat()) || !bitIdentical(a.queryInput(), b.queryInput()))
        return false;
    for (std::size_t h = 0; h < a.heads.size(); ++h) {
        const core::HeadResult& x = a.heads[h];
        const core::HeadResult& y = b.heads[h];
        if (!bitIdentical(x.Q, y.Q) || !bitIdentical(x.K, y.K) || !bitIdentical(x.V, y.V) ||
            !bitIdentical(x.rawScores, y.rawScores) ||
            !bitIdentical(x.scaledScores, y.scaledScores) ||
            !bitIdentical(x.maskedScores, y.maskedScores) || !bitIdentical(x.weights, y.weights) ||
            !bitIdentical(x.output, y.output))
            return false;
    }
    return true;
}

// The CPU reference backend's result for a scene, every intermediate kept.
inline std::shared_ptr<const core::AttentionResult> cpuResult(const core::Scene& scene)
{
    core::CpuBackend backend;
    return backend.compute(core::resolveProblem(scene), core::ComputeOptions{});
}

} // namespace attn::test
