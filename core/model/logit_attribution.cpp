#include "logit_attribution.h"

#include "core/error.h"
#include "core/model/model_loader.h"

#include <cmath>
#include <string>

namespace attn::core {

LogitAttribution logitAttribution(const ModelResult& run, int token)
{
    const Model& model = *run.model;
    const TransformerWeights& w = model.weights;
    if (run.predictions.empty() || run.predictions.front().top.empty())
        throw Error("direct logit attribution needs a prediction: " +
                    (run.warnings.empty() ? std::string("the model has no language-model head, "
                                                        "or the text has no [MASK]")
                                          : run.warnings.back()));
    if (w.config.placement != NormPlacement::Pre || w.headTransform.dense.present())
        throw Error("direct logit attribution needs a pre-norm model (GPT-2, Llama): " +
                    model.name.toStdString() +
                    " normalises the residual stream after every layer, so no part's share "
                    "reaches the head unchanged");
    const PositionPrediction& prediction = run.predictions.front();
    const Matrix& embedding = w.outputEmbedding();
    if (token < -1 || token >= embedding.rows())
        throw Error("direct logit attribution: token id " + std::to_string(token) +
                    " is outside the vocabulary (0 to " + std::to_string(embedding.rows() - 1) +
                    ")");
    LogitAttribution out;
    out.position = prediction.position;
    out.token = token >= 0 ? token : prediction.top.front().id;
    out.logit = prediction.logits(out.token);

    // The stream's direction onto which each part projects: the frozen norm folded into u.
    const int p = out.position;
    const Eigen::RowVectorXd x = run.hidden.back().row(p).cast<double>();
    const Eigen::RowVectorXd u = embedding.row(out.token).cast<double>();
    Eigen::RowVectorXd direction = u;
    out.bias = w.lmBias.size() ? double(w.lmBias(out.token)) : 0.0;
    if (w.finalNorm.present()) {
        const NormWeights& norm = w.finalNorm;
        const Eigen::RowVectorXd g = norm.gain.cast<double>();
        direction = g.cwiseProduct(u);
        if (norm.kind == NormKind::LayerNorm) {
            const double mean = x.mean();
            const double variance = (x.array() - mean).square().mean();
            out.scale = std::sqrt(variance + double(norm.eps));
            // (c - mean(c)) . v = c . (v - mean(v)): the centring moves onto the direction.
            direction.array() -= direction.mean();
        } else {
            out.scale = std::sqrt(x.array().square().mean() + double(norm.eps));
        }
        direction /= out.scale;
        if (norm.bias.size())
            out.bias += norm.bias.cast<double>().dot(u);
    }
    auto project = [&](const auto& row) { return row.template cast<double>().dot(direction); };

    const int layers = run.layerCount();
    out.heads = Matrix::Zero(layers, layers ? int(run.layers.front()->heads.size()) : 0);
    out.embedding = project(run.hidden.front().row(p));
    for (int l = 0; l < layers; ++l) {
        const AttentionResult& layer = *run.layers[std::size_t(l)];
        const ModelWeights& weights = *layer.problem->weights;
        // W_O's rows of head h carry that head's output into the stream.
        const Eigen::VectorXd throughWo =
            weights.Wo.cast<double>() * direction.transpose(); // (h * d_v) x 1
        for (int h = 0; h < int(layer.heads.size()); ++h) {
            const HeadResult& head = layer.heads[std::size_t(h)];
            if (head.enabled)
                out.heads(l, h) = float(head.output.row(p).cast<double>().dot(
                    throughWo.segment(Eigen::Index(h) * weights.dV, weights.dV)));
        }
        out.attentionBias.push_back(weights.bo.size() ? project(weights.bo) : 0.0);
        // The feed-forward network's output: what the layer added beyond its attention.
        out.feedForward.push_back(project(run.hidden[std::size_t(l + 1)].row(p) -
                                          run.hidden[std::size_t(l)].row(p) - layer.output.row(p)));
    }
    return out;
}

} // namespace attn::core
