#include "kv_cache.h"

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/model/forward.h"
#include "core/model/model_loader.h"
#include "core/parallel.h"

#include <algorithm>
#include <chrono>
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
        // A score bias (T5's relative positions) grows with the length: not cached here.
        if (p.score != ScoreKind::ScaledDot || p.normalization != Normalization::Softmax ||
            !(p.mask == mask) || p.cross || p.scoreBias)
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
// heads concatenated (those switched off as zeros) and projected by W_O. With `kept`, each
// head's new rows as a whole forward keeps them (also a switched-off head's).
Matrix KvCache::attend(Layer& layer, const Matrix& x, std::vector<HeadResult>* kept) const
{
    const Problem& p = *layer.problem;
    const ModelWeights& w = *p.weights;
    const int n = int(x.rows());
    const int first = m_length; // the position of the first new row
    const float scale = p.scoreScale();
    Matrix heads = Matrix::Zero(n, Eigen::Index(w.headCount()) * w.dV);
    if (kept)
        kept->assign(std::size_t(w.headCount()), HeadResult{});
    for (int h = 0; h < w.headCount(); ++h) {
        const HeadWeights& head = w.heads[std::size_t(h)];
        HeadResult* out = kept ? &(*kept)[std::size_t(h)] : nullptr;
        Matrix q = project(x, head.Wq, head.bq);
        Matrix k = project(x, head.Wk, head.bk);
        Matrix v = project(x, head.Wv, head.bv);
        if (out) {
            out->enabled = head.enabled;
            out->Q = q;
            out->K = k;
            out->V = v;
        }
        if (p.rotary.enabled()) {
            RotarySpec at = p.rotary;
            at.firstPosition = first;
            q = rotateHalf(q, at);
            k = rotateHalf(k, at);
            if (out) {
                out->rotatedQ = q;
                out->rotatedK = k;
            }
        }
        appendRows(layer.keys[std::size_t(h)], k);
        appendRows(layer.values[std::size_t(h)], v);
        if (!head.enabled && !out)
            continue;
        const Matrix& keys = layer.keys[std::size_t(h)];
        const Matrix& values = layer.values[std::size_t(h)];
        Matrix scores = (q * scale) * keys.transpose(); // n x (first + n)
        if (out) {
            out->weights = Matrix::Zero(n, first + n);
            out->output.resize(n, w.dV);
        }
        for (int i = 0; i < n; ++i) {
            const int position = first + i;
            // Causal: keys up to the query's own position; a causal window W: the last W + 1.
            const int lo = p.mask.window >= 0 ? std::max(0, position - p.mask.window) : 0;
            const int count = position - lo + 1;
            auto row = scores.row(i).segment(lo, count);
            const float max = row.maxCoeff();
            Eigen::RowVectorXf e = (row.array() - max).exp();
            e /= e.sum();
            const Eigen::RowVectorXf o = e * values.middleRows(lo, count);
            if (out) {
                out->weights.row(i).segment(lo, count) = e;
                out->output.row(i) = o;
            }
            if (head.enabled)
                heads.block(i, Eigen::Index(h) * w.dV, 1, w.dV) = o;
        }
    }
    Matrix out = heads * w.Wo;
    if (w.bo.size())
        out.rowwise() += w.bo;
    return out;
}

void KvCache::truncate(int length)
{
    if (m_broken)
        throw Error("the key/value cache was left half-way by a cancelled step");
    length = std::clamp(length, 0, m_length);
    for (Layer& layer : m_layers) {
        for (Matrix& keys : layer.keys)
            keys.conservativeResize(length, keys.cols());
        for (Matrix& values : layer.values)
            values.conservativeResize(length, values.cols());
    }
    m_length = length;
}

RowVector KvCache::append(const std::vector<Token>& tokens, BlockOps& ops,
                          const std::atomic<bool>* cancel, AppendedRows* rows)
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

    // The new rows' embeddings (their ids checked there), at their own positions.
    Matrix x = embed(model, tokens, ops, m_length);
    if (rows) {
        rows->embeddings = x;
        rows->layers.clear();
    }
    m_broken = true; // until every layer has its new rows
    for (std::size_t l = 0; l < w.layers.size(); ++l) {
        if (cancel && cancel->load())
            throw Cancelled();
        // As runModel does it, on the new rows against the cached ones.
        const int layer = int(l);
        LayerRows* kept = rows ? &rows->layers.emplace_back() : nullptr;
        Matrix input = attentionInput(w, layer, ops, x);
        Matrix attention = attend(m_layers[l], input, kept ? &kept->heads : nullptr);
        x = finishLayer(w, layer, ops, x, attention);
        if (kept) {
            kept->input = std::move(input);
            kept->attention = std::move(attention);
            kept->output = x;
        }
    }
    m_length += n;
    m_broken = false;
    return headLogits(w, ops, finalNorm(w, ops, x.bottomRows(1)));
}

