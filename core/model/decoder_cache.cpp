#include "core/model/decoder_cache.h"

#include "core/error.h"
#include "core/model/model_loader.h"

#include <chrono>
#include <string>

namespace attn::core::encdec {

DecoderCache::DecoderCache(std::shared_ptr<const Model> model, const std::vector<Token>& source,
                           const EncoderDecoderInterventions& interventions, Backend& backend,
                           const ForwardOptions& options, const char* prefix)
    : m_model(std::move(model)), m_interventions(interventions), m_backend(backend),
      m_options(options), m_prefix(prefix)
{
    m_encoded.model = m_model;
    m_encoded.sourceTokens = source;
    m_encoded.interventions = interventions.decoder;
    encode(*m_model, source, interventions.encoder, backend, options, m_encoded);
    const TransformerWeights& w = m_model->weights;
    const std::vector<Token> start = decoderTokens(*m_model, {m_model->config().decoderStartToken});
    const Matrix row = Matrix::Zero(1, w.config.dModel);
    for (std::size_t l = 0; l < w.layers.size(); ++l) {
        m_cross.push_back(crossKeys(attentionProblem(
            w.config,
            weightsOf("cross-attention", w.layers[l].crossAttention, l, interventions.cross),
            nullptr, start, row, nullptr, &m_encoded.sourceTokens, &m_encoded.encoderOutput)));
        CachedKeys self;
        self.problem = decoderProblem(*m_model, int(l), start, row, interventions.decoder, nullptr);
        const ModelWeights& heads = *self.problem->weights;
        self.keys.assign(heads.heads.size(), Matrix(0, heads.dK));
        self.values.assign(heads.heads.size(), Matrix(0, heads.dV));
        m_empty.self.push_back(std::move(self));
    }
}

Matrix DecoderCache::append(const std::vector<Hypothesis*>& hypotheses, const std::vector<int>& ids,
                            Rows* rows) const
{
    const TransformerWeights& w = m_model->weights;
    const ModelConfig& config = w.config;
    BlockOps& ops = m_backend.blockOps();
    const bool pre = config.placement == NormPlacement::Pre;
    const bool relative = config.positions == PositionKind::RelativeBias;
    Matrix y(Eigen::Index(ids.size()), config.dModel);
    std::vector<Matrix> biases;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        std::vector<int>& target = hypotheses[i]->target;
        const int position = int(target.size());
        y.row(Eigen::Index(i)) =
            embedSide(*m_model, decoderTokens(*m_model, {ids[i]}), w.positionEmbedding,
                      w.embeddingNorm, "target", ops, position);
        target.push_back(ids[i]);
        if (relative)
            biases.push_back(relativePositionBias(w.relativeBias, 1, position + 1, false,
                                                  config.relativeMaxDistance, position));
    }
    if (rows) {
        rows->embedding = y;
        rows->layers.assign(w.layers.size(), {});
    }
    for (std::size_t l = 0; l < w.layers.size(); ++l) {
        checkCancel(m_options);
        Rows::Layer* kept = rows ? &rows->layers[l] : nullptr;
        auto self = [&](const Matrix& in) {
            if (!kept) {
                std::vector<CachedKeys*> caches;
                for (Hypothesis* h : hypotheses)
                    caches.push_back(&h->self[l]);
                return attendEachCached(caches, in, biases);
            }
            kept->selfInput = in;
            kept->selfOutput = attendCached(hypotheses.front()->self[l], in,
                                            int(hypotheses.front()->target.size()) - 1,
                                            relative ? &biases.front() : nullptr, &kept->self);
            return kept->selfOutput;
        };
        auto cross = [&](const Matrix& in) {
            Matrix out = attendCross(m_cross[l], in, kept ? &kept->cross : nullptr);
            if (kept) {
                kept->crossInput = in;
                kept->crossOutput = out;
            }
            return out;
        };
        y = decoderLayer(ops, pre, w.layers[l], y, self, cross);
        if (kept)
            kept->output = y;
    }
    const Matrix last = w.finalNorm.present() ? ops.norm(y, w.finalNorm) : y;
    Matrix logits = decoderLogits(w, ops, last);
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (!logits.row(Eigen::Index(i)).allFinite())
            throw Error(m_prefix + std::string("step ") +
                        std::to_string(hypotheses[i]->target.size()) +
                        ": the logits are not all finite numbers");
    if (rows) {
        rows->finalHidden = last;
        rows->logits = logits;
    }
    return logits;
}

std::shared_ptr<const ModelResult> DecoderCache::extend(Hypothesis& h, int id,
                                                        const ModelResult* previous) const
{
    const auto start = std::chrono::steady_clock::now();
    Rows rows;
    append({&h}, {id}, &rows);
    const Model& model = *m_model;
    const ModelConfig& config = model.config();
    auto result = std::make_shared<ModelResult>(m_encoded);
    result->tokens = decoderTokens(model, h.target);
    result->backend = m_backend.name();
    result->device = m_backend.deviceName();
    const int t = int(h.target.size());
    const int kept = t - 1;
    const Matrix none;
    result->hidden.push_back(
        stacked(previous ? previous->hidden.front() : none, kept, rows.embedding));
    const auto bias = stackBias(config, model.weights.relativeBias, t, false);
    for (std::size_t l = 0; l < rows.layers.size(); ++l) {
        const Rows::Layer& r = rows.layers[l];
        const AttentionResult* self = previous ? previous->layers[l].get() : nullptr;
        const AttentionResult* cross = previous ? previous->crossLayers[l].get() : nullptr;
        result->layers.push_back(stackedAttention(
            decoderProblem(model, int(l), result->tokens,
                           stacked(self ? self->problem->queryEmbedding : none, kept, r.selfInput),
                           m_interventions.decoder, bias),
            self, kept, &r.self, r.selfOutput, nullptr, result->backend, result->device));
        result->crossLayers.push_back(stackedAttention(
            attentionProblem(
                config, m_cross[l].problem->weights, nullptr, result->tokens,
                stacked(cross ? cross->problem->queryEmbedding : none, kept, r.crossInput), nullptr,
                &result->sourceTokens, &result->encoderOutput),
            cross, kept, &r.cross, r.crossOutput, &m_cross[l], result->backend, result->device));
        result->hidden.push_back(
            stacked(previous ? previous->hidden[l + 1] : none, kept, r.output));
    }
    result->finalHidden = stacked(previous ? previous->finalHidden : none, kept, rows.finalHidden);
    PositionPrediction prediction;
    prediction.position = t - 1;
    prediction.logits = rows.logits;
    prediction.top = topPredictions(model, rows.logits, m_options.topK);
    result->predictions.push_back(std::move(prediction));
    result->milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace attn::core::encdec
