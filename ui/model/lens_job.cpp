#include "ui/model/lens_job.h"

#include "core/error.h"

namespace attn::ui {

LensJob::LensJob(Work work, std::unique_ptr<core::Backend> backend, QObject* parent)
    : QObject(parent), m_work(std::move(work)), m_backend(std::move(backend))
{
}

void LensJob::start()
{
    m_thread.start([this] {
        std::function<void()> deliver;
        QString error;
        try {
            deliver = m_work(*m_backend, m_thread.cancelFlag(), [this](int done, int total) {
                m_thread.post([this, done, total] { emit progress(done, total); });
            });
        } catch (const core::Cancelled&) {
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        m_thread.finish([this, deliver, error] {
            if (deliver && !m_thread.cancelled()) {
                deliver();
                emit finished();
            } else if (!error.isEmpty() && !m_thread.cancelled()) {
                emit failed(error);
            } else {
                emit cancelled();
            }
            deleteLater();
        });
    });
}

} // namespace attn::ui
