#pragma once

#include "core/training/layer_parameters.h"

#include <vector>

namespace attn::core {

struct AttentionResult;

// Seed 000's two problems of hard attention, p_i = 1 at the argmax and 0 elsewhere: it "cannot
// model many-to-one" (a query keeps one key, sum_i p_i = 1), and it "is not differentiable"
// (the argmax is flat almost everywhere). Both read off the same scaled, masked scores: their
// softmax against their argmax, and what the argmax drops of each row.
struct HardAttentionLoss
{
    int head = 0;
    MatrixD soft;             // Tq x Tk: softmax of the head's masked scores, row by row
    MatrixD hard;             // Tq x Tk: 1 at each row's argmax (ties: the lowest key), else 0
    std::vector<int> chosen;  // each row's argmax key; -1 for a row with every key masked
    std::vector<double> kept; // soft(i, chosen_i): the mass the argmax keeps
    std::vector<double> lost; // 1 - kept: the soft weight of every other key, dropped
    // The other key of each row with the most soft weight (its second choice), -1 for none, and
    // that weight: what a many-to-one alignment would have kept.
    std::vector<int> runnerUp;
    std::vector<double> runnerUpWeight;
};

// For `head` of a result with intermediates (its masked scores), any normalization: the
// figure compares whatever the scene computes with both. Throws Error naming what is missing.
HardAttentionLoss hardAttentionLoss(const AttentionResult& result, int head);

} // namespace attn::core
