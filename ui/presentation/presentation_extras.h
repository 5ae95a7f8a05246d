#pragma once

#include "core/matrix.h"
#include "core/scene_layers.h"

#include <QString>
#include <QStringList>
#include <array>
#include <memory>
#include <vector>

namespace attn::core {
struct Scene;
} // namespace attn::core

namespace attn::ui {

// What a scene adds to the twelve steps of attention (presentation_steps.h), computed once on
// the CPU when a presentation opens or its scene changes:
// - a stacked scene (core/scene_layers.h): the presented block's Add & Norm, its feed-forward
//   layer, its second Add & Norm, and its output as the next block's input;
// - a scene whose Fixed weights view names a second sentence ("mixing:SENTENCE",
//   core/analysis/mixing_weights.h): the fully connected layer's, the convolution's and
//   attention's mixing matrices before and after the word changes, and what moved.
struct PresentationExtras
{
    // Stacked blocks. `layer` is the presented block (the scene's view.layer), from 0; -1 when
    // the scene is one attention layer.
    int layer = -1;
    int layerCount = 0;
    std::vector<core::BlockForward> blocks; // 0 .. the block after `layer` (where there is one)
    core::Matrix hidden;                    // max(0, H W1 + b1) of block `layer`
    double normEps = 0.0;                   // the norms' epsilon

    // Mixing weights: the same sentence with a word changed, one entry per head.
    struct Mixing
    {
        // [fully connected, convolution, attention][before, after]; rows are output
        // positions, columns input positions.
        std::array<std::array<core::Matrix, 2>, 3> matrices;
        std::array<core::Matrix, 3> changes; // after - before
        std::array<double, 3> largest{};     // max |after - before| of each
    };
    QStringList before; // the scene's tokens, as shown
    QStringList after;  // the other sentence's
    std::vector<Mixing> mixing;

    // Why a part the scene asks for was left out ("" when nothing was), for a warning.
    QString leftOut;

    bool stacked() const { return layer >= 0 && !blocks.empty(); }
    bool mixes() const { return !mixing.empty(); }
};

// The extras of `scene` (null when it adds nothing). `mixingView` is the Fixed weights view
// as the window holds it ("mixing:the dog sat"); empty: the scene's own view.
std::shared_ptr<const PresentationExtras> presentationExtras(const core::Scene& scene,
                                                             const QString& mixingView = {});

} // namespace attn::ui