namespace {

// The first `rows` rows of `top` with `bottom` below them.
Matrix stacked(const Matrix& top, Eigen::Index rows, const Matrix& bottom)
{
    Matrix m(rows + bottom.rows(), top.cols());
    m.topRows(rows) = top.topRows(rows);
    if (bottom.rows())
        m.bottomRows(bottom.rows()) = bottom;
    return m;
}

// Layer l's result for every position: the first `kept` rows of the earlier run's, the new
// rows below; the weights T x T with the earlier rows' (zero past their own position).
std::shared_ptr<const AttentionResult>
extendedLayer(const Model& model, int l, const std::vector<Token>& tokens,
              const AttentionResult& earlier, int kept, const KvCache::LayerRows* added,
              const Interventions& interventions, const std::string& backend,
              const std::string& device)
{
    const int t = int(tokens.size());
    const Matrix none;
    auto result = std::make_shared<AttentionResult>();
    result->problem = layerProblem(
        model, l, tokens,
        stacked(earlier.problem->queryEmbedding, kept, added ? added->input : none), interventions);
    result->backend = backend;
    result->device = device;
    result->intermediatesKept = false;
    result->output = stacked(earlier.output, kept, added ? added->attention : none);
    for (std::size_t h = 0; h < earlier.heads.size(); ++h) {
        const HeadResult& old = earlier.heads[h];
        const HeadResult* add = added ? &added->heads[h] : nullptr;
        HeadResult head;
        head.enabled = add ? add->enabled : old.enabled;
        head.Q = stacked(old.Q, kept, add ? add->Q : none);
        head.K = stacked(old.K, kept, add ? add->K : none);
        head.V = stacked(old.V, kept, add ? add->V : none);
        if (old.rotatedQ.size()) {
            head.rotatedQ = stacked(old.rotatedQ, kept, add ? add->rotatedQ : none);
            head.rotatedK = stacked(old.rotatedK, kept, add ? add->rotatedK : none);
        }
        head.weights.resize(t, t);
        head.weights.topLeftCorner(kept, kept) = old.weights.topLeftCorner(kept, kept);
        head.weights.topRightCorner(kept, t - kept).setZero();
        if (add)
            head.weights.bottomRows(add->weights.rows()) = add->weights;
        head.output = stacked(old.output, kept, add ? add->output : none);
        result->heads.push_back(std::move(head));
    }
    return result;
}

} // namespace

std::shared_ptr<const ModelResult> extendResult(const std::shared_ptr<const ModelResult>& previous,
                                                const std::vector<Token>& tokens, Backend& backend,
                                                const ForwardOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    if (!previous || options.keepIntermediates || options.logitsAtEveryPosition ||
        !previous->warnings.empty() || tokens.empty() ||
        previous->model->config().objective != Objective::CausalLm)
        return nullptr;
    const Model& model = *previous->model;
    // The positions both sequences begin with.
    const auto mismatch = std::mismatch(tokens.begin(), tokens.end(), previous->tokens.begin(),
                                        previous->tokens.end());
    const int kept = int(mismatch.first - tokens.begin());
    if (kept == 0 || tokens == previous->tokens)
        return nullptr;
    for (const auto& layer : previous->layers)
        if (layer->pooling.pooled || layer->diagnostics.nonFinite)
            return nullptr;
    std::unique_ptr<KvCache> cache = KvCache::fromResult(*previous);
    if (!cache)
        return nullptr;
    cache->truncate(kept);

    BlockOps& ops = backend.blockOps();
    const TransformerWeights& w = model.weights;
    const std::vector<Token> added(tokens.begin() + kept, tokens.end());
    KvCache::AppendedRows rows;
    RowVector logits;
    Matrix finalRows;
    if (!added.empty()) {
        logits = cache->append(added, ops, options.cancel, &rows);
        finalRows = finalNorm(w, ops, rows.layers.back().output);
        if (!logits.allFinite() || !finalRows.allFinite())
            return nullptr; // runModel says where the numbers overflowed
    }

    auto result = std::make_shared<ModelResult>();
    result->model = previous->model;
    result->tokens = tokens;
    result->interventions = previous->interventions;
    result->hidden.push_back(stacked(previous->hidden.front(), kept, rows.embeddings));
    result->backend = backend.name();
    result->device = backend.deviceName();
    // A job per layer: copying every head's T x T weights is most of the work.
    result->layers.resize(previous->layers.size());
    parallelFor(previous->layerCount(), [&](int l, int) {
        result->layers[std::size_t(l)] =
            extendedLayer(model, l, tokens, *previous->layers[std::size_t(l)], kept,
                          added.empty() ? nullptr : &rows.layers[std::size_t(l)],
                          result->interventions, result->backend, result->device);
    });
    for (int l = 0; l < previous->layerCount(); ++l)
        result->hidden.push_back(
            stacked(previous->hidden[std::size_t(l) + 1], kept,
                    added.empty() ? Matrix() : rows.layers[std::size_t(l)].output));
    result->finalHidden = stacked(previous->finalHidden, kept, finalRows);
    if (added.empty()) // a shorter text: its last position's logits
        logits = headLogits(w, ops, result->finalHidden.bottomRows(1));
    PositionPrediction prediction;
    prediction.position = int(tokens.size()) - 1;
    prediction.logits = logits;
    prediction.top = topPredictions(model, logits, options.topK);
    result->predictions.push_back(std::move(prediction));
    result->milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    result->stages.push_back(
        {"new positions against the cached keys and values", result->milliseconds});
    return result;
}

} // namespace attn::core
