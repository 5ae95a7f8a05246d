#pragma once

#include "attention_result.h"
#include "backend.h"
#include "normalization.h"

#include <cstdint>
#include <span>
#include <string>

namespace attn::core {

// What normalisation met in one query row of one head; the GPU's normalize shader writes the
// same bits into its status buffer.
inline constexpr std::uint32_t kRowFullyMasked = 1;
inline constexpr std::uint32_t kRowZeroSum = 2;
inline constexpr std::uint32_t kRowNonFinite = 4;

std::uint32_t rowFlags(const RowStatus& status);

// Matrix::allFinite() without its scalar loop (1 ns a cell: 1.3 ms for the weights of
// d_model = 512, h = 8, checked on every compute).
bool allFinite(const Eigen::Ref<const Matrix>& m);

// The same limits for every backend: throws Error when the weights alone would not fit in
// memory, and drops the optional intermediates (with a warning) before that point.
ComputeOptions checkMemory(const Problem& problem, ComputeOptions options,
                           Diagnostics& diagnostics);

// The warning summarizeDiagnostics gives for non-finite values first met at `where`.
std::string nonFiniteWarning(const std::string& where);

// Fills result.diagnostics' row lists, the first non-finite place and the warnings from
// rowFlags[head * Tq + row], once the heads' Q, K, V and the output are set.
void summarizeDiagnostics(AttentionResult& result, std::span<const std::uint32_t> rowFlags);

} // namespace attn::core
