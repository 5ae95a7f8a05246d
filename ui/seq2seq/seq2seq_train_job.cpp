#include "ui/seq2seq/seq2seq_train_job.h"

#include <QPointer>

namespace attn::ui {

Seq2SeqTrainJob::Seq2SeqTrainJob(core::Seq2SeqTaskData data,
                                 std::vector<core::Seq2SeqTrainingSettings> variants, int steps,
                                 QObject* parent)
    : QObject(parent), m_data(std::move(data)), m_variants(std::move(variants)), m_steps(steps)
{
}

void Seq2SeqTrainJob::start()
{
    startTrainingJob(
        this, m_thread, m_steps,
        [this] {
            std::vector<core::Seq2SeqTrainer> trainers;
            for (const core::Seq2SeqTrainingSettings& settings : m_variants)
                trainers.emplace_back(m_data, settings);
            return trainers;
        },
        [this](int v, int step, double loss, double accuracy) {
            m_thread.post([this, v, step, loss, accuracy] {
                const QPointer<Seq2SeqTrainJob> alive(this);
                emit variantProgress(v, step, loss, accuracy);
                if (alive && v == 0)
                    emit progress(step, loss, accuracy);
            });
        },
        [this](const std::vector<core::Seq2SeqTrainer>& trainers) {
            std::vector<Seq2SeqTrained> trained;
            for (std::size_t v = 0; v < trainers.size(); ++v) {
                Seq2SeqTrained t;
                t.settings = m_variants[v];
                t.model = std::make_shared<const core::Seq2SeqModel>(trainers[v].model());
                const std::vector<core::Seq2SeqLengthAccuracy> lengths =
                    trainers[v].heldOutAccuracyByLength();
                for (const core::Seq2SeqLengthAccuracy& entry : lengths) {
                    t.exactByLength.append(
                        QPointF(entry.length, double(entry.exact) / double(entry.pairs)));
                    t.tokensByLength.append(
                        QPointF(entry.length, double(entry.rightTokens) / double(entry.tokens)));
                }
                t.accuracy = core::seq2seqExactShare(lengths);
                trained.push_back(std::move(t));
            }
            return [this, trained] {
                // A receiver may delete the job (that is how a window ends a training).
                const QPointer<Seq2SeqTrainJob> alive(this);
                emit variantsFinished(trained);
                if (alive)
                    emit finished(trained.front().model, trained.front().accuracy,
                                  trained.front().exactByLength);
            };
        });
}

} // namespace attn::ui
