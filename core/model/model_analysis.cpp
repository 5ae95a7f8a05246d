#include "model_analysis.h"

#include "core/error.h"
#include "core/model/model_loader.h"

#include <cmath>

namespace attn::core {
namespace {

// log softmax(logits)[target], in double with the maximum subtracted.
double logProbability(const RowVector& logits, int target)
{
    const double max = double(logits.maxCoeff());
    double sum = 0.0;
    for (Eigen::Index j = 0; j < logits.size(); ++j)
        sum += std::exp(double(logits(j)) - max);
    return double(logits(target)) - max - std::log(sum);
}

} // namespace

std::vector<Matrix> attentionRollout(const std::vector<Matrix>& layerAttention)
{
    std::vector<Matrix> rollout;
    Eigen::MatrixXd product;
    for (const Matrix& a : layerAttention) {
        Eigen::MatrixXd withResidual =
            0.5 * a.cast<double>() + 0.5 * Eigen::MatrixXd::Identity(a.rows(), a.cols());
        for (Eigen::Index i = 0; i < withResidual.rows(); ++i) {
            const double sum = withResidual.row(i).sum();
            if (sum > 0.0)
                withResidual.row(i) /= sum;
        }
        product = product.size() ? Eigen::MatrixXd(withResidual * product) : withResidual;
        rollout.push_back(product.cast<float>());
    }
    return rollout;
}

std::vector<Matrix> attentionRollout(const ModelResult& result)
{
    std::vector<Matrix> layers;
    for (const auto& layer : result.layers)
        layers.push_back(meanOfEnabledHeads(*layer)); // what a layer mixes, as the rollout reads it
    return attentionRollout(layers);
}

HeadImportance headImportance(const std::shared_ptr<const ModelResult>& base, Backend& backend,
                              const ImportanceOptions& options)
{
    if (base->predictions.empty())
        throw Error(
            "head importance needs a prediction: the model has no language-model head, or the text "
            "has no [MASK]");
    if (base->predictions.front().top.empty()) // the forward says why ("... non-finite values ...")
        throw Error("head importance needs a prediction: " +
                    (base->warnings.empty() ? std::string("the forward made none")
                                            : base->warnings.back()));
    HeadImportance importance;
    const PositionPrediction& prediction = base->predictions.front();
    importance.position = prediction.position;
    importance.target = prediction.top.front().id;
    importance.baseLogProbability = logProbability(prediction.logits, importance.target);

    const int layers = base->layerCount();
    const int heads = layers ? int(base->layers.front()->heads.size()) : 0;
    importance.drop = Matrix::Zero(layers, heads);
    ForwardOptions forward;
    forward.keepIntermediates = false; // only the logits are read
    forward.topK = 1;
    const int total = layers * heads;
    int done = 0;
    for (int l = 0; l < layers; ++l) {
        for (int h = 0; h < heads; ++h) {
            if (options.cancel && options.cancel->load())
                throw Cancelled();
            Interventions ablated = base->interventions;
            if (ablated.headsOff.insert({l, h}).second) {
                const auto run =
                    runModel(base->model, base->tokens, ablated, backend, forward, base);
                importance.drop(l, h) =
                    float(importance.baseLogProbability -
                          logProbability(run->predictions.front().logits, importance.target));
            }
            if (options.progress)
                options.progress(++done, total);
        }
    }
    return importance;
}

} // namespace attn::core
