#include "ui/model/model_compute_controller.h"

#include "core/error.h"
#include "core/model/encoder_decoder.h"
#include "core/model/forward.h"
#include "core/model/kv_cache.h"

#include <algorithm>
#include <chrono>

namespace attn::ui {

namespace {

// The selected layer's every intermediate (the Pipeline view) is computed up to this many
// score cells over its heads; past it only Q, K, V, weights and outputs.
constexpr qint64 kKeepIntermediatesCells = qint64(8) << 20;

// How many layers a run of `interventions` can reuse from `candidate` (-1: none can).
int sharedLayers(const std::shared_ptr<const core::ModelResult>& candidate,
                 const core::Model* model, const std::vector<core::Token>& tokens,
                 const core::Interventions& interventions)
{
    if (!candidate || candidate->model.get() != model || candidate->tokens != tokens)
        return -1;
    return interventions.firstDifference(candidate->interventions, candidate->layerCount());
}

// How many tokens two sequences begin with.
int sharedPrefix(const std::vector<core::Token>& a, const std::vector<core::Token>& b)
{
    return int(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
}

} // namespace

ModelComputeController::ModelComputeController(std::unique_ptr<core::Backend> backend,
                                               QObject* parent)
    : QObject(parent), m_backend(QString::fromStdString(backend->name())),
      m_device(QString::fromStdString(backend->deviceName())), m_backendInUse(std::move(backend)),
      m_worker([this] { releaseOnWorker(); })
{
    qRegisterMetaType<ModelComputeReply>();
}

ModelComputeController::~ModelComputeController()
{
    m_worker.stop();
}

void ModelComputeController::releaseOnWorker()
{
    // Results refer to the model; the backend may cache device copies of its weights.
    m_baseline.reset();
    m_last.reset();
    m_detail.reset();
    m_detailOf.reset();
    m_backendInUse.reset();
}

QString ModelComputeController::backendName() const
{
    const std::lock_guard lock(m_mutex);
    return m_backend;
}

QString ModelComputeController::deviceName() const
{
    const std::lock_guard lock(m_mutex);
    return m_device;
}

void ModelComputeController::setBackend(std::unique_ptr<core::Backend> backend)
{
    const std::lock_guard lock(m_mutex);
    m_backend = QString::fromStdString(backend->name());
    m_device = QString::fromStdString(backend->deviceName());
    m_nextBackend = std::move(backend);
}

quint64 ModelComputeController::request(ModelComputeRequest request)
{
    const bool wasBusy = isBusy();
    const quint64 generation = m_worker.submit(
        [this, request = std::move(request)](quint64 generation, const std::atomic<bool>* cancel) {
            {
                const std::lock_guard lock(m_mutex);
                if (m_nextBackend) {
                    m_backendInUse = std::move(m_nextBackend);
                    m_baseline.reset();
                    m_last.reset();
                }
            }
            ModelComputeReply reply = compute(generation, request, cancel);
            {
                const std::lock_guard lock(m_mutex);
                // After a GPU fault the fallback computes on the CPU: say so.
                m_backend = QString::fromStdString(m_backendInUse->name());
                m_device = QString::fromStdString(m_backendInUse->deviceName());
            }
            m_mailbox.post([this, reply] { deliver(reply); });
        });
    if (!wasBusy)
        emit busyChanged(true);
    return generation;
}

ModelComputeReply ModelComputeController::compute(quint64 generation,
                                                  const ModelComputeRequest& request,
                                                  const std::atomic<bool>* cancel)
{
    const auto start = std::chrono::steady_clock::now();
    ModelComputeReply reply;
    reply.generation = generation;
    try {
        const core::Model& model = *request.model;
        const std::vector<core::Token> tokens =
            request.tokens.empty() ? core::modelTokens(model, request.text) : request.tokens;
        const qint64 t = qint64(tokens.size());
        core::ForwardOptions options;
        options.topK = request.topK;
        options.cancel = cancel;
        options.keepIntermediates = false; // the selected layer's come with the detail below

        int cached = 0; // positions the result took from the run before
        if (sharedLayers(m_baseline, &model, tokens, {}) < 0) {
            // Another text: where it begins as the last one did, the cached keys and values give
            // those positions (the baseline's, and the intervened run's when it is the same one).
            std::shared_ptr<const core::ModelResult> baseline;
            std::shared_ptr<const core::ModelResult> last;
            if (m_baseline && m_baseline->model == request.model) {
                baseline = core::extendResult(m_baseline, tokens, *m_backendInUse, options);
                if (baseline && m_last && !request.interventions.empty() &&
                    m_last->interventions == request.interventions &&
                    m_last->model == request.model && m_last->tokens == m_baseline->tokens)
                    last = core::extendResult(m_last, tokens, *m_backendInUse, options);
                if (baseline && (request.interventions.empty() || last))
                    cached = sharedPrefix(tokens, m_baseline->tokens);
            }
            m_baseline.reset();
            m_last.reset();
            m_baseline = baseline
                             ? baseline
                             : core::runModel(request.model, tokens, {}, *m_backendInUse, options);
            m_last = last;
        }
        reply.baseline = m_baseline;
        // The encoder's and the cross-attention's heads edited: a whole run of the three kinds
        // (the runs kept above know only the decoder's edits).
        const bool otherKinds =
            model.config().encoderDecoder() &&
            !(request.encoderInterventions.empty() && request.crossInterventions.empty());
        if (otherKinds) {
            m_last.reset();
            reply.result = core::runEncoderDecoderWith(
                request.model, tokens,
                core::decoderTokens(model, {model.config().decoderStartToken}),
                {request.encoderInterventions, request.interventions, request.crossInterventions},
                *m_backendInUse, options);
        } else if (request.interventions.empty()) {
            reply.result = m_baseline;
        } else if (m_last && m_last->interventions == request.interventions &&
                   sharedLayers(m_last, &model, tokens, request.interventions) ==
                       m_last->layerCount()) {
            reply.result = m_last; // the same run (another layer's Difference view was asked for)
        } else {
            // Start from whichever earlier run shares more layers: the last one (a head
            // switched off above the last edit) or the baseline (an undo back down).
            const int fromLast = sharedLayers(m_last, &model, tokens, request.interventions);
            const int fromBaseline =
                sharedLayers(m_baseline, &model, tokens, request.interventions);
            const auto& previous = fromLast > fromBaseline ? m_last : m_baseline;
            reply.result = core::runModel(request.model, tokens, request.interventions,
                                          *m_backendInUse, options, previous);
        }
        if (!otherKinds)
            m_last = reply.result;
        if (cached > 0) { // the baseline, or the intervened run extended with it
            reply.cachedPositions = cached;
            ++m_cachedRuns;
        }
        const int detail = request.detailLayer;
        if (detail >= 0 && detail < reply.result->layerCount() &&
            t * t * model.config().heads <= kKeepIntermediatesCells) {
            const auto& layer = reply.result->layers[std::size_t(detail)];
            if (m_detailOf != layer) {
                m_detail = m_backendInUse->compute(layer->problem, core::ComputeOptions{});
                m_detailOf = layer;
            }
            reply.detail = m_detail;
            reply.detailLayer = detail;
        }
        if (request.compareLayer >= 0 && request.compareLayer < reply.result->layerCount()) {
            auto other = std::make_shared<core::Problem>(
                *reply.result->layers[std::size_t(request.compareLayer)]->problem);
            other->score = request.compareScore;
            other->normalization = request.compareNormalization;
            try {
                reply.compare = m_backendInUse->compute(other, core::ComputeOptions{});
            } catch (const core::Error&) {
                // That score cannot compute this layer (its weights lack what it needs): no
                // difference to show; the run itself stands.
            }
        }
    } catch (const core::Cancelled&) {
        throw; // not answered: the newer request is
    } catch (const std::exception& error) {
        reply.error = QString::fromUtf8(error.what());
        reply.result.reset();
    }
    reply.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return reply;
}

void ModelComputeController::deliver(const ModelComputeReply& reply)
{
    m_worker.answer(reply.generation);
    if (!isCurrent(reply)) {
        ++m_dropped; // a newer request is computing or waiting: this one is history
        return;
    }
    emit busyChanged(false);
    emit finished(reply);
}

} // namespace attn::ui
