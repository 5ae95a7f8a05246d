#pragma once

#include "ui/document/thread_mailbox.h"

#include "core/seq2seq/output_head_trainer.h"

#include <QObject>
#include <atomic>
#include <memory>
#include <thread>

namespace attn::ui {

// Trains an encoder and its output head (tagging or classification) off the UI thread,
// reporting the loss and the held-out accuracy as it goes; delete it to cancel and wait.
class OutputTypesTrainJob : public QObject
{
    Q_OBJECT

public:
    OutputTypesTrainJob(core::OutputHeadKind kind, core::OutputHeadSettings settings, int steps,
                        QObject* parent = nullptr);
    ~OutputTypesTrainJob() override;

    void start();

signals:
    // Every step: its loss, and the held-out accuracy (-1 where not measured at this step).
    void progress(int step, double loss, double accuracy);
    void finished(std::shared_ptr<const attn::core::OutputHeadModel> model, double accuracy);
    void failed(const QString& message);

private:
    core::OutputHeadKind m_kind;
    core::OutputHeadSettings m_settings;
    int m_steps;
    ThreadMailbox m_mailbox;
    std::thread m_thread;
    std::atomic<bool> m_cancel{false};
};

} // namespace attn::ui
