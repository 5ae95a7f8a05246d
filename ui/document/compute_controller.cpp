#include "ui/document/compute_controller.h"

#include "core/cpu_backend.h"
#include "core/error.h"

#include <chrono>

namespace attn::ui {

ComputeController::ComputeController(std::unique_ptr<core::Backend> backend, QObject* parent)
    : QObject(parent), m_backendInUse(std::move(backend)),
      m_backend(QString::fromStdString(m_backendInUse->name())),
      m_device(QString::fromStdString(m_backendInUse->deviceName())),
      m_worker([this] { m_backendInUse.reset(); })
{
    qRegisterMetaType<ComputeReply>();
}

ComputeController::~ComputeController()
{
    m_worker.stop();
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
    const bool wasBusy = isBusy();
    const quint64 generation = m_worker.submit(
        [this, request = std::move(request)](quint64 generation, const std::atomic<bool>* cancel) {
            ComputeReply reply = compute(generation, request, cancel);
            m_mailbox.post([this, reply] { onWorkerFinished(reply); });
        });
    if (!wasBusy)
        emit busyChanged(true);
    return generation;
}

std::shared_ptr<const core::AttentionResult>
ComputeController::computeScene(const core::Scene& scene, const core::ComputeOptions& options)
{
    try {
        // A stacked scene's earlier blocks run first, on the same backend (scene_layers.h).
        return m_backendInUse->compute(
            core::resolveLayerProblem(scene, *m_backendInUse, scene.view.layer, options.cancel),
            options);
    } catch (const core::BackendFault& fault) {
        // gpu::FallbackBackend does this itself; a bare backend is replaced here.
        m_backendInUse = std::make_unique<core::CpuBackend>();
        m_mailbox.post([this, backend = QString::fromStdString(m_backendInUse->name()),
                        device = QString::fromStdString(m_backendInUse->deviceName()),
                        why = QString::fromUtf8(fault.what())] {
            m_backend = backend;
            m_device = device;
            emit backendChanged(backend, device, why);
        });
        return m_backendInUse->compute(
            core::resolveLayerProblem(scene, *m_backendInUse, scene.view.layer, options.cancel),
            options);
    }
}

ComputeReply ComputeController::compute(quint64 generation, const ComputeRequest& request,
                                        const std::atomic<bool>* cancel)
{
    const auto start = std::chrono::steady_clock::now();
    ComputeReply reply;
    reply.generation = generation;
    core::ComputeOptions options = request.options;
    options.cancel = cancel;
    auto attempt = [&](const core::Scene& scene, QString& error,
                       QString* where) -> std::shared_ptr<const core::AttentionResult> {
        try {
            return computeScene(scene, options);
        } catch (const core::Cancelled&) {
            throw;
        } catch (const core::Error& e) {
            error = QString::fromUtf8(e.what());
            if (where)
                *where = QString::fromStdString(e.where());
        } catch (const std::exception& e) { // bad_alloc, a second fault
            error = QString::fromUtf8(e.what());
        }
        return nullptr;
    };
    reply.result = attempt(request.scene, reply.error, &reply.errorWhere);
    if (reply.result && request.compare)
        reply.compare = attempt(*request.compare, reply.compareError, nullptr);
    reply.milliseconds =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return reply;
}

void ComputeController::onWorkerFinished(const ComputeReply& reply)
{
    if (!m_worker.answer(reply.generation))
        return; // older than one already shown
    // gpu::FallbackBackend switches quietly and says why in the result's warnings.
    if (reply.result) {
        const QString backend = QString::fromStdString(reply.result->backend);
        const QString device = QString::fromStdString(reply.result->device);
        if (backend != m_backend || device != m_device) {
            m_backend = backend;
            m_device = device;
            const auto& warnings = reply.result->diagnostics.warnings;
            emit backendChanged(backend, device,
                                warnings.empty() ? QString()
                                                 : QString::fromStdString(warnings.back()));
        }
    }
    emit finished(reply);
    if (!isBusy())
        emit busyChanged(false);
}

} // namespace attn::ui
