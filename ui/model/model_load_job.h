#pragma once

#include "core/model/model_loader.h"
#include "ui/document/job_thread.h"

#include <QObject>
#include <QString>
#include <memory>

namespace attn::ui {

// Opens a checkpoint off the UI thread (core::loadModel), reporting progress per layer, and
// stops between tensors when cancelled. One job per load; delete it to cancel and wait.
class ModelLoadJob : public QObject
{
    Q_OBJECT

public:
    explicit ModelLoadJob(QString folderOrId, QObject* parent = nullptr);

    QString source() const { return m_source; }
    void start();
    void cancel() { m_thread.cancel(); }
    bool isRunning() const { return m_thread.isRunning(); }

signals:
    void progress(int done, int total);
    void loaded(std::shared_ptr<const attn::core::Model> model);
    void failed(const QString& message);
    void cancelled();

private:
    QString m_source;
    JobThread m_thread; // last: the thread ends before the members above go
};

} // namespace attn::ui
