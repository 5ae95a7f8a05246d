#include "ui/model/encdec_job.h"

#include "core/error.h"

namespace attn::ui {

EncDecJob::EncDecJob(std::shared_ptr<const core::Model> model, std::vector<core::Token> source,
                     core::EncoderDecoderInterventions interventions, int maxNewTokens,
                     std::unique_ptr<core::Backend> backend, QObject* parent)
    : QObject(parent), m_model(std::move(model)), m_source(std::move(source)),
      m_interventions(std::move(interventions)), m_maxNewTokens(maxNewTokens),
      m_backend(std::move(backend))
{
}

EncDecJob::~EncDecJob()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

void EncDecJob::start()
{
    if (m_running || m_thread.joinable())
        return;
    m_running = true;
    m_thread = std::thread([this] {
        core::ForwardOptions options;
        options.cancel = &m_cancel;
        // The steps' forwards are what the view shows; their Q, K and V are not.
        options.keepIntermediates = false;
        bool stopped = false;
        QString error;
        try {
            core::decodeGreedilyWith(m_model, m_source, m_maxNewTokens, m_interventions, *m_backend,
                                     options, [this](const core::GreedyStep& step) {
                                         m_mailbox.post([this, step] { emit stepped(step); });
                                     });
        } catch (const core::Cancelled&) {
            stopped = true;
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        m_mailbox.post([this, stopped, error] {
            m_running = false;
            if (error.isEmpty())
                emit finished(stopped);
            else
                emit failed(error);
        });
    });
}

} // namespace attn::ui
