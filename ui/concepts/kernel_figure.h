#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_spec.h"

#include "core/analysis/kernel_smoother.h"

#include <vector>

class QCustomPlot;
class QCPAxisRect;

namespace attn::ui {

// Seed 004's kernel-machine view in one dimension: keys are points on a line, values their
// targets; each normalization's estimate f(q) = sum_j w_j(q) v_j is drawn as the query sweeps
// the line.
struct KernelSetup
{
    std::vector<double> keys;
    std::vector<double> values;
    double bandwidth = 1.0; // h: softmax of the distance score is a Gaussian kernel of width h
    core::SmootherScore score = core::SmootherScore::Distance;
    std::vector<core::Normalization> normalizations{
        core::Normalization::Softmax, core::Normalization::Relu, core::Normalization::Sparsemax,
        core::Normalization::Hard};
    double from = -4.0; // the swept range of queries
    double to = 4.0;

    // Seven points whose values rise and fall, so that smoothing (softmax), local averaging
    // (ReLU, sparsemax) and nearest neighbour (hard) each look different.
    static KernelSetup defaults();
};

// The temperature T divides the scores; with the distance score 1 − (q − k)² / 2 that is a
// Gaussian kernel of variance T, so the bandwidth is √T.
double bandwidthForTemperature(double temperature);

inline constexpr int kKernelCurveSamples = 400;

// The 1-D panel alone, at (row, column) of the plot's body; what the view drags points on.
QCPAxisRect* addKernelPanel(QCustomPlot& plot, const KernelSetup& setup, const FigureSpec& spec);

// The figure: the 1-D smoother of `setup` and, when source.result has a head to show, its
// queries and keys on their first two principal components (core::projectQueriesAndKeys)
// with the focused query's weights drawn as lines to the keys.
void buildKernelFigure(QCustomPlot& plot, const KernelSetup& setup, const ConceptSource& source,
                       const FigureSpec& spec);

// The command line's figure: the default points, the bandwidth from the scene's temperature;
// the learned kernel's figure where the scene's view is "kernel:learned".
void buildKernelFigure(QCustomPlot& plot, const ConceptSource& source, const FigureSpec& spec);

} // namespace attn::ui
