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
        CachedKeys layer;
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
    for (const CachedKeys& layer : m_layers)
        for (std::size_t h = 0; h < layer.keys.size(); ++h)
            total += std::int64_t(layer.keys[h].size() + layer.values[h].size()) *
                     std::int64_t(sizeof(float));
    return total;
}

CachedKeys crossKeys(std::shared_ptr<const Problem> problem)
{
    CachedKeys cached;
    const Matrix& input = problem->keyEmbedding;
    for (const HeadWeights& head : problem->weights->heads) {
        cached.keys.push_back(project(input, head.Wk, head.bk));
        cached.values.push_back(project(input, head.Wv, head.bv));
    }
    cached.problem = std::move(problem);
    return cached;
}

namespace {

// Consecutive rows of the input with one cache: `grow` (a self-attention's, else null) gets
// their keys and values before `read` is read; the first row is at position `first`.
struct RowGroup
{
    const CachedKeys* read = nullptr;
    CachedKeys* grow = nullptr;
    int rows = 0;
    int first = 0;
    const Matrix* bias = nullptr; // heads * rows x keys
};

// attendCached, attendEachCached and attendCross: every projection over all rows at once (what
// batching the hypotheses of a beam buys), the scores group by group. `kept` only with one
// group.
Matrix attendRows(const std::vector<RowGroup>& groups, const Matrix& x,
                  std::vector<HeadResult>* kept)
{
    const Problem& p = *groups.front().read->problem;
    const ModelWeights& w = *p.weights;
    const int n = int(x.rows());
    const bool self = groups.front().grow != nullptr;
    const float scale = p.scoreScale();
    Matrix heads = Matrix::Zero(n, Eigen::Index(w.headCount()) * w.dV);
    if (kept)
        kept->assign(std::size_t(w.headCount()), HeadResult{});
    for (int h = 0; h < w.headCount(); ++h) {
        const HeadWeights& head = w.heads[std::size_t(h)];
        HeadResult* out = kept ? &(*kept)[std::size_t(h)] : nullptr;
        Matrix q = project(x, head.Wq, head.bq);
        Matrix k;
        Matrix v;
        if (self) {
            k = project(x, head.Wk, head.bk);
            v = project(x, head.Wv, head.bv);
        }
        if (out) {
            out->enabled = head.enabled;
            out->Q = q;
            out->K = k;
            out->V = v;
        }
        int row = 0;
        for (const RowGroup& g : groups) {
            if (self && p.rotary.enabled()) {
                RotarySpec at = p.rotary;
                at.firstPosition = g.first;
                q.middleRows(row, g.rows) = rotateHalf(q.middleRows(row, g.rows), at);
                k.middleRows(row, g.rows) = rotateHalf(k.middleRows(row, g.rows), at);
            }
            if (self) {
                appendRows(g.grow->keys[std::size_t(h)], k.middleRows(row, g.rows));
                appendRows(g.grow->values[std::size_t(h)], v.middleRows(row, g.rows));
            }
            if (!head.enabled && !out) {
                row += g.rows;
                continue;
            }
            const Matrix& keys = g.read->keys[std::size_t(h)];
            const Matrix& values = g.read->values[std::size_t(h)];
            Matrix scores = (q.middleRows(row, g.rows) * scale) * keys.transpose(); // rows x keys
            if (g.bias) // s q.k + s b, as the backends add a problem's bias
                scores += g.bias->middleRows(Eigen::Index(h) * g.rows, g.rows) * scale;
            if (out) {
                out->weights = Matrix::Zero(g.rows, keys.rows());
                out->output.resize(g.rows, w.dV);
            }
            for (int i = 0; i < g.rows; ++i) {
                const int position = g.first + i;
                // Cross: every key. Causal: keys up to the query's own position; a causal
                // window W: the last W + 1.
                const int lo =
                    self && p.mask.window >= 0 ? std::max(0, position - p.mask.window) : 0;
                const int count = self ? position - lo + 1 : int(keys.rows());
                auto scored = scores.row(i).segment(lo, count);
                const float max = scored.maxCoeff();
                Eigen::RowVectorXf e = (scored.array() - max).exp();
                e /= e.sum();
                const Eigen::RowVectorXf o = e * values.middleRows(lo, count);
                if (out) {
                    out->weights.row(i).segment(lo, count) = e;
                    out->output.row(i) = o;
                }
                if (head.enabled)
                    heads.block(row + i, Eigen::Index(h) * w.dV, 1, w.dV) = o;
            }
            row += g.rows;
        }
        if (out && self && p.rotary.enabled()) {
            out->rotatedQ = q;
            out->rotatedK = k;
        }
    }
    Matrix out = heads * w.Wo;
    if (w.bo.size())
        out.rowwise() += w.bo;
    return out;
}

} // namespace

