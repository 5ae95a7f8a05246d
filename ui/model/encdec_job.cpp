#include "ui/model/encdec_job.h"

#include "core/error.h"

namespace attn::ui {

EncDecJob::EncDecJob(std::shared_ptr<const core::Model> model, std::vector<core::Token> source,
                     core::EncoderDecoderInterventions interventions, int maxNewTokens,
                     std::unique_ptr<core::Backend> backend, int beams, QObject* parent)
    : QObject(parent), m_model(std::move(model)), m_source(std::move(source)),
      m_interventions(std::move(interventions)), m_maxNewTokens(maxNewTokens), m_beams(beams),
      m_backend(std::move(backend))
{
    qRegisterMetaType<core::BeamHypothesis>();
}

void EncDecJob::start()
{
    m_thread.start([this] {
        core::ForwardOptions options;
        options.cancel = m_thread.cancelFlag();
        // The steps' forwards are what the view shows; their Q, K and V are not.
        options.keepIntermediates = false;
        bool stopped = false;
        QString error;
        auto onStep = [this](const core::GreedyStep& step) {
            m_thread.post([this, step] { emit stepped(step); });
        };
        try {
            if (m_beams > 1) {
                const core::BeamDecoding decoding =
                    core::decodeWithBeams(m_model, m_source, m_maxNewTokens, m_beams,
                                          m_interventions, *m_backend, options, onStep);
                m_thread.post([this, best = decoding.search.best] { emit searched(best); });
            } else {
                core::decodeGreedilyWith(m_model, m_source, m_maxNewTokens, m_interventions,
                                         *m_backend, options, onStep);
            }
        } catch (const core::Cancelled&) {
            stopped = true;
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        m_thread.finish([this, stopped, error] {
            if (error.isEmpty())
                emit finished(stopped);
            else
                emit failed(error);
        });
    });
}

} // namespace attn::ui
