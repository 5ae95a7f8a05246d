#pragma once

#include "attention_settings.h"
#include "matrix.h"
#include "problem.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace attn::core {

// Per head, every intermediate of Vaswani et al. eq. 1, extended to the other scores.
struct HeadResult
{
    bool enabled = true;
    Matrix Q;            // Tq x d_k
    Matrix K;            // Tk x d_k
    Matrix V;            // Tk x d_v
    Matrix rotatedQ;     // Tq x d_k: Q after the rotary step; empty without rotary
    Matrix rotatedK;     // Tk x d_k: the scores use these when present
    Matrix rawScores;    // Tq x Tk: the score function alone (q.k, w^T tanh(q+k), ...)
    Matrix scaledScores; // raw * scoreScale()
    Matrix maskedScores; // scaled, masked cells replaced by the fill value
    Matrix weights;      // Tq x Tk normalised rows; or the pooled grid (see Pooling)
    Matrix output;       // Tq x d_v = weights * V, computed even when the head is disabled
};

struct Pooling
{
    bool pooled = false; // weights hold a rows x cols grid, not Tq x Tk
    int rowBlock = 1;    // each grid cell covers rowBlock x colBlock cells of the full matrix
    int colBlock = 1;
    PoolMode mode = PoolMode::Mean;
};

struct StageTime
{
    std::string stage;
    double milliseconds = 0.0;
};

struct Diagnostics
{
    std::vector<int> fullyMaskedRows; // query rows with every key masked
    std::vector<int> zeroSumRows;     // ReLU rows with no positive score (weights all 0)
    bool nonFinite = false;           // a NaN or infinity met outside masked cells
    std::string nonFiniteWhere;       // the first place, e.g. "head 1 scores row 3"
    double computeMilliseconds = 0.0;
    std::vector<StageTime> stages;
    std::vector<std::string> warnings; // one line each, for the status bar and stderr
};

// Immutable once a backend returns it.
struct AttentionResult
{
    std::shared_ptr<const Problem> problem;
    std::string backend; // "CPU", "Vulkan"
    std::string device;  // "Eigen", "llvmpipe (LLVM 15.0.6, 256 bits)"

    // X_q = E + P and X_kv, read through queryInput() and keyInput(). A backend stores them only
    // where the problem does not already hold them: without positions X_q is the problem's E,
    // and in self-attention X_kv is X_q. A model's forward keeps every layer's result, and
    // these copies were most of its memory beyond the weights at T = 512.
    Matrix storedQueryInput;
    Matrix storedKeyInput;
    std::vector<HeadResult> heads;
    Matrix output; // concat * W_O + b_O
    Pooling pooling;
    bool intermediatesKept = true;
    Diagnostics diagnostics;

    const Matrix& queryInput() const;
    const Matrix& keyInput() const;
    // Tq x (h * d_v): the heads' outputs side by side, zeros in disabled heads' columns (seed
    // 004's Cat[H_1 .. H_h]). Built when asked, not kept beside the heads' own outputs.
    Matrix concat() const;
};

// The mean of the enabled heads' weights, what "Mean of heads" shows: summed in double and
// rounded once, so a figure's cell and its tooltip (the one-cell form) agree to the bit.
// All zeros when every head is off (there is nothing to average).
Matrix meanOfEnabledHeads(const AttentionResult& result);
float meanOfEnabledHeads(const AttentionResult& result, int row, int column);

} // namespace attn::core
