#include "layer_parameters.h"

namespace attn::core {
namespace {

MatrixD toDouble(const Matrix& m)
{
    return m.cast<double>();
}

RowVectorD toDouble(const RowVector& v)
{
    return v.cast<double>();
}

} // namespace

LayerParameters LayerParameters::fromWeights(const ModelWeights& weights)
{
    LayerParameters p;
    p.heads.reserve(weights.heads.size());
    for (const HeadWeights& w : weights.heads) {
        HeadParameters h;
        h.enabled = w.enabled;
        h.Wq = toDouble(w.Wq);
        h.Wk = toDouble(w.Wk);
        h.Wv = toDouble(w.Wv);
        h.bq = toDouble(w.bq);
        h.bk = toDouble(w.bk);
        h.bv = toDouble(w.bv);
        h.wAdditive = toDouble(w.wAdditive);
        h.bilinear = toDouble(w.bilinear);
        p.heads.push_back(std::move(h));
    }
    p.Wo = toDouble(weights.Wo);
    p.bo = toDouble(weights.bo);
    return p;
}

ModelWeights LayerParameters::toWeights(const ModelWeights& like) const
{
    ModelWeights w = like;
    for (std::size_t i = 0; i < heads.size() && i < w.heads.size(); ++i) {
        const HeadParameters& h = heads[i];
        HeadWeights& out = w.heads[i];
        out.enabled = h.enabled;
        out.Wq = h.Wq.cast<float>();
        out.Wk = h.Wk.cast<float>();
        out.Wv = h.Wv.cast<float>();
        out.bq = h.bq.cast<float>();
        out.bk = h.bk.cast<float>();
        out.bv = h.bv.cast<float>();
        out.wAdditive = h.wAdditive.cast<float>();
        out.bilinear = h.bilinear.cast<float>();
    }
    w.Wo = Wo.cast<float>();
    w.bo = bo.cast<float>();
    return w;
}

LayerParameters LayerParameters::zerosLike() const
{
    LayerParameters z = *this;
    for (ParameterBlock& block : parameterBlocks(z))
        Eigen::Map<Eigen::ArrayXd>(block.data, block.size).setZero();
    return z;
}

std::vector<ParameterBlock> parameterBlocks(LayerParameters& p)
{
    std::vector<ParameterBlock> blocks;
    auto add = [&blocks](std::string name, ParameterRole role, int head, bool bias, auto& m) {
        if (m.size() > 0)
            blocks.push_back({std::move(name), role, head, bias, m.data(), m.size()});
    };
    for (std::size_t i = 0; i < p.heads.size(); ++i) {
        HeadParameters& h = p.heads[i];
        const int head = int(i);
        const std::string prefix = "heads[" + std::to_string(i) + "].";
        add(prefix + "W_q", ParameterRole::Query, head, false, h.Wq);
        add(prefix + "b_q", ParameterRole::Query, head, true, h.bq);
        add(prefix + "W_k", ParameterRole::Key, head, false, h.Wk);
        add(prefix + "b_k", ParameterRole::Key, head, true, h.bk);
        add(prefix + "W_v", ParameterRole::Value, head, false, h.Wv);
        add(prefix + "b_v", ParameterRole::Value, head, true, h.bv);
        add(prefix + "w_additive", ParameterRole::Score, head, false, h.wAdditive);
        add(prefix + "bilinear", ParameterRole::Score, head, false, h.bilinear);
    }
    add("W_o", ParameterRole::Output, -1, false, p.Wo);
    add("b_o", ParameterRole::Output, -1, true, p.bo);
    return blocks;
}

} // namespace attn::core
