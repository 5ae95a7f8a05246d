#include "output_types_command.h"

#include "command_line.h"

#include "app/output_paths.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <cstdio>

namespace attn::app {

bool readOutputHeadOptions(const QCommandLineParser& parser, Seq2SeqOptions& options,
                           CommandLineError& error)
{
    const auto usage = [&error](const QString& message) {
        error = {kUsage, message};
        return false;
    };
    const bool classification = options.outputHead == core::OutputHeadKind::Classification;
    if (parser.isSet(QStringLiteral("seq2seq-pooling")) && !classification)
        return usage(QStringLiteral("--seq2seq-pooling needs --seq2seq-train classification"));
    if (!options.outputHead)
        return true;
    for (const char* name : {"save", "beam", "seq2seq-attention", "seq2seq-layers",
                             "pairs-max-words", "pairs-english-prefixes", "view"})
        if (parser.isSet(QLatin1String(name)))
            return usage(QStringLiteral("--%1 cannot be used with --seq2seq-train %2: its model "
                                        "is an encoder and a classifier, trained here or in the "
                                        "window and not saved")
                             .arg(QLatin1String(name), options.trainTask));
    if (classification && parser.isSet(QStringLiteral("seq2seq-pooling"))) {
        const QString name = parser.value(QStringLiteral("seq2seq-pooling"));
        const auto pooling = core::parseSentencePooling(name.toStdString());
        if (!pooling)
            return usage(
                QStringLiteral("--seq2seq-pooling: expected mean, first or last, got \"%1\"")
                    .arg(name));
        options.pooling = *pooling;
    }
    return true;
}

int runOutputHeadHeadless(const Seq2SeqOptions& options, const std::optional<QString>& text,
                          const QString& dumpPath, const QString& exportPath)
{
    if (!exportPath.isEmpty()) {
        printLine(stderr, QStringLiteral("error: --export: the output types are drawn in the "
                                         "sequence-to-sequence window's Output Types tab"));
        return kUsage;
    }
    const core::OutputHeadKind kind = *options.outputHead;
    QJsonObject dump;
    try {
        core::OutputHeadSettings settings;
        settings.cell = options.cell;
        settings.bidirectional = options.bidirectional;
        settings.pooling = options.pooling;
        core::OutputHeadTrainer trainer(core::makeOutputHeadTask(kind, 2000, 200, 7), settings);
        QJsonArray losses;
        for (int step = 0; step < options.steps; ++step)
            losses.append(trainer.step());
        const double accuracy = trainer.heldOutAccuracy();
        printLine(stdout, trainingSummary(options.trainTask, trainer.losses(),
                                          QStringLiteral("held-out accuracy %1 % (%2)")
                                              .arg(accuracy * 100.0, 0, 'f', 1)
                                              .arg(kind == core::OutputHeadKind::Tagging
                                                       ? QStringLiteral("words")
                                                       : QStringLiteral("sentences"))));
        dump[QStringLiteral("training")] =
            QJsonObject{{"task", options.trainTask}, {"loss", losses}, {"accuracy", accuracy}};
        if (text) {
            const core::OutputHeadModel& model = trainer.model();
            const std::vector<int> ids = core::outputHeadIds(model, *text);
            const core::OutputHeadResult result = core::runOutputHead(model, ids);
            QJsonArray words, labels;
            for (const int id : ids)
                words.append(QString::fromStdString(model.encoder.source.words[std::size_t(id)]));
            for (const int label : result.labels)
                labels.append(QString::fromStdString(model.labels[std::size_t(label)]));
            // "the/DET cat/NOUN ...", or the sentence's class
            QStringList shown;
            if (kind == core::OutputHeadKind::Tagging)
                for (qsizetype i = 0; i < words.size(); ++i)
                    shown << words[i].toString() + QLatin1Char('/') + labels[i].toString();
            else
                shown << labels[0].toString();
            printLine(stdout, shown.join(QLatin1Char(' ')));
            QJsonArray probabilities;
            for (Eigen::Index r = 0; r < result.probabilities.rows(); ++r) {
                QJsonArray row;
                for (Eigen::Index c = 0; c < result.probabilities.cols(); ++c)
                    row.append(double(result.probabilities(r, c)));
                probabilities.append(row);
            }
            QJsonArray classes;
            for (const std::string& label : model.labels)
                classes.append(QString::fromStdString(label));
            dump[QStringLiteral("output_head")] = QJsonObject{{"words", words},
                                                              {"classes", classes},
                                                              {"labels", labels},
                                                              {"probabilities", probabilities}};
        }
    } catch (...) {
        return reportInputError();
    }
    if (dumpPath.isEmpty())
        return kOk;
    return writeOutputs({{dumpPath, QJsonDocument(dump).toJson(QJsonDocument::Indented)}});
}

} // namespace attn::app
