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

void HeadImportanceJob::start()
{
    m_thread.start([this] {
        core::ImportanceOptions options;
        options.cancel = m_thread.cancelFlag();
        options.progress = [this](int done, int total) {
            m_thread.post([this, done, total] { emit progress(done, total); });
        };
        std::optional<core::HeadImportance> importance;
        QString error;
        try {
            importance = core::headImportance(m_base, *m_backend, options);
        } catch (const core::Cancelled&) {
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        m_thread.finish([this, importance, error] {
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
