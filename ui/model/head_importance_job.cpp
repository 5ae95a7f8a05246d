#include "ui/model/head_importance_job.h"

#include "core/model/model_loader.h"

#include <optional>

namespace attn::ui {

HeadImportanceJob::HeadImportanceJob(std::shared_ptr<const core::ModelResult> base,
                                     std::unique_ptr<core::Backend> backend, QObject* parent)
    : QObject(parent), m_base(std::move(base)), m_backend(std::move(backend))
{
    qRegisterMetaType<core::HeadImportance>();
}

HeadImportanceJob::~HeadImportanceJob()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

void HeadImportanceJob::start()
{
    if (m_running || m_thread.joinable())
        return;
    m_running = true;
    m_thread = std::thread([this] {
        core::ImportanceOptions options;
        options.cancel = &m_cancel;
        options.progress = [this](int done, int total) {
            m_mailbox.post([this, done, total] { emit progress(done, total); });
        };
        std::optional<core::HeadImportance> importance;
        QString error;
        try {
            importance = core::headImportance(m_base, *m_backend, options);
        } catch (const core::Cancelled&) {
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        m_mailbox.post([this, importance, error] {
            m_running = false;
            if (importance)
                emit finished(*importance);
            else if (!error.isEmpty())
                emit failed(error);
            else
                emit cancelled();
        });
    });
}

} // namespace attn::ui
