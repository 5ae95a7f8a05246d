#pragma once

#include "ui/document/job_thread.h"

#include "core/seq2seq/output_head_trainer.h"

#include <QObject>
#include <memory>

namespace attn::ui {

// Trains an encoder and its output head (tagging or classification) off the UI thread,
// reporting the loss and the held-out accuracy as it goes; delete it to cancel and wait.
class OutputTypesTrainJob : public QObject
{
    Q_OBJECT

public:
    OutputTypesTrainJob(core::OutputHeadKind kind, core::OutputHeadSettings settings, int steps,
                        QObject* parent = nullptr);

    void start();
    void cancel() { m_thread.cancel(); }
    // From start() until finished, failed or cancelled has been emitted.
    bool isRunning() const { return m_thread.isRunning(); }

signals:
    // Every step: its loss, and the held-out accuracy (-1 where not measured at this step).
    void progress(int step, double loss, double accuracy);
    void finished(std::shared_ptr<const attn::core::OutputHeadModel> model, double accuracy);
    void failed(const QString& message);
    // Stopped by cancel() before the last step: nothing trained is handed over.
    void cancelled();

private:
    core::OutputHeadKind m_kind;
    core::OutputHeadSettings m_settings;
    int m_steps;
    JobThread m_thread; // last: the thread ends before the members above go
};

} // namespace attn::ui
