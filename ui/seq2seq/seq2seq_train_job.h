#pragma once

#include "ui/document/thread_mailbox.h"

#include "core/seq2seq/seq2seq_trainer.h"

#include <QObject>
#include <QPointF>
#include <QVector>
#include <atomic>
#include <memory>
#include <thread>

namespace attn::ui {

// Trains a sequence-to-sequence model off the UI thread, reporting the loss and the held-out
// accuracy as it goes, and stops between steps when cancelled. One job per training; delete it
// to cancel and wait.
class Seq2SeqTrainJob : public QObject
{
    Q_OBJECT

public:
    Seq2SeqTrainJob(core::Seq2SeqTaskData data, core::Seq2SeqTrainingSettings settings, int steps,
                    QObject* parent = nullptr);
    ~Seq2SeqTrainJob() override;

    void start();
    void cancel() { m_cancel = true; }

signals:
    // Every few steps: the step reached, its loss, the held-out exact-match share (-1 where not
    // measured at this step).
    void progress(int step, double loss, double accuracy);
    // The trained model, its held-out exact-match share, and that share by source length
    // (x: the length in tokens, y: the share; Bahdanau et al. 2015, Fig. 2).
    void finished(std::shared_ptr<const attn::core::Seq2SeqModel> model, double accuracy,
                  const QVector<QPointF>& byLength);
    void failed(const QString& message);

private:
    core::Seq2SeqTaskData m_data;
    core::Seq2SeqTrainingSettings m_settings;
    int m_steps;
    ThreadMailbox m_mailbox;
    std::thread m_thread;
    std::atomic<bool> m_cancel{false};
};

} // namespace attn::ui
