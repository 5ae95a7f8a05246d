#pragma once

#include "backend.h"
#include "cpu_block_ops.h"

namespace attn::core {

// The reference backend (Eigen). Every other backend is tested against it.
class CpuBackend final : public Backend
{
public:
    std::string name() const override { return "CPU"; }
    std::string deviceName() const override { return "Eigen"; }
    std::shared_ptr<const AttentionResult> compute(std::shared_ptr<const Problem> problem,
                                                   const ComputeOptions& options) override;
    BlockOps& blockOps() override { return m_blockOps; }

private:
    CpuBlockOps m_blockOps;
};

// RotarySpec's rotate-half rotation of every row (row i is position firstPosition + i).
Matrix rotateHalf(const Matrix& m, const RotarySpec& rotary);

} // namespace attn::core
