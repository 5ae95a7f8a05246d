#include "ui/model/model_load_job.h"

#include <new>

namespace attn::ui {

ModelLoadJob::ModelLoadJob(QString folderOrId, QObject* parent)
    : QObject(parent), m_source(std::move(folderOrId))
{
}

ModelLoadJob::~ModelLoadJob()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

void ModelLoadJob::start()
{
    if (m_running || m_thread.joinable())
        return;
    m_running = true;
    m_thread = std::thread([this] {
        core::LoadOptions options;
        options.cancel = &m_cancel;
        options.progress = [this](int done, int total) {
            m_mailbox.post([this, done, total] { emit progress(done, total); });
        };
        std::shared_ptr<const core::Model> model;
        QString error;
        bool wasCancelled = false;
        try {
            model = core::loadModel(m_source, options);
        } catch (const core::Cancelled&) {
            wasCancelled = true;
        } catch (const std::bad_alloc&) { // loadModel reports its own; this is the last resort
            error = tr("Not enough memory to load the model.");
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        // A cancel that came after the last tensor still counts: the user no longer wants it.
        if (m_cancel)
            wasCancelled = true;
        m_mailbox.post([this, model, error, wasCancelled] {
            m_running = false;
            if (wasCancelled)
                emit cancelled();
            else if (model)
                emit loaded(model);
            else
                emit failed(error);
        });
    });
}

} // namespace attn::ui
