#include "training_json.h"

#include "core/json_numbers.h"
#include "core/training/trainer.h"

#include <QJsonArray>
#include <cmath>

namespace attn::core {
namespace {

QJsonValue number(double value)
{
    return std::isfinite(value) ? QJsonValue(value) : jsonNumber(float(value));
}

QString text(std::string_view name)
{
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

} // namespace

QJsonObject trainingToJson(const Trainer& trainer)
{
    QJsonArray loss;
    for (double value : trainer.lossHistory())
        loss.append(number(value));
    const TrainingEvaluation final = trainer.evaluate();
    QJsonArray notes;
    for (const QString& note : trainer.notes())
        notes.append(note);
    const LossSettings& settings = trainer.lossSettings();
    return QJsonObject{
        {"task", text(toString(trainer.setup().task))},
        {"steps", trainer.stepCount()},
        {"learning_rate", trainer.learningRate()},
        {"loss", loss},
        {"attention_loss", text(toString(settings.attention))},
        {"attention_weight", settings.attentionWeight},
        {"output_weight", settings.outputWeight},
        {"hard_gradient", text(toString(trainer.setup().hard.mode))},
        {"final", QJsonObject{{"loss", number(final.loss.total)},
                              {"attention_loss", number(final.loss.attention)},
                              {"output_loss", number(final.loss.output)},
                              {"accuracy", number(final.accuracy)}}},
        {"notes", notes},
    };
}

} // namespace attn::core
