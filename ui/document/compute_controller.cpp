#include "ui/document/compute_controller.h"

#include "core/cpu_backend.h"
#include "core/error.h"

#include <chrono>

namespace attn::ui {

ComputeController::ComputeController(std::unique_ptr<core::Backend> backend, QObject* parent)
    : QObject(parent),
      m_worker(std::move(backend)),
      m_backend(QString::fromStdString(m_worker->name())),
      m_device(QString::fromStdString(m_worker->deviceName()))
{
    qRegisterMetaType<ComputeReply>();
    m_thread = std::thread([this] { run(); });
}

ComputeController::~ComputeController()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
        m_pending.reset();
    }
    m_cancel = true;
    m_wake.notify_all();
    m_thread.join();
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
    {
        const std::lock_guard lock(m_mutex);
        m_pending = std::move(request); // an older pending request is dropped unanswered
        m_pendingGeneration = generation;
        if (m_running)
            m_cancel = true; // the compute in progress is for an older request
    }
    m_wake.notify_one();
    if (m_answered + 1 == generation)
        emit busyChanged(true);
    return generation;
}

void ComputeController::run()
{
    for (;;) {
        quint64 generation = 0;
        std::optional<ComputeRequest> job;
        {
            std::unique_lock lock(m_mutex);
            m_running = false;
            m_wake.wait(lock, [this] { return m_stop || m_pending.has_value(); });
            if (m_stop)
                break;
            job = std::move(m_pending);
            m_pending.reset();
            generation = m_pendingGeneration;
            m_running = true;
            m_cancel = false;
        }
        try {
            ComputeReply reply = compute(generation, *job);
            m_mailbox.post([this, reply] { onWorkerFinished(reply); });
        } catch (const core::Cancelled&) {
            // A newer request is pending (or the controller is closing): it is answered instead.
        }
    }
    m_worker.reset(); // a Vulkan device is released on the thread that used it
}

std::shared_ptr<const core::AttentionResult> ComputeController::computeScene(const core::Scene& scene,
                                                                            const core::ComputeOptions& options)
{
    const std::shared_ptr<const core::Problem> problem = core::resolveProblem(scene);
    try {
        return m_worker->compute(problem, options);
    } catch (const core::BackendFault& fault) {
        // gpu::FallbackBackend does this itself; a bare backend is replaced here.
        m_worker = std::make_unique<core::CpuBackend>();
        m_mailbox.post([this, backend = QString::fromStdString(m_worker->name()),
                        device = QString::fromStdString(m_worker->deviceName()), why = QString::fromUtf8(fault.what())] {
            m_backend = backend;
            m_device = device;
            emit backendChanged(backend, device, why);
        });
        return m_worker->compute(problem, options);
    }
}

ComputeReply ComputeController::compute(quint64 generation, const ComputeRequest& request)
{
    const auto start = std::chrono::steady_clock::now();
    ComputeReply reply;
    reply.generation = generation;
    core::ComputeOptions options = request.options;
    options.cancel = &m_cancel;
    auto attempt = [&](const core::Scene& scene, QString& error) -> std::shared_ptr<const core::AttentionResult> {
        try {
            return computeScene(scene, options);
        } catch (const core::Cancelled&) {
            throw;
        } catch (const std::exception& e) { // core::Error, bad_alloc, a second fault
            error = QString::fromUtf8(e.what());
        }
        return nullptr;
    };
    reply.result = attempt(request.scene, reply.error);
    if (reply.result && request.compare)
        reply.compare = attempt(*request.compare, reply.compareError);
    reply.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return reply;
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

