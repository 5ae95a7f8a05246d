#pragma once

#include "core/attention_result.h"
#include "core/backend.h"
#include "core/scene.h"
#include "ui/document/latest_request_worker.h"
#include "ui/document/thread_mailbox.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <optional>

namespace attn::ui {

struct ComputeRequest
{
    core::Scene scene;
    // The difference view's second setting: the same scene with another score, computed
    // in the same job so both results belong to one generation.
    std::optional<core::Scene> compare;
    core::ComputeOptions options;
};

struct ComputeReply
{
    quint64 generation = 0;
    std::shared_ptr<const core::AttentionResult> result;  // null on error
    std::shared_ptr<const core::AttentionResult> compare; // null when not asked or on error
    QString error;           // resolveProblem or backend message; empty on success
    QString errorWhere;      // the place `error` names first (core::Error::where()), or empty
    QString compareError;    // the compare scene failed, the main one did not
    double milliseconds = 0; // resolving and computing, as the worker measured it
};

// Computes scenes on one worker thread that owns the backend, so the UI never waits; the
// latest request wins (LatestRequestWorker: a request cancels the compute in progress between
// blocks of rows, and a cancelled compute is not answered). Replies come back in order: one that
// is older than the newest request but newer than any shown is still delivered (a window can show
// it while the newest computes), and `isCurrent` tells which is which.
class ComputeController : public QObject
{
    Q_OBJECT

public:
    explicit ComputeController(std::unique_ptr<core::Backend> backend, QObject* parent = nullptr);
    // Cancels a compute in progress and waits for the worker (a block of rows on the CPU; one
    // Vulkan submission runs to its end).
    ~ComputeController() override;

    // "CPU", "Vulkan": the backend in use; after a fallback, the one that took over.
    QString backendName() const;
    QString deviceName() const;

    quint64 request(ComputeRequest request);
    quint64 latestGeneration() const { return m_worker.latestGeneration(); }
    bool isCurrent(const ComputeReply& reply) const
    {
        return reply.generation == latestGeneration();
    }
    // True while a request has not been answered.
    bool isBusy() const { return m_worker.isBusy(); }

signals:
    // On the controller's thread.
    void finished(const attn::ui::ComputeReply& reply);
    // The backend changed under us (a GPU fault made it fall back to the CPU): once.
    void backendChanged(const QString& backend, const QString& device, const QString& reason);
    void busyChanged(bool busy);

private:
    std::shared_ptr<const core::AttentionResult> computeScene(const core::Scene& scene,
                                                              const core::ComputeOptions& options);
    ComputeReply compute(quint64 generation, const ComputeRequest& request,
                         const std::atomic<bool>* cancel);
    void onWorkerFinished(const ComputeReply& reply);

    ThreadMailbox m_mailbox;                       // replies to this (the UI) thread
    std::unique_ptr<core::Backend> m_backendInUse; // the worker thread's
    QString m_backend;                             // UI thread
    QString m_device;                              // UI thread
    LatestRequestWorker m_worker;                  // last: its jobs use everything above
};

} // namespace attn::ui

Q_DECLARE_METATYPE(attn::ui::ComputeReply)
