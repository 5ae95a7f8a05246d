#include "ui/presentation/presentation_extras.h"

#include "ui/concepts/concept_view.h"

#include "core/analysis/learned_kernel.h"
#include "core/analysis/mixing_weights.h"
#include "core/cpu_backend.h"
#include "core/scene.h"
#include "core/token_display.h"

#include <QCoreApplication>
#include <QLocale>
#include <algorithm>

namespace attn::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(PresentationExtras)
};

void addBlocks(const core::Scene& scene, PresentationExtras& out)
{
    const int count = core::layerCount(scene);
    const int layer = std::clamp(scene.view.layer, 0, count - 1);
    core::CpuBackend backend;
    core::ComputeOptions options;
    options.keepIntermediates = false; // the weights, outputs and the block's matrices
    out.blocks = core::forwardLayers(scene, backend, options, std::min(layer + 1, count - 1));
    out.layer = layer;
    out.layerCount = count;
    const core::StackedLayer& weights = scene.layers[std::size_t(layer)];
    out.hidden =
        backend.blockOps().dense(out.blocks[std::size_t(layer)].normed,
                                 core::stackedFeedForward(weights).in, core::Activation::Relu);
    out.normEps = double(core::stackedNorm(weights.W2.cols()).eps);
}

QStringList shown(const QStringList& tokens)
{
    QStringList out;
    for (const QString& token : tokens)
        out << core::tokenDisplayText(token);
    return out;
}

void addMixing(const core::Scene& scene, const QString& other, PresentationExtras& out)
{
    for (int head = 0; head < scene.weights.headCount(); ++head) {
        const core::MixingComparison c = core::compareMixing(scene, other, head);
        if (head == 0) {
            out.before = shown(c.before);
            out.after = shown(c.after);
        }
        PresentationExtras::Mixing m;
        for (int l = 0; l < 3; ++l) {
            for (int s = 0; s < 2; ++s)
                m.matrices[std::size_t(l)][std::size_t(s)] = c.layers[l][s].cast<float>();
            m.changes[std::size_t(l)] = (c.layers[l][1] - c.layers[l][0]).cast<float>();
            m.largest[std::size_t(l)] = c.changes[l];
        }
        out.mixing.push_back(std::move(m));
    }
}

// Two rows of a leave-one-out weight matrix: the first point's and the last's.
core::Matrix endRows(const core::MatrixD& weights)
{
    core::Matrix rows(2, weights.cols());
    rows.row(0) = weights.row(0).cast<float>();
    rows.row(1) = weights.row(weights.rows() - 1).cast<float>();
    return rows;
}

} // namespace

PresentationExtras::Kernel kernelComparison(const core::RegressionData& data, double bandwidth,
                                            const core::KernelMaps& learned)
{
    const core::KernelMaps fixed = core::KernelMaps::fixedKernel(bandwidth);
    const auto n = Eigen::Index(data.x.size());
    PresentationExtras::Kernel k;
    k.ends = {data.x.front(), data.x.back()};
    k.bandwidth = bandwidth;
    k.widths = {learned.effectiveWidth(k.ends[0]), learned.effectiveWidth(k.ends[1])};
    k.fixedRows = endRows(core::kernelWeights(data, data.x, fixed, true));
    k.learnedRows = endRows(core::kernelWeights(data, data.x, learned, true));
    const std::vector<double> fixedFit = core::kernelPredictions(data, data.x, fixed);
    const std::vector<double> learnedFit = core::kernelPredictions(data, data.x, learned);
    k.curves.resize(3, n);
    for (Eigen::Index j = 0; j < n; ++j) {
        k.curves(0, j) = float(data.y[std::size_t(j)]);
        k.curves(1, j) = float(fixedFit[std::size_t(j)]);
        k.curves(2, j) = float(learnedFit[std::size_t(j)]);
    }
    k.losses = {core::leaveOneOutLoss(data, fixed).loss, core::leaveOneOutLoss(data, learned).loss};
    const QLocale locale;
    for (const double end : k.ends)
        k.endLabels << QStringLiteral("x = %1").arg(locale.toString(end, 'g', 3));
    for (const double x : data.x)
        k.keys << locale.toString(x, 'f', 2);
    k.curveNames << QStringLiteral("y") << Words::tr("fixed h") << Words::tr("learned φ");
    return k;
}

std::shared_ptr<const PresentationExtras> presentationExtras(const core::Scene& scene,
                                                             const QString& mixingView)
{
    if (scene.checkpoint) // a real model: its layers are the model window's
        return nullptr;
    auto out = std::make_shared<PresentationExtras>();
    // A part that cannot be made leaves its steps out and says why; the window's own tab shows
    // the same message, and the twelve steps of attention stay.
    if (core::isStacked(scene)) {
        try {
            addBlocks(scene, *out);
        } catch (const std::exception& error) {
            *out = PresentationExtras();
            out->leftOut =
                QStringLiteral("the stacked blocks' steps: ") + QString::fromUtf8(error.what());
        }
    }
    const QString view = mixingView.isEmpty() ? scene.view.view : mixingView;
    const QString other = view.section(QLatin1Char(':'), 1);
    if (parseConceptView(view.section(QLatin1Char(':'), 0, 0)) == ConceptView::Mixing &&
        !other.isEmpty()) {
        try {
            addMixing(scene, other, *out);
        } catch (const std::exception& error) {
            out->mixing.clear();
            out->leftOut = QStringLiteral("the mixing steps: ") + QString::fromUtf8(error.what());
        }
    }
    if (parseConceptView(scene.view.view.section(QLatin1Char(':'), 0, 0)) == ConceptView::Kernel) {
        // The seed's comparison on its own data: the best fixed width against the maps that
        // 300 steps of Adam learn, as the Kernel tab's figure shows them. It depends on nothing
        // in the scene, and an open presentation asks again after every edit: worked out once.
        static const PresentationExtras::Kernel seeds = [] {
            const core::RegressionData data = core::RegressionData::chirp();
            return kernelComparison(data, core::bestBandwidth(data).bandwidth,
                                    core::learnKernelMaps(data).maps);
        }();
        out->kernel = seeds;
        out->kernel->data =
            Words::tr("%1 noisy points of sin(x²)").arg(core::RegressionData::chirp().x.size());
    }
    if (!out->stacked() && !out->mixes() && !out->kernels() && out->leftOut.isEmpty())
        return nullptr;
    return out;
}

} // namespace attn::ui
