#pragma once

#include "core/attention_result.h"
#include "core/backend.h"
#include "core/scene.h"
#include "ui/document/thread_mailbox.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

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
    QString compareError;    // the compare scene failed, the main one did not
    double milliseconds = 0; // resolving and computing, as the worker measured it
};

// Computes scenes on one worker thread that owns the backend, so the UI never waits.
// The latest request wins: a request cancels the compute in progress (between blocks of rows,
// where the backend can stop), requests that arrive meanwhile replace each other, and only the
// newest is computed next; a cancelled compute is not answered. Every request gets a generation
// number; replies come back in order, and `isCurrent` tells whether a reply is for the newest
// request.
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
    quint64 latestGeneration() const { return m_generation; }
    bool isCurrent(const ComputeReply& reply) const { return reply.generation == m_generation; }
    // True while a request has not been answered.
    bool isBusy() const { return m_answered < m_generation; }

signals:
    // On the controller's thread.
    void finished(const attn::ui::ComputeReply& reply);
    // The backend changed under us (a GPU fault made it fall back to the CPU): once.
    void backendChanged(const QString& backend, const QString& device, const QString& reason);
    void busyChanged(bool busy);

private:
    void run(); // the worker thread
    std::shared_ptr<const core::AttentionResult> computeScene(const core::Scene& scene,
                                                              const core::ComputeOptions& options);
    ComputeReply compute(quint64 generation, const ComputeRequest& request);
    void onWorkerFinished(const ComputeReply& reply);

    ThreadMailbox m_mailbox; // replies to this (the UI) thread
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<ComputeRequest> m_pending; // guarded by m_mutex
    quint64 m_pendingGeneration = 0;         // guarded by m_mutex
    bool m_stop = false;                     // guarded by m_mutex
    bool m_running = false;                  // guarded by m_mutex
    std::atomic<bool> m_cancel{false};       // the compute in progress is no longer wanted
    std::unique_ptr<core::Backend> m_worker; // the worker thread's
    quint64 m_generation = 0;                // UI thread only from here down
    quint64 m_answered = 0;
    QString m_backend;
    QString m_device;
};

} // namespace attn::ui

Q_DECLARE_METATYPE(attn::ui::ComputeReply)