Matrix attendCached(CachedKeys& cached, const Matrix& x, int first, const Matrix* bias,
                    std::vector<HeadResult>* kept)
{
    return attendRows({{&cached, &cached, int(x.rows()), first, bias}}, x, kept);
}

Matrix attendEachCached(const std::vector<CachedKeys*>& caches, const Matrix& x,
                        const std::vector<Matrix>& biases)
{
    std::vector<RowGroup> groups;
    for (std::size_t i = 0; i < caches.size(); ++i) {
        const int first = int(caches[i]->keys.empty() ? 0 : caches[i]->keys.front().rows());
        groups.push_back({caches[i], caches[i], 1, first, biases.empty() ? nullptr : &biases[i]});
    }
    return attendRows(groups, x, nullptr);
}

Matrix attendCross(const CachedKeys& cached, const Matrix& x, std::vector<HeadResult>* kept)
{
    return attendRows({{&cached, nullptr, int(x.rows()), 0, nullptr}}, x, kept);
}

void KvCache::truncate(int length)
{
    if (m_broken)
        throw Error("the key/value cache was left half-way by a cancelled step");
    length = std::clamp(length, 0, m_length);
    for (CachedKeys& layer : m_layers) {
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
        Matrix attention =
            attendCached(m_layers[l], input, m_length, nullptr, kept ? &kept->heads : nullptr);
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

Matrix stacked(const Matrix& top, Eigen::Index rows, const Matrix& bottom)
{
    Matrix m(rows + bottom.rows(), rows ? top.cols() : bottom.cols());
    m.topRows(rows) = top.topRows(rows);
    if (bottom.rows())
        m.bottomRows(bottom.rows()) = bottom;
    return m;
}

std::shared_ptr<const AttentionResult>
stackedAttention(std::shared_ptr<const Problem> problem, const AttentionResult* earlier, int kept,
                 const std::vector<HeadResult>* added, const Matrix& addedOutput,
                 const CachedKeys* cross, const std::string& backend, const std::string& device)
{
    const int t = int(problem->queryTokens.size());
    const Matrix none;
    auto result = std::make_shared<AttentionResult>();
    const std::size_t heads = problem->weights->heads.size();
    result->problem = std::move(problem);
    result->backend = backend;
    result->device = device;
    result->intermediatesKept = false;
    result->output = stacked(earlier ? earlier->output : none, kept, addedOutput);
    static const HeadResult noHead;
    for (std::size_t h = 0; h < heads; ++h) {
        const HeadResult& old = earlier ? earlier->heads[h] : noHead;
        const HeadResult* add = added ? &(*added)[h] : nullptr;
        HeadResult head;
        head.enabled = add ? add->enabled : old.enabled;
        head.Q = stacked(old.Q, kept, add ? add->Q : none);
        if (cross) {
            head.K = cross->keys[h];
            head.V = cross->values[h];
        } else {
            head.K = stacked(old.K, kept, add ? add->K : none);
            head.V = stacked(old.V, kept, add ? add->V : none);
        }
        if (earlier ? old.rotatedQ.size() != 0 : add && add->rotatedQ.size() != 0) {
            head.rotatedQ = stacked(old.rotatedQ, kept, add ? add->rotatedQ : none);
            head.rotatedK = stacked(old.rotatedK, kept, add ? add->rotatedK : none);
        }
        if (cross) {
            head.weights = stacked(old.weights, kept, add ? add->weights : none);
        } else {
            head.weights.resize(t, t);
            head.weights.topLeftCorner(kept, kept) = old.weights.topLeftCorner(kept, kept);
            head.weights.topRightCorner(kept, t - kept).setZero();
            if (add)
                head.weights.bottomRows(add->weights.rows()) = add->weights;
        }
        head.output = stacked(old.output, kept, add ? add->output : none);
        result->heads.push_back(std::move(head));
    }
    return result;
}

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
        const AttentionResult& earlier = *previous->layers[std::size_t(l)];
        const KvCache::LayerRows* add = added.empty() ? nullptr : &rows.layers[std::size_t(l)];
        const Matrix none;
        result->layers[std::size_t(l)] = stackedAttention(
            layerProblem(model, l, tokens,
                         stacked(earlier.problem->queryEmbedding, kept, add ? add->input : none),
                         result->interventions),
            &earlier, kept, add ? &add->heads : nullptr, add ? add->attention : none, nullptr,
            result->backend, result->device);
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
