#include "training_loss.h"

#include "core/enum_names.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::core {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

int enabledHeads(const LayerParameters& p)
{
    return int(std::count_if(p.heads.begin(), p.heads.end(),
                             [](const HeadParameters& h) { return h.enabled; }));
}

int countedRows(const TrainingExample& e)
{
    return int(std::count(e.countedRows.begin(), e.countedRows.end(), true));
}

} // namespace

namespace {

constexpr EnumNames<AttentionLoss, 2> kLossNames{{{AttentionLoss::CrossEntropy, "cross-entropy"},
                                                  {AttentionLoss::SquaredError, "squared-error"}}};

} // namespace

std::string_view toString(AttentionLoss loss)
{
    return enumName(kLossNames, loss, "squared-error");
}

AttentionLoss defaultAttentionLoss(Normalization normalization, const HardSurrogate& hard)
{
    const bool softmax =
        normalization == Normalization::Softmax ||
        (normalization == Normalization::Hard && hard.mode == HardGradient::SoftmaxRelaxed);
    return softmax ? AttentionLoss::CrossEntropy : AttentionLoss::SquaredError;
}

LossValue exampleLoss(const LayerParameters& p, const LayerForward& f, const TrainingExample& e,
                      const LossSettings& settings, const HardSurrogate& hard, LayerUpstream* up)
{
    const LayerInputs& in = e.inputs;
    const int tq = in.queries();
    const int tk = in.keys();
    const int rows = countedRows(e);
    const int heads = enabledHeads(p);
    LossValue value;
    if (up) {
        up->dOutput.resize(0, 0);
        up->dWeights.assign(p.heads.size(), MatrixD());
        up->dScores.assign(p.heads.size(), MatrixD());
    }
    if (rows == 0)
        return value;

    if (settings.attentionWeight != 0.0 && heads > 0) {
        const double factor = settings.attentionWeight / double(heads * rows);
        const bool relaxed =
            in.normalization == Normalization::Hard && hard.mode == HardGradient::SoftmaxRelaxed;
        const double tau = relaxed ? hard.temperature : 1.0;
        double sum = 0.0;
        for (std::size_t h = 0; h < p.heads.size(); ++h) {
            if (!p.heads[h].enabled)
                continue;
            const HeadForward& out = f.heads[h];
            MatrixD grad = MatrixD::Zero(tq, tk);
            for (int i = 0; i < tq; ++i) {
                if (!e.countedRows[std::size_t(i)])
                    continue;
                if (settings.attention == AttentionLoss::CrossEntropy) {
                    // log w_j = v_j - max - log sum_k exp(v_k - max) over the cells that count
                    // (v = s / tau, masked cells the fill; -inf ones excluded).
                    double max = -kInf;
                    std::vector<double> v(static_cast<std::size_t>(tk));
                    for (int j = 0; j < tk; ++j) {
                        v[std::size_t(j)] = in.isMasked(i, j)
                                                ? (in.fill == MaskFill::NegativeInfinity
                                                       ? -kInf
                                                       : double(maskFillValue(in.fill)) / tau)
                                                : out.scaled(i, j) / tau;
                        max = std::max(max, v[std::size_t(j)]);
                    }
                    double z = 0.0;
                    for (int j = 0; j < tk; ++j)
                        z += std::exp(v[std::size_t(j)] - max);
                    const double logZ = max + std::log(z);
                    for (int j = 0; j < tk; ++j) {
                        const double t = e.targetWeights(i, j);
                        if (t > 0.0)
                            sum -= t * (v[std::size_t(j)] - logZ);
                        // d/ds_j of -sum t log softmax(s / tau) = (w_j - t_j) / tau (sum t = 1).
                        grad(i, j) = factor * (std::exp(v[std::size_t(j)] - logZ) - t) / tau;
                    }
                } else {
                    for (int j = 0; j < tk; ++j) {
                        const double diff = out.weights(i, j) - e.targetWeights(i, j);
                        sum += diff * diff;
                        grad(i, j) = factor * 2.0 * diff;
                    }
                }
            }
            if (up) {
                if (settings.attention == AttentionLoss::CrossEntropy)
                    up->dScores[h] = std::move(grad);
                else
                    up->dWeights[h] = std::move(grad);
            }
        }
        value.attention = factor * sum;
    }

    if (settings.outputWeight != 0.0) {
        const int d = int(f.output.cols());
        const double factor = settings.outputWeight / double(rows * d);
        MatrixD grad = MatrixD::Zero(tq, d);
        double sum = 0.0;
        for (int i = 0; i < tq; ++i) {
            if (!e.countedRows[std::size_t(i)])
                continue;
            const RowVectorD diff = f.output.row(i) - e.targetOutput.row(i);
            sum += diff.squaredNorm();
            grad.row(i) = factor * 2.0 * diff;
        }
        value.output = factor * sum;
        if (up)
            up->dOutput = std::move(grad);
    }
    value.total = value.attention + value.output;
    return value;
}

double attentionAccuracy(const LayerParameters& p, const LayerForward& f, const TrainingExample& e)
{
    int hits = 0;
    int total = 0;
    for (std::size_t h = 0; h < p.heads.size(); ++h) {
        if (!p.heads[h].enabled)
            continue;
        const MatrixD& w = f.heads[h].weights;
        for (int i = 0; i < int(w.rows()); ++i) {
            if (!e.countedRows[std::size_t(i)])
                continue;
            Eigen::Index best = 0;
            w.row(i).maxCoeff(&best);
            ++total;
            hits += e.targetWeights(i, best) > 0.0 ? 1 : 0;
        }
    }
    return total > 0 ? double(hits) / double(total) : 0.0;
}

} // namespace attn::core
