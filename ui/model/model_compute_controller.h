#pragma once

#include "core/backend.h"
#include "core/model/model_loader.h"
#include "core/model/model_result.h"
#include "ui/document/latest_request_worker.h"
#include "ui/document/thread_mailbox.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace attn::ui {

struct ModelComputeRequest
{
    std::shared_ptr<const core::Model> model;
    QString text;
    core::Interventions interventions;
    // An encoder-decoder model's edits of its encoder's and its cross-attention's heads (its
    // decoder's self-attention takes `interventions`).
    core::Interventions encoderInterventions{};
    core::Interventions crossInterventions{};
    int topK = 10;
    // The Difference view: this layer's problem again under another score (and its
    // normalization), computed in the same job so both belong to one generation; -1: none.
    int compareLayer = -1;
    core::ScoreKind compareScore = core::ScoreKind::Dot;
    core::Normalization compareNormalization = core::Normalization::Softmax;
    // The selected layer, computed again with every intermediate (the Pipeline view, the
    // presentation): the run itself keeps only Q, K, V, weights and outputs, since keeping
    // every layer's scores cost a tenth of a GPT-2 forward; -1: none.
    int detailLayer = -1;
    // When not empty, these tokens instead of the text's (the Generate tab's steps, whose
    // tokens the text would not always give back).
    std::vector<core::Token> tokens{};
};

struct ModelComputeReply
{
    quint64 generation = 0;
    std::shared_ptr<const core::ModelResult> result;      // null on error
    std::shared_ptr<const core::ModelResult> baseline;    // the same text with no interventions
    std::shared_ptr<const core::AttentionResult> compare; // compareLayer under the other score
    std::shared_ptr<const core::AttentionResult> detail;  // detailLayer with every intermediate
    int detailLayer = -1;
    // The result's first positions taken from the run before through the key/value cache
    // (core::extendResult), only the rest computed; 0: a whole forward (or a reused one).
    int cachedPositions = 0;
    QString error;           // tokenizing or computing failed: why; empty on success
    double milliseconds = 0; // on the worker, for this request (baseline included when it ran)
};

// Runs a model on one worker thread that owns the backend, so the window never waits:
// - the latest request wins (LatestRequestWorker): a request that arrives while one is
//   computing replaces any waiting one and cancels the running one at its next layer
//   (ForwardOptions::cancel), which is not answered (cancelledRuns);
// - replies of older requests that still arrive (a run that ended before it saw the cancel) are
//   dropped, never shown (droppedReplies);
// - the unedited run of the sentence (the baseline the predictions are compared with) is
//   computed once per model and sentence, and every intervened run starts from whichever
//   earlier run (the baseline or the last one) shares the most layers with it: only the
//   layers from the first intervened one up are computed;
// - a causal model's text that keeps its beginning (typing at the end, editing a later word)
//   reuses the earlier run's keys and values and computes only the positions from the first
//   changed token on (core::extendResult); cachedRuns counts those runs.
class ModelComputeController : public QObject
{
    Q_OBJECT

public:
    explicit ModelComputeController(std::unique_ptr<core::Backend> backend,
                                    QObject* parent = nullptr);
    // Cancels a run in progress and waits for the worker.
    ~ModelComputeController() override;

    quint64 request(ModelComputeRequest request);
    quint64 latestGeneration() const { return m_worker.latestGeneration(); }
    bool isCurrent(const ModelComputeReply& reply) const
    {
        return reply.generation == latestGeneration();
    }
    bool isBusy() const { return m_worker.isBusy(); }
    int droppedReplies() const { return m_dropped; }
    int cancelledRuns() const { return m_worker.cancelledJobs(); }
    int cachedRuns() const { return m_cachedRuns.load(); }

    // The backend in use ("CPU", "Vulkan") and its device; after a GPU fault the CPU's.
    QString backendName() const;
    QString deviceName() const;
    // Another backend for the next request (View > Compute on). Earlier runs stay valid: a
    // result does not depend on where it was computed beyond rounding, so they are dropped
    // only to make the next run a whole one on the new device.
    void setBackend(std::unique_ptr<core::Backend> backend);

signals:
    // On the controller's thread, for the newest request only.
    void finished(const attn::ui::ModelComputeReply& reply);
    void busyChanged(bool busy);

private:
    void deliver(const ModelComputeReply& reply);
    ModelComputeReply compute(quint64 generation, const ModelComputeRequest& request,
                              const std::atomic<bool>* cancel);
    void releaseOnWorker();

    ThreadMailbox m_mailbox; // replies to the UI thread
    mutable std::mutex m_mutex;
    std::unique_ptr<core::Backend> m_nextBackend; // guarded by m_mutex
    QString m_backend;                            // guarded by m_mutex
    QString m_device;                             // guarded by m_mutex

    // Worker thread only.
    std::unique_ptr<core::Backend> m_backendInUse;
    std::shared_ptr<const core::ModelResult> m_baseline;
    std::shared_ptr<const core::ModelResult> m_last;
    // The last detail and the run's layer it repeats: an unchanged layer keeps its detail (the
    // views then keep their figures).
    std::shared_ptr<const core::AttentionResult> m_detail;
    std::shared_ptr<const core::AttentionResult> m_detailOf;

    int m_dropped = 0; // controller thread
    std::atomic<int> m_cachedRuns{0};
    LatestRequestWorker m_worker; // last: its jobs use everything above
};

} // namespace attn::ui

Q_DECLARE_METATYPE(attn::ui::ModelComputeReply)
