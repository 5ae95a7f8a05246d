#include "attention_layer.h"

#include "core/enum_names.h"
#include "core/error.h"
#include "core/problem.h"
#include "core/training/normalization_gradients.h"
#include "core/training/score_gradients.h"

#include <cmath>

namespace attn::core {
namespace {

bool usesSurrogate(const LayerInputs& inputs, const HardSurrogate& hard)
{
    return inputs.normalization == Normalization::Hard && hard.mode != HardGradient::Zero;
}

void addBiasRows(MatrixD& m, const RowVectorD& bias)
{
    if (bias.size() > 0)
        m.rowwise() += bias;
}

} // namespace

namespace {

constexpr EnumNames<HardGradient, 3> kHardGradientNames{
    {{HardGradient::Zero, "zero"},
     {HardGradient::StraightThrough, "straight-through"},
     {HardGradient::SoftmaxRelaxed, "relaxed"}}};

} // namespace

std::string_view toString(HardGradient mode)
{
    return enumName(kHardGradientNames, mode, "?");
}

std::optional<HardGradient> parseHardGradient(std::string_view name)
{
    return enumFromName(kHardGradientNames, name);
}

LayerInputs LayerInputs::fromProblem(const Problem& problem)
{
    LayerInputs in;
    in.queryInput = problem.queryInput().cast<double>();
    in.keyInput = problem.keyInput().cast<double>();
    const Mask mask = problem.makeMask();
    const int tq = problem.queryCount();
    const int tk = problem.keyCount();
    in.masked.resize(std::size_t(tq) * std::size_t(tk));
    for (int i = 0; i < tq; ++i)
        mask.fillRow(i, in.masked.data() + std::size_t(i) * std::size_t(tk));
    in.score = problem.score;
    in.normalization = problem.normalization;
    in.fill = problem.fill;
    in.temperature = problem.temperature;
    return in;
}

double LayerInputs::scoreScale(int dK) const
{
    const double scale = score == ScoreKind::ScaledDot ? 1.0 / std::sqrt(double(dK)) : 1.0;
    return scale / temperature;
}

LayerForward forwardLayer(const LayerParameters& p, const LayerInputs& in,
                          const HardSurrogate& hard)
{
    const int tq = in.queries();
    const int tk = in.keys();
    const int dv = p.dV();
    const double scale = in.scoreScale(p.dK());
    const bool surrogate = usesSurrogate(in, hard);
    LayerForward f;
    f.heads.resize(p.heads.size());
    f.concat = MatrixD::Zero(tq, Eigen::Index(p.heads.size()) * dv);
    for (std::size_t h = 0; h < p.heads.size(); ++h) {
        const HeadParameters& w = p.heads[h];
        HeadForward& out = f.heads[h];
        out.Q = in.queryInput * w.Wq;
        out.K = in.keyInput * w.Wk;
        out.V = in.keyInput * w.Wv;
        addBiasRows(out.Q, w.bq);
        addBiasRows(out.K, w.bk);
        addBiasRows(out.V, w.bv);
        out.raw = scoreForward(in.score, out.Q, out.K, w, &out.additiveTanh);
        out.scaled = out.raw * scale;
        out.weights.resize(tq, tk);
        if (surrogate)
            out.surrogate.resize(tq, tk);
        for (int i = 0; i < tq; ++i) {
            const std::uint8_t* masked = in.masked.data() + std::size_t(i) * std::size_t(tk);
            normalizeRowD(out.scaled.row(i).data(), masked, tk, in.normalization, in.fill,
                          out.weights.row(i).data());
            if (surrogate) {
                const RowVectorD soft = out.scaled.row(i) / hard.temperature;
                normalizeRowD(soft.data(), masked, tk, Normalization::Softmax, in.fill,
                              out.surrogate.row(i).data());
            }
        }
        if (surrogate && hard.mode == HardGradient::SoftmaxRelaxed)
            out.weights = out.surrogate;
        out.output = out.weights * out.V; // b_i = sum_j alpha_ij v_j (seed 001)
        if (w.enabled)
            f.concat.middleCols(Eigen::Index(h) * dv, dv) = out.output;
    }
    f.output = f.concat * p.Wo; // seed 004: Z = Cat[H_1 .. H_h] W^O + b_O
    addBiasRows(f.output, p.bo);
    return f;
}

LayerParameters backwardLayer(const LayerParameters& p, const LayerInputs& in,
                              const LayerForward& f, const LayerUpstream& up,
                              const HardSurrogate& hard, InputGradients* dInputs)
{
    const int tq = in.queries();
    const int tk = in.keys();
    const int dv = p.dV();
    const double scale = in.scoreScale(p.dK());
    const bool surrogate = usesSurrogate(in, hard);
    LayerParameters g = p.zerosLike();
    if (dInputs) {
        dInputs->query = MatrixD::Zero(tq, in.queryInput.cols());
        dInputs->key = MatrixD::Zero(tk, in.keyInput.cols());
    }

    MatrixD dConcat;
    if (up.dOutput.size() > 0) {
        g.Wo = f.concat.transpose() * up.dOutput;
        if (g.bo.size() > 0)
            g.bo = up.dOutput.colwise().sum();
        dConcat = up.dOutput * p.Wo.transpose();
    }

    for (std::size_t h = 0; h < p.heads.size(); ++h) {
        const HeadParameters& w = p.heads[h];
        if (!w.enabled)
            continue; // its output is left out and nothing supervises it
        const HeadForward& out = f.heads[h];
        HeadParameters& gh = g.heads[h];

        // weights x V: dA = dH V^T, dV = A^T dH.
        MatrixD dA = MatrixD::Zero(tq, tk);
        MatrixD dV = MatrixD::Zero(tk, dv);
        if (dConcat.size() > 0) {
            const auto dH = dConcat.middleCols(Eigen::Index(h) * dv, dv);
            dA = dH * out.V.transpose();
            dV = out.weights.transpose() * dH;
        }
        if (h < up.dWeights.size() && up.dWeights[h].size() > 0)
            dA += up.dWeights[h];

        // The normalization (and the mask: masked cells get 0), row by row.
        MatrixD dScaled(tq, tk);
        for (int i = 0; i < tq; ++i) {
            const std::uint8_t* masked = in.masked.data() + std::size_t(i) * std::size_t(tk);
            if (surrogate) {
                // d softmax(s / tau) / ds: the softmax backward, then the 1/tau of the argument.
                const RowVectorD soft = out.scaled.row(i) / hard.temperature;
                normalizeRowBackward(soft.data(), masked, tk, Normalization::Softmax, in.fill,
                                     out.surrogate.row(i).data(), dA.row(i).data(),
                                     dScaled.row(i).data());
                dScaled.row(i) /= hard.temperature;
            } else {
                normalizeRowBackward(out.scaled.row(i).data(), masked, tk, in.normalization,
                                     in.fill, out.weights.row(i).data(), dA.row(i).data(),
                                     dScaled.row(i).data());
            }
            if (h < up.dScores.size() && up.dScores[h].size() > 0)
                for (int j = 0; j < tk; ++j)
                    if (!masked[j])
                        dScaled(i, j) += up.dScores[h](i, j);
        }

        // The scale, then the score function.
        const MatrixD dRaw = dScaled * scale;
        const ScoreGradients gs = scoreBackward(in.score, dRaw, out.Q, out.K, w, &out.additiveTanh);
        if (gs.dwAdditive.size() > 0)
            gh.wAdditive = gs.dwAdditive;
        if (gs.dBilinear.size() > 0)
            gh.bilinear = gs.dBilinear;

        // The projections Q = X_q W_q + b_q, K = X_kv W_k + b_k, V = X_kv W_v + b_v.
        gh.Wq = in.queryInput.transpose() * gs.dQ;
        gh.Wk = in.keyInput.transpose() * gs.dK;
        gh.Wv = in.keyInput.transpose() * dV;
        if (gh.bq.size() > 0)
            gh.bq = gs.dQ.colwise().sum();
        if (gh.bk.size() > 0)
            gh.bk = gs.dK.colwise().sum();
        if (gh.bv.size() > 0)
            gh.bv = dV.colwise().sum();
        if (dInputs) {
            dInputs->query += gs.dQ * w.Wq.transpose();
            dInputs->key += gs.dK * w.Wk.transpose() + dV * w.Wv.transpose();
        }
    }
    return g;
}

} // namespace attn::core
