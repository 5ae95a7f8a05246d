#pragma once

#include "core/matrix.h"
#include "core/scene_layers.h"

#include <QString>
#include <QStringList>
#include <array>
#include <memory>
#include <optional>
#include <vector>

namespace attn::core {
struct Scene;
struct RegressionData;
struct KernelMaps;
} // namespace attn::core

namespace attn::ui {

// What a scene adds to the twelve steps of attention (presentation_steps.h), computed once on
// the CPU when a presentation opens or its scene changes:
// - a stacked scene (core/scene_layers.h): the presented block's Add & Norm, its feed-forward
//   layer, its second Add & Norm, and its output as the next block's input;
// - a scene whose Fixed weights view names a second sentence ("mixing:SENTENCE",
//   core/analysis/mixing_weights.h): the fully connected layer's, the convolution's and
//   attention's mixing matrices before and after the word changes, and what moved;
// - a scene whose view is the Kernel tab's (example 15's smoother, example 27's learned
//   kernel): seed 004's fixed Gaussian kernel against learned query and key maps
//   (core/analysis/learned_kernel.h) on core::RegressionData::chirp().
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

    // Seed 004's kernels, for the first and the last point (the two ends of the line).
    struct Kernel
    {
        std::array<double, 2> ends{};   // x of the first and the last point
        double bandwidth = 0.0;         // the fixed kernel's h, the same everywhere
        std::array<double, 2> widths{}; // the learned kernel's width at the two ends
        core::Matrix fixedRows;         // 2 x n: each end's weights, leaving itself out
        core::Matrix learnedRows;       // the same under the learned maps
        core::Matrix curves;            // 3 x n: y, the fixed fit, the learned fit
        std::array<double, 2> losses{}; // leave-one-out error: fixed, learned
        QStringList endLabels;          // "x = 0", "x = 3": the rows' labels
        QStringList keys;               // each point's x: the columns' labels
        QStringList curveNames;         // "y", "fixed h", "learned": the curves' labels
        QString data;                   // what the points are ("" for a test's own)
    };
    std::optional<Kernel> kernel;

    // Why a part the scene asks for was left out ("" when nothing was), for a warning.
    QString leftOut;

    bool stacked() const { return layer >= 0 && !blocks.empty(); }
    bool mixes() const { return !mixing.empty(); }
    bool kernels() const { return kernel.has_value(); }
};

// The extras of `scene` (null when it adds nothing). `mixingView` is the Fixed weights view
// as the window holds it ("mixing:the dog sat"); empty: the scene's own view.
std::shared_ptr<const PresentationExtras> presentationExtras(const core::Scene& scene,
                                                             const QString& mixingView = {});

// The kernel steps' numbers for `data`: the fixed kernel of width `bandwidth` against `learned`
// (the weights and fits through core/analysis/learned_kernel.h). Needs two points or more.
PresentationExtras::Kernel kernelComparison(const core::RegressionData& data, double bandwidth,
                                            const core::KernelMaps& learned);

} // namespace attn::ui
