#include "ui/model/generation_job.h"

#include <optional>

namespace attn::ui {

GenerationJob::GenerationJob(std::shared_ptr<const core::Model> model,
                             std::vector<core::Token> prompt, core::Interventions interventions,
                             core::GenerationSettings settings,
                             std::unique_ptr<core::Backend> backend, QObject* parent)
    : QObject(parent), m_model(std::move(model)), m_prompt(std::move(prompt)),
      m_interventions(std::move(interventions)), m_settings(std::move(settings)),
      m_backend(std::move(backend))
{
    qRegisterMetaType<core::GenerationStep>();
    qRegisterMetaType<core::GenerationStop>();
}

GenerationJob::~GenerationJob()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

void GenerationJob::start()
{
    if (m_running || m_thread.joinable())
        return;
    m_running = true;
    m_thread = std::thread([this] {
        core::ForwardOptions options;
        options.cancel = &m_cancel;
        std::optional<core::GenerationStop> stop;
        QString error;
        try {
            const core::Generation done = core::generate(
                m_model, m_prompt, m_interventions, *m_backend, m_settings, options,
                [this](core::Generation& sofar) {
                    m_mailbox.post([this, step = std::move(sofar.steps.back()),
                                    text = sofar.continuation] { emit stepped(step, text); });
                });
            stop = done.stop;
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        m_mailbox.post([this, stop, error] {
            m_running = false;
            if (stop)
                emit finished(*stop);
            else
                emit failed(error);
        });
    });
}

} // namespace attn::ui
