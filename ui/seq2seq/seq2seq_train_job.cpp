#include "ui/seq2seq/seq2seq_train_job.h"

#include <new>

namespace attn::ui {

Seq2SeqTrainJob::Seq2SeqTrainJob(core::Seq2SeqTaskData data, core::Seq2SeqTrainingSettings settings,
                                 int steps, QObject* parent)
    : QObject(parent), m_data(std::move(data)), m_settings(settings), m_steps(steps)
{
}

Seq2SeqTrainJob::~Seq2SeqTrainJob()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

void Seq2SeqTrainJob::start()
{
    if (m_thread.joinable())
        return;
    m_thread = std::thread([this] {
        try {
            core::Seq2SeqTrainer trainer(m_data, m_settings);
            // The held-out accuracy costs a decoding of every held-out pair: measured 20 times.
            const int every = std::max(1, m_steps / 20);
            for (int step = 1; step <= m_steps && !m_cancel; ++step) {
                const double loss = trainer.step();
                const double accuracy =
                    step % every == 0 || step == m_steps ? trainer.heldOutAccuracy() : -1.0;
                m_mailbox.post(
                    [this, step, loss, accuracy] { emit progress(step, loss, accuracy); });
            }
            if (m_cancel)
                return;
            auto model = std::make_shared<const core::Seq2SeqModel>(trainer.model());
            const std::vector<core::Seq2SeqLengthAccuracy> lengths =
                trainer.heldOutAccuracyByLength();
            QVector<QPointF> byLength;
            for (const core::Seq2SeqLengthAccuracy& entry : lengths)
                byLength.append(QPointF(entry.length, double(entry.exact) / double(entry.pairs)));
            const double accuracy = core::seq2seqExactShare(lengths);
            m_mailbox.post(
                [this, model, accuracy, byLength] { emit finished(model, accuracy, byLength); });
        } catch (const std::bad_alloc&) {
            m_mailbox.post([this] { emit failed(tr("Not enough memory to train the model.")); });
        } catch (const std::exception& e) {
            const QString message = QString::fromUtf8(e.what());
            m_mailbox.post([this, message] { emit failed(message); });
        }
    });
}

} // namespace attn::ui
