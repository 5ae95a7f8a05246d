#pragma once

#include <cstdint>

namespace attn::core {

// Upper bounds checked before anything is allocated, so that a hostile or mistaken input
// gets a message instead of an out-of-memory crash.
inline constexpr int kMaxTokens = 16384;    // per sentence, measured up to it (PERFORMANCE.md)
inline constexpr int kMaxModelWidth = 8192; // d_model, d_k, d_v
inline constexpr int kMaxHeads = 256;
inline constexpr std::int64_t kMaxMatrixElements = std::int64_t(1) << 28; // 1 GiB of float32
// All of a model's weights together: two matrices' worth, so that one 8192-wide head (five
// 8192 x 8192 matrices) or 64 heads of 128 at d_model 8192 fit, in a scene file or the window.
inline constexpr std::int64_t kMaxWeightElements = 2 * kMaxMatrixElements;
// Cells a backend may return across all heads' T x T matrices (2 GiB of float32).
inline constexpr std::int64_t kMaxResultCells = std::int64_t(1) << 29;
// Numbers a --dump may hold, of a scene or of a whole model (2^26): its indented JSON text
// alone takes about 1.5 GB, and building it as a QJsonDocument several times that. Counted
// before the dump is built (resultDumpNumbers, modelDumpNumbers), so that anything bigger is
// refused with a message instead of ending in std::bad_alloc.
inline constexpr std::int64_t kMaxDumpNumbers = std::int64_t(1) << 26;
// A scene file's bytes, read whole before parsing (also a crash-recovery copy's work).
inline constexpr std::int64_t kMaxSceneFileBytes = std::int64_t(512) << 20;

} // namespace attn::core
