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

void GenerationJob::start()
{
    m_thread.start([this] {
        core::ForwardOptions options;
        options.cancel = m_thread.cancelFlag();
        std::optional<core::GenerationStop> stop;
        QString error;
        try {
            const core::Generation done = core::generate(
                m_model, m_prompt, m_interventions, *m_backend, m_settings, options,
                [this](core::Generation& sofar) {
                    m_thread.post([this, step = std::move(sofar.steps.back()),
                                   text = sofar.continuation] { emit stepped(step, text); });
                });
            stop = done.stop;
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        m_thread.finish([this, stop, error] {
            if (stop)
                emit finished(*stop);
            else
                emit failed(error);
        });
    });
}

} // namespace attn::ui
