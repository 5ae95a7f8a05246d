#include "ui/model/lens_job.h"

#include "core/error.h"

namespace attn::ui {

LensJob::LensJob(Work work, std::unique_ptr<core::Backend> backend, QObject* parent)
    : QObject(parent), m_work(std::move(work)), m_backend(std::move(backend))
{
}

LensJob::~LensJob()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

void LensJob::start()
{
    if (m_running || m_thread.joinable())
        return;
    m_running = true;
    m_thread = std::thread([this] {
        std::function<void()> deliver;
        QString error;
        try {
            deliver = m_work(*m_backend, &m_cancel, [this](int done, int total) {
                m_mailbox.post([this, done, total] { emit progress(done, total); });
            });
        } catch (const core::Cancelled&) {
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        m_mailbox.post([this, deliver, error] {
            m_running = false;
            if (deliver && !m_cancel) {
                deliver();
                emit finished();
            } else if (!error.isEmpty() && !m_cancel) {
                emit failed(error);
            } else {
                emit cancelled();
            }
            deleteLater();
        });
    });
}

} // namespace attn::ui
