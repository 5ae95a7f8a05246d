#include "ui/document/compute_controller.h"

#include "core/cpu_backend.h"
#include "core/error.h"

#include <chrono>

namespace attn::ui {

// Lives on the worker thread and is the only user of the backend.
class ComputeWorker : public QObject
{
    Q_OBJECT

public:
    ComputeWorker(ComputeController& controller, std::unique_ptr<core::Backend> backend)
        : m_controller(controller), m_backend(std::move(backend))
    {
    }

    // Computes pending requests until there are none; requests that arrive meanwhile
    // replace each other, so only the newest is computed next. Called by name (see
    // ThreadMailbox for why).
    Q_INVOKABLE void drain()
    {
        while (auto job = m_controller.takePending()) {
            ComputeReply reply = compute(job->first, job->second);
            m_controller.m_mailbox.post([controller = &m_controller, reply] { controller->onWorkerFinished(reply); });
        }
    }

private:
    std::shared_ptr<const core::AttentionResult> run(const core::Scene& scene, const core::ComputeOptions& options)
    {
        const std::shared_ptr<const core::Problem> problem = core::resolveProblem(scene);
        try {
            return m_backend->compute(problem, options);
        } catch (const core::BackendFault& fault) {
            // gpu::FallbackBackend does this itself; a bare backend is replaced here.
            m_backend = std::make_unique<core::CpuBackend>();
            m_controller.m_mailbox.post([controller = &m_controller, backend = QString::fromStdString(m_backend->name()),
                                         device = QString::fromStdString(m_backend->deviceName()),
                                         why = QString::fromUtf8(fault.what())] {
                controller->m_backend = backend;
                controller->m_device = device;
                emit controller->backendChanged(backend, device, why);
            });
            return m_backend->compute(problem, options);
        }
    }

    ComputeReply compute(quint64 generation, const ComputeRequest& request)
    {
        const auto start = std::chrono::steady_clock::now();
        ComputeReply reply;
        reply.generation = generation;
        auto attempt = [&](const core::Scene& scene, QString& error) -> std::shared_ptr<const core::AttentionResult> {
            try {
                return run(scene, request.options);
            } catch (const std::exception& e) { // core::Error, bad_alloc, a second fault
                error = QString::fromUtf8(e.what());
            }
            return nullptr;
        };
        reply.result = attempt(request.scene, reply.error);
        if (reply.result && request.compare)
            reply.compare = attempt(*request.compare, reply.compareError);
        reply.milliseconds =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        return reply;
    }

    ComputeController& m_controller;
    std::unique_ptr<core::Backend> m_backend;
};

ComputeController::ComputeController(std::unique_ptr<core::Backend> backend, QObject* parent)
    : QObject(parent),
      m_backend(QString::fromStdString(backend->name())),
      m_device(QString::fromStdString(backend->deviceName()))
{
    qRegisterMetaType<ComputeReply>();
    m_worker = new ComputeWorker(*this, std::move(backend));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("attention compute"));
    m_thread.start();
}

ComputeController::~ComputeController()
{
    {
        std::lock_guard lock(m_mutex);
        m_pending.reset();
    }
    m_thread.quit();
    m_thread.wait();
    // QThread::wait orders the worker's end before this inside QtCore, where ThreadSanitizer
    // cannot see it; the worker's last use of the mutex is seen through taking it here.
    const std::lock_guard lock(m_mutex);
}

QString ComputeController::backendName() const
{
    return m_backend;
}

QString ComputeController::deviceName() const
{
    return m_device;
}

quint64 ComputeController::request(ComputeRequest request)
{
    const quint64 generation = ++m_generation;
    bool schedule = false;
    {
        std::lock_guard lock(m_mutex);
        m_pending = std::move(request); // an older pending request is dropped unanswered
        m_pendingGeneration = generation;
        schedule = !m_workerScheduled;
        m_workerScheduled = true;
    }
    if (schedule)
        QMetaObject::invokeMethod(m_worker, "drain", Qt::QueuedConnection);
    if (m_answered + 1 == generation)
        emit busyChanged(true);
    return generation;
}

std::optional<std::pair<quint64, ComputeRequest>> ComputeController::takePending()
{
    std::lock_guard lock(m_mutex);
    if (!m_pending) {
        m_workerScheduled = false;
        return std::nullopt;
    }
    std::optional<std::pair<quint64, ComputeRequest>> job{std::in_place, m_pendingGeneration, std::move(*m_pending)};
    m_pending.reset();
    return job;
}

void ComputeController::onWorkerFinished(const ComputeReply& reply)
{
    if (reply.generation <= m_answered)
        return; // older than one already shown
    m_answered = reply.generation;
    // gpu::FallbackBackend switches quietly and says why in the result's warnings.
    if (reply.result) {
        const QString backend = QString::fromStdString(reply.result->backend);
        const QString device = QString::fromStdString(reply.result->device);
        if (backend != m_backend || device != m_device) {
            m_backend = backend;
            m_device = device;
            const auto& warnings = reply.result->diagnostics.warnings;
            emit backendChanged(backend, device,
                                warnings.empty() ? QString() : QString::fromStdString(warnings.back()));
        }
    }
    emit finished(reply);
    if (!isBusy())
        emit busyChanged(false);
}

} // namespace attn::ui

#include "compute_controller.moc"
