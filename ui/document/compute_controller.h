#pragma once

#include "core/attention_result.h"
#include "core/backend.h"
#include "core/scene.h"
#include "ui/document/thread_mailbox.h"

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QThread>
#include <memory>
#include <mutex>
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
    QString compareError;    // the compare scene failed, the main one did not
    double milliseconds = 0; // resolving and computing, as the worker measured it
};

class ComputeWorker;

// Computes scenes on one worker thread that owns the backend, so the UI never waits.
// The latest request wins: requests that arrive while one is computing replace each other,
// and only the newest is computed next. Every request gets a generation number; replies
// come back in order, and `isCurrent` tells whether a reply is for the newest request.
class ComputeController : public QObject
{
    Q_OBJECT

public:
    explicit ComputeController(std::unique_ptr<core::Backend> backend, QObject* parent = nullptr);
    // Waits for a compute in progress (a backend cannot be interrupted).
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
    // Queued to the controller's thread.
    void finished(const attn::ui::ComputeReply& reply);
    // The backend changed under us (a GPU fault made it fall back to the CPU): once.
    void backendChanged(const QString& backend, const QString& device, const QString& reason);
    void busyChanged(bool busy);

private:
    friend class ComputeWorker;
    void onWorkerFinished(const ComputeReply& reply);
    // Worker side: the newest pending request, or nothing (and the worker goes idle).
    std::optional<std::pair<quint64, ComputeRequest>> takePending();

    ThreadMailbox m_mailbox; // replies to this (the UI) thread
    QThread m_thread;
    ComputeWorker* m_worker = nullptr;
    std::mutex m_mutex;
    std::optional<ComputeRequest> m_pending; // guarded by m_mutex
    quint64 m_pendingGeneration = 0;         // guarded by m_mutex
    bool m_workerScheduled = false;          // guarded by m_mutex
    quint64 m_generation = 0;                // UI thread only from here down
    quint64 m_answered = 0;
    QString m_backend;
    QString m_device;
};

} // namespace attn::ui

Q_DECLARE_METATYPE(attn::ui::ComputeReply)
