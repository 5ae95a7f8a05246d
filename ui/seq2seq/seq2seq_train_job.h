#pragma once

#include "ui/document/thread_mailbox.h"

#include "core/seq2seq/seq2seq_trainer.h"

#include <QCoreApplication>
#include <QObject>
#include <QPointF>
#include <QVector>
#include <algorithm>
#include <atomic>
#include <memory>
#include <new>
#include <thread>
#include <vector>

namespace attn::ui {

// What one trained variant gives the window.
struct Seq2SeqTrained
{
    core::Seq2SeqTrainingSettings settings;
    std::shared_ptr<const core::Seq2SeqModel> model;
    double accuracy = 0.0; // held-out exact match
    // By source length (x: the length in tokens; Bahdanau et al. 2015, Fig. 2): the share of
    // exact matches, and of target tokens right at their position.
    QVector<QPointF> exactByLength, tokensByLength;
};

// What a training job runs on its thread: the trainers `makeTrainers` returns (a vector, trained
// side by side), `steps` rounds of a step() of each in turn, each step's loss handed to
// `progress(trainer, step, loss, accuracy)` (on this thread: it posts to the mailbox) with the
// held-out accuracy every twentieth of the way (-1 between: it costs a decoding of every
// held-out pair), then `finish(trainers)` unless cancelled; a failure handed to the job's
// failed() on the mailbox's thread.
template <typename Job, typename MakeTrainers, typename Progress, typename Finish>
void runTrainingLoop(Job* job, ThreadMailbox& mailbox, const std::atomic<bool>& cancel, int steps,
                     MakeTrainers makeTrainers, Progress progress, Finish finish)
{
    try {
        auto trainers = makeTrainers();
        const int every = std::max(1, steps / 20);
        for (int step = 1; step <= steps && !cancel; ++step)
            for (std::size_t v = 0; v < trainers.size(); ++v) {
                const double loss = trainers[v].step();
                const double accuracy =
                    step % every == 0 || step == steps ? trainers[v].heldOutAccuracy() : -1.0;
                progress(int(v), step, loss, accuracy);
            }
        if (!cancel)
            finish(trainers);
    } catch (const std::bad_alloc&) {
        mailbox.post([job] {
            emit job->failed(QCoreApplication::translate("Seq2SeqTrainJob",
                                                         "Not enough memory to train the model."));
        });
    } catch (const std::exception& e) {
        const QString message = QString::fromUtf8(e.what());
        mailbox.post([job, message] { emit job->failed(message); });
    }
}

// Trains one or more sequence-to-sequence models on the same pairs off the UI thread, a step of
// each in turn (with and without attention side by side), reporting the loss and the held-out
// accuracy as they go, and stops between steps when cancelled. One job per training; delete it
// to cancel and wait.
class Seq2SeqTrainJob : public QObject
{
    Q_OBJECT

public:
    Seq2SeqTrainJob(core::Seq2SeqTaskData data, std::vector<core::Seq2SeqTrainingSettings> variants,
                    int steps, QObject* parent = nullptr);
    // One model.
    Seq2SeqTrainJob(core::Seq2SeqTaskData data, const core::Seq2SeqTrainingSettings& settings,
                    int steps, QObject* parent = nullptr)
        : Seq2SeqTrainJob(std::move(data), std::vector{settings}, steps, parent)
    {
    }
    ~Seq2SeqTrainJob() override;

    void start();
    void cancel() { m_cancel = true; }

signals:
    // Every few steps: the variant (an index into those given), the step reached, its loss, the
    // held-out exact-match share (-1 where not measured at this step).
    void variantProgress(int variant, int step, double loss, double accuracy);
    // Every variant trained, in the order given.
    void variantsFinished(const std::vector<attn::ui::Seq2SeqTrained>& trained);
    // The same for the first variant alone.
    void progress(int step, double loss, double accuracy);
    void finished(std::shared_ptr<const attn::core::Seq2SeqModel> model, double accuracy,
                  const QVector<QPointF>& byLength);
    void failed(const QString& message);

private:
    core::Seq2SeqTaskData m_data;
    std::vector<core::Seq2SeqTrainingSettings> m_variants;
    int m_steps;
    ThreadMailbox m_mailbox;
    std::thread m_thread;
    std::atomic<bool> m_cancel{false};
};

} // namespace attn::ui
