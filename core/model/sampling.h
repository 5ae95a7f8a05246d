#pragma once

#include "core/matrix.h"

#include <cstdint>
#include <vector>

namespace attn::core {

class Random;

// How the next token is chosen from a row of logits, in the order Hugging Face's logits
// processors apply them: the repetition penalty, then the temperature, top-k and top-p.
struct SamplingSettings
{
    // Divides the logits before the softmax. 0 means greedy (the most likely token, the lowest
    // id among equals), the limit of a vanishing temperature; no random number is drawn.
    float temperature = 1.0f;
    int topK = 0;                   // keep the k most likely tokens; 0: all of them
    float topP = 1.0f;              // nucleus (Holtzman et al. 2020), in (0, 1]; 1: all of them
    float repetitionPenalty = 1.0f; // CTRL (Keskar et al. 2019) as transformers applies it; >= 1
    std::uint64_t seed = 0;         // of the draws (core/random.h: the same on every platform)

    bool greedy() const { return temperature == 0.0f; }
    // Throws Error naming the setting: a temperature below 0, top-k below 0, top-p outside
    // (0, 1], a repetition penalty of 0 or less, or any of them not a number.
    void validate() const;
};

// CTRL's penalty on every token of `previous`, once per token: a positive logit is divided by
// `penalty`, a negative one multiplied (both make the token less likely).
void applyRepetitionPenalty(RowVector& logits, const std::vector<int>& previous, float penalty);

// softmax(logits / temperature) over the whole vocabulary, in double with the maximum
// subtracted; non-finite logits get probability 0. Temperature 0: 1 at the greedy token.
std::vector<double> softmaxAt(const RowVector& logits, float temperature);

// The distribution the token is drawn from: softmaxAt(logits, temperature), every token outside
// the k most likely and outside the smallest set whose probability reaches top-p set to 0 (the
// token that crosses top-p kept; at least one token always kept), renormalised to sum to 1.
// Order among equal probabilities: the lower id first.
std::vector<double> filteredDistribution(const RowVector& logits, const SamplingSettings& settings);

// The most likely token (the lowest id among equals); -1 when no logit is finite.
int greedyToken(const RowVector& logits);

// One draw from `distribution` (which sums to 1): the first id whose cumulative probability
// exceeds a uniform number from `random`.
int drawToken(const std::vector<double>& distribution, Random& random);

} // namespace attn::core
