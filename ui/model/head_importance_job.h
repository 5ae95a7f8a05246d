#pragma once

#include "core/backend.h"
#include "core/model/model_analysis.h"
#include "ui/document/job_thread.h"

#include <QMetaType>
#include <QObject>
#include <memory>

namespace attn::ui {

// Head importance (core::headImportance: each head switched off in turn, the layers below it
// reused) in the background, with progress per head and cancel between heads. It has a
// backend of its own, so the window's live updates never wait for it.
class HeadImportanceJob : public QObject
{
    Q_OBJECT

public:
    HeadImportanceJob(std::shared_ptr<const core::ModelResult> base,
                      std::unique_ptr<core::Backend> backend, QObject* parent = nullptr);

    std::shared_ptr<const core::ModelResult> base() const { return m_base; }
    void start();
    void cancel() { m_thread.cancel(); }
    bool isRunning() const { return m_thread.isRunning(); }

signals:
    void progress(int done, int total);
    void finished(const attn::core::HeadImportance& importance);
    void failed(const QString& message);
    void cancelled();

private:
    std::shared_ptr<const core::ModelResult> m_base;
    std::unique_ptr<core::Backend> m_backend;
    JobThread m_thread; // last: the thread ends before the members above go
};

} // namespace attn::ui

Q_DECLARE_METATYPE(attn::core::HeadImportance)
