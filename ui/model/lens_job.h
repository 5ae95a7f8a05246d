#pragma once

#include "core/backend.h"
#include "ui/document/job_thread.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>

namespace attn::ui {

// One computation of the lens, patching or attribution tabs in the background, with a backend
// of its own (the window's live updates never wait for it), progress, and cancel between the
// steps core checks it at. `Work` runs on the job's thread and returns what the UI thread does
// with its result; that runs before finished(), and never after the job is destroyed. The job
// deletes itself (deleteLater) once it has ended, so a cancelled one can be left to finish
// while a new one starts.
class LensJob : public QObject
{
    Q_OBJECT

public:
    using Progress = std::function<void(int done, int total)>;
    using Work = std::function<std::function<void()>(
        core::Backend& backend, const std::atomic<bool>* cancel, const Progress& progress)>;

    LensJob(Work work, std::unique_ptr<core::Backend> backend, QObject* parent = nullptr);

    void start();
    void cancel() { m_thread.cancel(); }
    bool isRunning() const { return m_thread.isRunning(); }

signals:
    void progress(int done, int total);
    void finished();
    void failed(const QString& message);
    void cancelled();

private:
    Work m_work;
    std::unique_ptr<core::Backend> m_backend;
    JobThread m_thread; // last: the thread ends before the members above go
};

} // namespace attn::ui
