#include "logit_lens.h"

#include "core/error.h"
#include "core/model/forward.h"
#include "core/model/model_loader.h"

#include <cmath>
#include <string>

namespace attn::core {
namespace {

// softmax(logits)[token] in double, the row maximum subtracted first; non-finite logits weigh 0.
double probabilityOf(const RowVector& logits, int token)
{
    double max = -INFINITY;
    for (Eigen::Index j = 0; j < logits.size(); ++j)
        if (std::isfinite(logits(j)))
            max = std::max(max, double(logits(j)));
    double sum = 0.0;
    for (Eigen::Index j = 0; j < logits.size(); ++j)
        if (std::isfinite(logits(j)))
            sum += std::exp(double(logits(j)) - max);
    return std::isfinite(logits(token)) ? std::exp(double(logits(token)) - max) / sum : 0.0;
}

} // namespace

int rankOf(const RowVector& logits, int token)
{
    const float own = logits(token);
    int before = 0;
    for (int j = 0; j < int(logits.size()); ++j)
        if (logits(j) > own || (logits(j) == own && j < token))
            ++before;
    return before + 1;
}

LogitLens logitLens(const ModelResult& run, Backend& backend, const LensOptions& options)
{
    const Model& model = *run.model;
    const TransformerWeights& w = model.weights;
    if (!w.hasLanguageModelHead())
        throw Error("the logit lens needs a language-model head, and " + model.name.toStdString() +
                    " has none");
    const int vocab = int(w.outputEmbedding().rows());
    if (options.token >= vocab || options.token < -1)
        throw Error("the logit lens: token id " + std::to_string(options.token) +
                    " is outside the vocabulary (0 to " + std::to_string(vocab - 1) + ")");
    for (int l = 0; l < run.layerCount(); ++l)
        if (run.layers[std::size_t(l)]->diagnostics.nonFinite)
            throw Error("the logit lens: the forward met non-finite values in layer " +
                        std::to_string(l + 1));

    BlockOps& ops = backend.blockOps();
    const int layers = run.layerCount();
    const int t = int(run.tokens.size());
    LogitLens lens;
    lens.top.resize(std::size_t(layers));
    lens.rank.resize(layers, t);
    lens.probability.resize(layers, t);
    // The last layer first: its top tokens are the model's own predictions, followed below.
    for (int l = layers - 1; l >= 0; --l) {
        if (options.cancel && options.cancel->load())
            throw Cancelled();
        const Matrix logits = headLogits(w, ops, finalNorm(w, ops, run.hidden[std::size_t(l + 1)]));
        auto& layer = lens.top[std::size_t(l)];
        layer.resize(std::size_t(t));
        for (int i = 0; i < t; ++i) {
            const RowVector row = logits.row(i);
            layer[std::size_t(i)] = topPredictions(model, row, std::max(1, options.topK));
            if (layer[std::size_t(i)].empty())
                throw Error("the logit lens: layer " + std::to_string(l + 1) + ", position " +
                            std::to_string(i + 1) + ": no logit is a finite number");
            if (l == layers - 1)
                lens.followed.push_back(options.token >= 0 ? options.token
                                                           : layer[std::size_t(i)].front().id);
            const int token = lens.followed[std::size_t(i)];
            lens.rank(l, i) = rankOf(row, token);
            lens.probability(l, i) = float(probabilityOf(row, token));
        }
    }
    return lens;
}

} // namespace attn::core
