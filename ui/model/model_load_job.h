#pragma once

#include "core/model/model_loader.h"
#include "ui/document/thread_mailbox.h"

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <thread>

namespace attn::ui {

// Opens a checkpoint off the UI thread (core::loadModel), reporting progress per layer, and
// stops between tensors when cancelled. One job per load; delete it to cancel and wait.
class ModelLoadJob : public QObject
{
    Q_OBJECT

public:
    explicit ModelLoadJob(QString folderOrId, QObject* parent = nullptr);
    ~ModelLoadJob() override;

    QString source() const { return m_source; }
    void start();
    void cancel() { m_cancel = true; }
    bool isRunning() const { return m_running; }

signals:
    void progress(int done, int total);
    void loaded(std::shared_ptr<const attn::core::Model> model);
    void failed(const QString& message);
    void cancelled();

private:
    QString m_source;
    ThreadMailbox m_mailbox; // progress and the result to the UI thread
    std::thread m_thread;
    std::atomic<bool> m_cancel{false};
    bool m_running = false;
};

} // namespace attn::ui
