#include "ui/model/model_load_job.h"

#include <new>

namespace attn::ui {

ModelLoadJob::ModelLoadJob(QString folderOrId, QObject* parent)
    : QObject(parent), m_source(std::move(folderOrId))
{
}

void ModelLoadJob::start()
{
    m_thread.start([this] {
        core::LoadOptions options;
        options.cancel = m_thread.cancelFlag();
        options.progress = [this](int done, int total) {
            m_thread.post([this, done, total] { emit progress(done, total); });
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
        if (m_thread.cancelled())
            wasCancelled = true;
        m_thread.finish([this, model, error, wasCancelled] {
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
