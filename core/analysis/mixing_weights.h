#pragma once

#include "core/training/layer_parameters.h"

#include <QString>
#include <QStringList>
#include <cstdint>

namespace attn::core {

struct Scene;

// Seeds 001 and 004: a fully connected layer over the sequence mixes the words with weights
// fixed by their positions ("the 2nd word is not the same as the 4th"), a convolution with a
// fixed window, attention with weights computed from the input. Each as its mixing matrix M
// (rows = output positions, columns = input positions, y_i = sum_j M_ij x_j).

// The fully connected layer's n x n matrix: drawn once from std::mt19937(seed), entry
// (g() % 1000 + 1) / 1000 in row-major order, each row divided by its sum. The words never
// enter it.
MatrixD fullyConnectedMixing(int n, std::uint64_t seed);
// A convolution with the window 1/4, 1/2, 1/4 (previous, same, next word), zero padding at
// the ends: the same three weights in every row, shifted.
MatrixD convolutionMixing(int n);

struct MixingComparison
{
    QStringList before;            // the scene's tokens
    QStringList after;             // the other sentence's tokens (the same count)
    MatrixD layers[3][2];          // [fully connected, convolution, attention][before, after]
    double changes[3] = {0, 0, 0}; // max |after - before| of each layer's matrix
};

// The scene's sentence and `otherText` (the same number of tokens: a word changed or two
// swapped) through the three layers; attention is the scene's head `head` on the CPU backend.
// Throws Error for cross-attention, a head out of range or another token count.
MixingComparison compareMixing(const Scene& scene, const QString& otherText, int head);

} // namespace attn::core
