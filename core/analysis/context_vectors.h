#pragma once

#include "core/training/layer_parameters.h"

#include <QString>
#include <QStringList>

namespace attn::core {

struct Scene;

// Seed 000: "don't learn one global representation ... rather learn context-sensitive token
// representations". One word in the scene's sentence and in another sentence, through the
// same layer: its input vector is the same in both (an embedding is a lookup; without positions
// nothing else is added), its output differs because its weights over the other words do.
struct ContextComparison
{
    QString word;
    QStringList sentences;       // the scene's text and the other
    MatrixD inputs;              // 2 x d_model: the word's input row x in each sentence
    MatrixD outputs;             // 2 x d_model: its output row y (Concat(H) W^O + b^O)
    double inputDifference = 0;  // max |x_1 - x_2|
    double outputDifference = 0; // max |y_1 - y_2|
    double outputCosine = 0;     // cos(y_1, y_2)
};

// Computes the scene as it is and with its text replaced by `otherText` (the same weights,
// on the CPU backend) and compares the first occurrence of `word` in each. Throws Error when
// the scene is cross-attention or `word` is not a token of both sentences.
ContextComparison compareContexts(const Scene& scene, const QString& otherText,
                                  const QString& word);

} // namespace attn::core
