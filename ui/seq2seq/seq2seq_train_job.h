#pragma once

#include "ui/document/job_thread.h"

#include "core/seq2seq/seq2seq_trainer.h"

#include <QCoreApplication>
#include <QObject>
#include <QPointF>
#include <QVector>
#include <algorithm>
#include <functional>
#include <memory>
#include <new>
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

// What a training job runs on its JobThread: the trainers `makeTrainers` returns (a vector,
// trained side by side), `steps` rounds of a step() of each in turn, each step's loss handed to
// `progress(trainer, step, loss, accuracy)` (on the thread: it posts) with the held-out accuracy
// every twentieth of the way (-1 between: it costs a decoding of every held-out pair), stopping
// between steps once cancelled. Last, through the thread's finish(): the task `finish(trainers)`
// returns when every step ran, the job's cancelled() when it was stopped, or its failed().
template <typename Job, typename MakeTrainers, typename Progress, typename Finish>
void runTrainingLoop(Job* job, JobThread& thread, int steps, const MakeTrainers& makeTrainers,
                     const Progress& progress, const Finish& finish)
{
    std::function<void()> done = [job] { emit job->cancelled(); };
    try {
        auto trainers = makeTrainers();
        const int every = std::max(1, steps / 20);
        for (int step = 1; step <= steps && !thread.cancelled(); ++step)
            for (std::size_t v = 0; v < trainers.size(); ++v) {
                const double loss = trainers[v].step();
                const double accuracy =
                    step % every == 0 || step == steps ? trainers[v].heldOutAccuracy() : -1.0;
                progress(int(v), step, loss, accuracy);
            }
        if (!thread.cancelled())
            done = finish(trainers);
    } catch (const std::bad_alloc&) {
        done = [job] {
            emit job->failed(QCoreApplication::translate("Seq2SeqTrainJob",
                                                         "Not enough memory to train the model."));
        };
    } catch (const std::exception& e) {
        done = [job, message = QString::fromUtf8(e.what())] { emit job->failed(message); };
    }
    thread.finish(std::move(done));
}

// Starts `job`'s thread on runTrainingLoop; false when it ran already.
template <typename Job, typename MakeTrainers, typename Progress, typename Finish>
bool startTrainingJob(Job* job, JobThread& thread, int steps, MakeTrainers makeTrainers,
                      Progress progress, Finish finish)
{
    return thread.start(
        [=, &thread] { runTrainingLoop(job, thread, steps, makeTrainers, progress, finish); });
}

// Trains one or more sequence-to-sequence models on the same pairs off the UI thread, a step of
// each in turn (with and without attention side by side), reporting the loss and the held-out
// accuracy as they go, and stops between steps when cancelled. One job per training; delete it
// to cancel and wait (the thread is joined before the data it reads go).
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

    void start();
    void cancel() { m_thread.cancel(); }
    // From start() until finished, failed or cancelled has been emitted.
    bool isRunning() const { return m_thread.isRunning(); }

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
    // Stopped by cancel() before the last step: nothing trained is handed over.
    void cancelled();

private:
    core::Seq2SeqTaskData m_data;
    std::vector<core::Seq2SeqTrainingSettings> m_variants;
    int m_steps;
    JobThread m_thread; // last: the thread ends before the members above go
};

} // namespace attn::ui
