#include "ui/seq2seq/output_types_train_job.h"

#include "ui/seq2seq/seq2seq_train_job.h"

namespace attn::ui {

OutputTypesTrainJob::OutputTypesTrainJob(core::OutputHeadKind kind,
                                         core::OutputHeadSettings settings, int steps,
                                         QObject* parent)
    : QObject(parent), m_kind(kind), m_settings(settings), m_steps(steps)
{
}

void OutputTypesTrainJob::start()
{
    startTrainingJob(
        this, m_thread, m_steps,
        [this] {
            std::vector<core::OutputHeadTrainer> trainers;
            trainers.emplace_back(core::makeOutputHeadTask(m_kind, 2000, 200, 7), m_settings);
            return trainers;
        },
        [this](int, int step, double loss, double accuracy) {
            m_thread.post([this, step, loss, accuracy] { emit progress(step, loss, accuracy); });
        },
        [this](const std::vector<core::OutputHeadTrainer>& trainers) {
            const core::OutputHeadTrainer& trainer = trainers.front();
            auto model = std::make_shared<const core::OutputHeadModel>(trainer.model());
            const double accuracy = trainer.heldOutAccuracy();
            return [this, model, accuracy] { emit finished(model, accuracy); };
        });
}

} // namespace attn::ui
