#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attn::core {

// How a query meets a key (the score e_ij before scaling, masking and normalisation).
enum class ScoreKind {
    Dot,       // q_i . k_j
    ScaledDot, // q_i . k_j / sqrt(d_k)   (Vaswani et al. 2017, eq. 1)
    Additive,  // w^T tanh(q_i + k_j)     (seed 001; Bahdanau et al. 2014 without W_1, W_2)
    Bilinear,  // q_i^T M k_j             (Luong et al. 2015 "general")
    Cosine,    // q_i . k_j / (|q_i| |k_j|), 0 where either vector is zero
};

// How a row of scores becomes weights.
enum class Normalization {
    Softmax,   // exp(s / T) / sum exp(s / T), row max subtracted first
    Hard,      // one-hot at the argmax; ties go to the lowest index (seed 000)
    Relu,      // max(s, 0) / sum max(s, 0) (seed 001's "you could use ReLU")
    Sparsemax, // Euclidean projection onto the simplex (Martins & Astudillo 2016)
    None,      // none: the scaled, masked scores are the weights, masked cells 0; seed 004's
               // (X X^T) V with identity projections. Rows need not sum to 1.
};

// What a masked score becomes before normalisation.
enum class MaskFill {
    NegativeInfinity, // the cell is excluded; a fully masked row gives all-zero weights
    MinusNineE15,     // -9e15 as in seed 000's masked_fill: an ordinary (very negative) number,
                      // so a fully masked row normalises as PyTorch would (uniform under softmax)
};

enum class PoolMode { Mean, Max };

struct MaskSpec
{
    bool causal = false;       // key j > query i is masked
    int window = -1;           // local window: |i - j| > window is masked; -1 = off
    bool windowCausal = false; // one-sided window: i - window <= j <= i
    bool padding = true;       // keys flagged as padding are masked
    std::vector<std::pair<int, int>> customCells; // (query, key) cells masked by hand

    bool operator==(const MaskSpec&) const = default;
};

// The settings of one attention computation, declared once: a scene saves them (Scene), a
// problem computes with them (Problem).
struct AttentionSettings
{
    ScoreKind score = ScoreKind::ScaledDot;
    Normalization normalization = Normalization::Softmax;
    float temperature = 1.0f;
    MaskFill fill = MaskFill::NegativeInfinity;
    MaskSpec mask;

    bool operator==(const AttentionSettings&) const = default;
};

// Rotary position embedding (Su et al. 2021, RoFormer eq. 34) in the Hugging Face
// rotate-half arrangement: dimension i of a head pairs with dimension i + d_k/2, and at
// position p both turn by the angle p * inverseFrequencies[i]:
//   q'_i = q_i cos - q_{i+d/2} sin,   q'_{i+d/2} = q_{i+d/2} cos + q_i sin.
// Applied to Q and K after the projection (and its bias), before the scores.
struct RotarySpec
{
    std::vector<float> inverseFrequencies; // d_k / 2 values; empty: no rotation
    int firstPosition = 0;                 // the position of token 0

    bool enabled() const { return !inverseFrequencies.empty(); }
    bool operator==(const RotarySpec&) const = default;
};

// Plain names used by scene files, the command line and --dump.
std::string_view toString(ScoreKind kind);
std::string_view toString(Normalization normalization);
std::string_view toString(MaskFill fill);
std::string_view toString(PoolMode mode);
std::optional<ScoreKind> parseScoreKind(std::string_view name);
std::optional<Normalization> parseNormalization(std::string_view name);
std::optional<MaskFill> parseMaskFill(std::string_view name);

// "softmax|hard|relu|sparsemax|none", for messages.
std::string allNormalizationNames();

// The value written into a masked cell.
float maskFillValue(MaskFill fill);

} // namespace attn::core
