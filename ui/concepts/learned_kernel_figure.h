#pragma once

#include "ui/figures/figure_spec.h"

#include <QString>
#include <optional>

class QCustomPlot;

namespace attn::core {
struct Scene;
}

namespace attn::ui {

// What the Kernel tab shows: attention as a smoother of draggable points (the scene's view
// "kernel"), or seed 004's fixed kernel against learned query and key maps ("kernel:learned").
enum class KernelPart {
    Smoother,
    Learned,
};
std::optional<KernelPart> parseKernelPart(const QString& name); // "", "learned"
QString kernelPartName(KernelPart part);
// The part the scene's view names; Smoother for any other view.
KernelPart kernelPartOf(const core::Scene& scene);

// Seed 004 on core::RegressionData::chirp(): the fixed Gaussian kernel at its best width beside
// attention with learned maps φ_q, φ_k (core/analysis/learned_kernel.h): both fitted curves, each
// kernel's width along the line, and both leave-one-out weight matrices (which point each point
// weighs). The training runs once per process, in a few milliseconds.
void buildLearnedKernelFigure(QCustomPlot& plot, const FigureSpec& spec);

} // namespace attn::ui
