#include "kv_cache.h"

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/model/forward.h"
#include "core/model/model_loader.h"

#include <algorithm>
#include <cmath>

namespace attn::core {
namespace {

// Rows appended below a matrix (Eigen's conservativeResize keeps the old rows).
void appendRows(Matrix& to, const Matrix& rows)
{
    const Eigen::Index old = to.rows();
    to.conservativeResize(old + rows.rows(), rows.cols());
    to.bottomRows(rows.rows()) = rows;
}

Matrix project(const Matrix& x, const Matrix& w, const RowVector& b)
{
    Matrix y = x * w;
    if (b.size())
        y.rowwise() += b;
    return y;
}

} // namespace

std::unique_ptr<KvCache> KvCache::fromResult(const ModelResult& result)
{
    const Model& model = *result.model;
    if (!model.config().causal || result.layers.empty() || result.tokens.empty())
        return nullptr;
    auto cache = std::unique_ptr<KvCache>(new KvCache());
    cache->m_model = result.model;
    cache->m_length = int(result.tokens.size());
    for (const auto& attention : result.layers) {
        const Problem& p = *attention->problem;
        // The forward's own settings (forward.cpp's layerProblem): anything else an
        // intervention set is left to whole forwards.
        MaskSpec mask;
        mask.causal = true;
        if (model.config().slidingWindow) {
            mask.window = *model.config().slidingWindow - 1;
            mask.windowCausal = true;
        }
        if (p.score != ScoreKind::ScaledDot || p.normalization != Normalization::Softmax ||
            !(p.mask == mask) || p.cross)
            return nullptr;
        Layer layer;
        layer.problem = attention->problem;
        for (const HeadResult& head : attention->heads) {
            if (head.K.rows() != cache->m_length || head.V.rows() != cache->m_length)
                return nullptr; // a backend that kept no keys
            layer.keys.push_back(!p.rotary.enabled()    ? head.K
                                 : head.rotatedK.size() ? head.rotatedK
                                                        : rotateHalf(head.K, p.rotary));
            layer.values.push_back(head.V);
        }
        cache->m_layers.push_back(std::move(layer));
    }
    return cache;
}

std::int64_t KvCache::bytes() const
{
    std::int64_t total = 0;
    for (const Layer& layer : m_layers)
        for (std::size_t h = 0; h < layer.keys.size(); ++h)
            total += std::int64_t(layer.keys[h].size() + layer.values[h].size()) *
                     std::int64_t(sizeof(float));
    return total;
}

// The new rows' attention output (n x d_model): for each head, the new queries against every
// cached and new key, softmax over the keys the mask leaves (Vaswani et al. 2017, eq. 1), the
// heads concatenated (those switched off as zeros) and projected by W_O.
Matrix KvCache::attend(Layer& layer, const Matrix& x) const
{
    const Problem& p = *layer.problem;
    const ModelWeights& w = *p.weights;
    const int n = int(x.rows());
    const int first = m_length; // the position of the first new row
    const float scale = p.scoreScale();
    Matrix heads = Matrix::Zero(n, Eigen::Index(w.headCount()) * w.dV);
    for (int h = 0; h < w.headCount(); ++h) {
        const HeadWeights& head = w.heads[std::size_t(h)];
        Matrix q = project(x, head.Wq, head.bq);
        Matrix k = project(x, head.Wk, head.bk);
        if (p.rotary.enabled()) {
            RotarySpec at = p.rotary;
            at.firstPosition = first;
            q = rotateHalf(q, at);
            k = rotateHalf(k, at);
        }
        appendRows(layer.keys[std::size_t(h)], k);
        appendRows(layer.values[std::size_t(h)], project(x, head.Wv, head.bv));
        if (!head.enabled)
            continue;
        const Matrix& keys = layer.keys[std::size_t(h)];
        const Matrix& values = layer.values[std::size_t(h)];
        Matrix scores = (q * scale) * keys.transpose(); // n x (first + n)
        for (int i = 0; i < n; ++i) {
            const int position = first + i;
            // Causal: keys up to the query's own position; a causal window W: the last W + 1.
            const int lo = p.mask.window >= 0 ? std::max(0, position - p.mask.window) : 0;
            const int count = position - lo + 1;
            auto row = scores.row(i).segment(lo, count);
            const float max = row.maxCoeff();
            Eigen::RowVectorXf e = (row.array() - max).exp();
            e /= e.sum();
            heads.block(i, Eigen::Index(h) * w.dV, 1, w.dV) = e * values.middleRows(lo, count);
        }
    }
    Matrix out = heads * w.Wo;
    if (w.bo.size())
        out.rowwise() += w.bo;
    return out;
}

RowVector KvCache::append(const std::vector<Token>& tokens, BlockOps& ops,
                          const std::atomic<bool>* cancel)
{
    if (m_broken)
        throw Error("the key/value cache was left half-way by a cancelled step");
    if (tokens.empty())
        throw Error("the key/value cache: no token to append");
    const Model& model = *m_model;
    const TransformerWeights& w = model.weights;
    const int n = int(tokens.size());
    const int context = std::min(kMaxTokens, model.config().maxPositions);
    if (m_length + n > context)
        throw Error("the key/value cache: " + std::to_string(m_length + n) +
                    " tokens are more than the model's context of " + std::to_string(context));
    checkTokenIds(model, tokens);

    // The new rows' embeddings: a learned position table is read at their own positions.
    Matrix x(n, w.config.dModel);
    for (int i = 0; i < n; ++i)
        x.row(i) = w.tokenEmbedding.row(tokens[std::size_t(i)].id);
    if (w.config.embeddingScale != 1.0f)
        x *= w.config.embeddingScale;
    if (w.config.positions == PositionKind::Learned)
        x += w.positionEmbedding.middleRows(m_length, n);
    if (w.tokenTypeEmbedding.size())
        x.rowwise() += w.tokenTypeEmbedding.row(0);
    if (w.embeddingNorm.present())
        x = ops.norm(x, w.embeddingNorm);

    const bool pre = w.config.placement == NormPlacement::Pre;
    m_broken = true; // until every layer has its new rows
    for (std::size_t l = 0; l < w.layers.size(); ++l) {
        if (cancel && cancel->load())
            throw Cancelled();
        const TransformerLayer& layer = w.layers[l];
        // As forward.cpp's runModel does it, on the new rows.
        const Matrix attentionInput = pre ? ops.norm(x, layer.attentionNorm) : x;
        Matrix h = x + attend(m_layers[l], attentionInput);
        if (!pre)
            h = ops.norm(h, layer.attentionNorm);
        Matrix f;
        if (w.config.parallelResidual) // GPT-NeoX, Phi: both branches read the block's input
            f = ops.feedForward(w.config.sharedBlockNorm ? attentionInput
                                                         : ops.norm(x, layer.feedForwardNorm),
                                layer.feedForward);
        else
            f = ops.feedForward(pre ? ops.norm(h, layer.feedForwardNorm) : h, layer.feedForward);
        f += h;
        x = pre ? std::move(f) : ops.norm(f, layer.feedForwardNorm);
    }
    m_length += n;
    m_broken = false;
    Matrix last = x.bottomRows(1);
    if (w.finalNorm.present())
        last = ops.norm(last, w.finalNorm);
    return ops.logits(last, w.outputEmbedding(), w.lmBias);
}

} // namespace attn::core
