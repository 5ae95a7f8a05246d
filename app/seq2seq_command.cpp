#include "seq2seq_command.h"

#include "command_line.h"

#include "app/output_paths.h"
#include "app/output_types_command.h"

#include "core/error.h"
#include "core/json_numbers.h"
#include "core/seq2seq/seq2seq_trainer.h"
#include "ui/figures/figure_export.h"
#include "ui/seq2seq/seq2seq_figures.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cstdio>
#include <map>
#include <memory>

namespace attn::app {
namespace {

constexpr int kMaxSeq2SeqSteps = 1000000;
constexpr int kMaxBeam = 64;
constexpr int kMaxPairWords = 4096;

QJsonArray numbers(const core::RowVector& values)
{
    QJsonArray array;
    for (Eigen::Index i = 0; i < values.size(); ++i)
        array.append(double(values(i)));
    return array;
}

// The dump's "seq2seq" object (docs/DUMP_FORMAT.md).
QJsonObject decodingJson(const core::Seq2SeqModel& model, const core::Seq2SeqDecoding& d)
{
    QJsonArray steps;
    for (const core::Seq2SeqStep& step : d.steps)
        steps.append(QJsonObject{{"input_id", step.inputId},
                                 {"output_id", step.outputId},
                                 {"attention", numbers(step.attention)},
                                 {"log_probs", numbers(step.logProbs)}});
    QJsonArray words;
    for (const std::string& word : d.sourceWords)
        words.append(QString::fromStdString(word));
    return {{"source_tokens", words},
            {"source_ids", core::jsonArray(d.sourceIds)},
            {"output_ids", core::jsonArray(d.outputIds)},
            {"translation", core::seq2seqTargetText(model, d.outputIds)},
            {"log_probability", d.logProbability},
            {"steps", steps}};
}

// Bahdanau et al. 2015, Fig. 2 as a table: the held-out pairs in buckets of five source tokens.
void printLengthTable(const std::vector<core::Seq2SeqLengthAccuracy>& lengths)
{
    printLine(stdout, QStringLiteral("source tokens  pairs  exact match  words right"));
    std::map<int, core::Seq2SeqLengthAccuracy> buckets;
    for (const core::Seq2SeqLengthAccuracy& entry : lengths) {
        core::Seq2SeqLengthAccuracy& bucket = buckets[entry.length / 5];
        bucket.pairs += entry.pairs;
        bucket.exact += entry.exact;
        bucket.tokens += entry.tokens;
        bucket.rightTokens += entry.rightTokens;
    }
    for (const auto& [bucket, entry] : buckets)
        printLine(stdout, QStringLiteral("%1-%2  %3  %4 %  %5 %")
                              .arg(5 * bucket, 6)
                              .arg(5 * bucket + 4, -6)
                              .arg(entry.pairs, 5)
                              .arg(100.0 * entry.exact / entry.pairs, 9, 'f', 1)
                              .arg(100.0 * entry.rightTokens / entry.tokens, 9, 'f', 1));
}

} // namespace

QString trainingSummary(const QString& task, const std::vector<double>& losses,
                        const QString& accuracy)
{
    return QStringLiteral("%1: %2 steps, loss %3 -> %4, %5")
        .arg(task)
        .arg(losses.size())
        .arg(losses.front(), 0, 'f', 4)
        .arg(losses.back(), 0, 'f', 4)
        .arg(accuracy);
}

void addSeq2SeqOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("seq2seq"),
         QStringLiteral("Decode --text with the RNN encoder-decoder in this folder (the layout of "
                        "PyTorch's translation tutorial; docs/SEQ2SEQ_FORMAT.md)."),
         QStringLiteral("DIR")},
        {QStringLiteral("seq2seq-train"),
         QStringLiteral(
             "Train an encoder-decoder with attention on a built-in task first: dates, "
             "reverse, copy, sort or english-french, or on a file of tab-separated "
             "sentence pairs as the tutorial's eng-fra.txt (--steps; by default 300 for dates "
             "and a file, 1000 for the other tasks); tagging or classification train the "
             "encoder with a classifier at every word or over the sentence instead."),
         QStringLiteral("TASK|PAIRS")},
        {QStringLiteral("seq2seq-attention"),
         QStringLiteral("The trained decoder's attention: bahdanau (default), none, dot, general, "
                        "concat or hard."),
         QStringLiteral("NAME")},
        {QStringLiteral("seq2seq-cell"),
         QStringLiteral("The trained encoder's and decoder's cell: gru (default) or lstm."),
         QStringLiteral("CELL")},
        {QStringLiteral("seq2seq-layers"),
         QStringLiteral("The trained encoder's and decoder's layers: 1 (default) or 2."),
         QStringLiteral("N")},
        {QStringLiteral("seq2seq-bidirectional"),
         QStringLiteral("Train a bidirectional encoder (docs/SEQ2SEQ_FORMAT.md).")},
        {QStringLiteral("seq2seq-pooling"),
         QStringLiteral("What the classification task's classifier reads of the encoder's "
                        "states: mean (default), first or last."),
         QStringLiteral("NAME")},
        {QStringLiteral("pairs-max-words"),
         QStringLiteral("Keep the pairs of fewer than N words a side (the tutorial's MAX_LENGTH; "
                        "default 10)."),
         QStringLiteral("N")},
        {QStringLiteral("pairs-english-prefixes"),
         QStringLiteral("Keep the pairs whose English sentence starts as the tutorial's "
                        "eng_prefixes (\"i am \", \"he is\", ...).")},
        {QStringLiteral("save"), QStringLiteral("Save the trained encoder-decoder in this folder."),
         QStringLiteral("DIR")},
        {QStringLiteral("beam"),
         QStringLiteral("Beam search of this width instead of greedy decoding (default 1), with "
                        "--seq2seq or with --generate on an encoder-decoder --model."),
         QStringLiteral("K")},
    });
}

bool readSeq2SeqOptions(const QCommandLineParser& parser, Seq2SeqOptions& options,
                        CommandLineError& error)
{
    const auto usage = [&error](const QString& message) {
        error = {kUsage, message};
        return false;
    };
    const bool folder = parser.isSet(QStringLiteral("seq2seq"));
    const bool train = parser.isSet(QStringLiteral("seq2seq-train"));
    if (parser.isSet(QStringLiteral("beam"))) { // also the width of --generate's beam search
        if (!readWholeNumber(parser, QStringLiteral("beam"), 1, kMaxBeam, options.beam, error))
            return false;
        if (!folder && !train && !parser.isSet(QStringLiteral("generate")))
            return usage(
                QStringLiteral("--beam needs --seq2seq DIR, --seq2seq-train TASK or --generate N"));
    }
    if (!folder && !train) {
        for (const char* name : {"save", "seq2seq-attention", "seq2seq-cell", "seq2seq-layers",
                                 "seq2seq-bidirectional", "seq2seq-pooling", "pairs-max-words",
                                 "pairs-english-prefixes"})
            if (parser.isSet(QLatin1String(name)))
                return usage(QStringLiteral("--%1 needs --seq2seq DIR or --seq2seq-train TASK")
                                 .arg(QLatin1String(name)));
        return true;
    }
    if (folder && train)
        return usage(QStringLiteral(
            "--seq2seq opens a model and --seq2seq-train makes one: give one of them"));
    options.folder = parser.value(QStringLiteral("seq2seq"));
    if (folder && options.folder.isEmpty())
        return usage(QStringLiteral("--seq2seq: the folder name is empty"));
    options.trainTask = parser.value(QStringLiteral("seq2seq-train"));
    options.outputHead = core::parseOutputHeadTask(options.trainTask.toStdString());
    options.trainPairs =
        train && !core::parseSeq2SeqTask(options.trainTask.toStdString()) && !options.outputHead;
    if (options.trainPairs && !QFileInfo(options.trainTask).isFile())
        return usage(QStringLiteral("--seq2seq-train: expected dates, reverse, copy, sort, "
                                    "english-french, tagging, classification or a file of "
                                    "sentence pairs, got \"%1\"")
                         .arg(options.trainTask));
    if (!readOutputHeadOptions(parser, options, error))
        return false;
    for (const char* name : {"seq2seq-attention", "seq2seq-cell", "seq2seq-layers",
                             "seq2seq-bidirectional", "pairs-max-words", "pairs-english-prefixes"})
        if (parser.isSet(QLatin1String(name)) && !train)
            return usage(QStringLiteral("--%1 needs --seq2seq-train").arg(QLatin1String(name)));
    if (parser.isSet(QStringLiteral("seq2seq-attention"))) {
        const QString name = parser.value(QStringLiteral("seq2seq-attention"));
        const auto attention = core::parseSeq2SeqAttention(name.toStdString());
        if (!attention)
            return usage(QStringLiteral("--seq2seq-attention: expected none, bahdanau, dot, "
                                        "general, concat or hard, got \"%1\"")
                             .arg(name));
        options.attention = *attention;
    }
    if (parser.isSet(QStringLiteral("seq2seq-cell"))) {
        const QString cell = parser.value(QStringLiteral("seq2seq-cell"));
        if (cell != QStringLiteral("gru") && cell != QStringLiteral("lstm"))
            return usage(
                QStringLiteral("--seq2seq-cell: expected gru or lstm, got \"%1\"").arg(cell));
        options.cell =
            cell == QStringLiteral("gru") ? core::Seq2SeqCell::Gru : core::Seq2SeqCell::Lstm;
    }
    if (parser.isSet(QStringLiteral("seq2seq-layers"))) {
        const QString layers = parser.value(QStringLiteral("seq2seq-layers"));
        if (layers != QStringLiteral("1") && layers != QStringLiteral("2"))
            return usage(
                QStringLiteral("--seq2seq-layers: expected 1 or 2, got \"%1\"").arg(layers));
        options.layers = layers.toInt();
    }
    options.bidirectional = parser.isSet(QStringLiteral("seq2seq-bidirectional"));
    if (options.bidirectional && options.attention == core::Seq2SeqAttention::Dot)
        return usage(QStringLiteral("--seq2seq-bidirectional: dot attention needs the encoder's "
                                    "states as wide as the decoder's; use general"));
    if (!readWholeNumber(parser, QStringLiteral("pairs-max-words"), 2, kMaxPairWords,
                         options.filter.maxWords, error))
        return false;
    options.filter.englishPrefixes = parser.isSet(QStringLiteral("pairs-english-prefixes"));
    if (parser.isSet(QStringLiteral("save")) && !train)
        return usage(
            QStringLiteral("--save needs --seq2seq-train TASK: it saves the trained model"));
    options.savePath = parser.value(QStringLiteral("save"));
    if (parser.isSet(QStringLiteral("save")) && options.savePath.isEmpty())
        return usage(QStringLiteral("--save: the folder name is empty"));
    if (train && !options.trainPairs)
        options.steps =
            core::seq2seqTaskDefaults(*core::parseSeq2SeqTask(options.trainTask.toStdString()))
                .steps;
    if (!readWholeNumber(parser, QStringLiteral("steps"), 1, kMaxSeq2SeqSteps, options.steps,
                         error))
        return false;
    if (parser.isSet(QStringLiteral("view"))) {
        options.view = parser.value(QStringLiteral("view"));
        if (!ui::parseSeq2SeqFigure(options.view.toStdString()))
            return usage(
                QStringLiteral("--view: with --seq2seq, expected alignment or states, got \"%1\"")
                    .arg(options.view));
    }
    return true;
}

int runSeq2SeqHeadless(const Seq2SeqOptions& options, const std::optional<QString>& text,
                       const QString& dumpPath, const QString& exportPath, QSize figureSize,
                       double dpi)
{
    if (options.outputHead)
        return runOutputHeadHeadless(options, text, dumpPath, exportPath);
    std::shared_ptr<const core::Seq2SeqModel> model;
    QJsonObject dump;
    std::vector<std::pair<QString, QByteArray>> outputs;
    try {
        if (!options.trainTask.isEmpty()) {
            const auto task = core::parseSeq2SeqTask(options.trainTask.toStdString());
            core::Seq2SeqTrainingSettings settings =
                task ? core::seq2seqTaskDefaults(*task).settings : core::Seq2SeqTrainingSettings{};
            settings.attention = options.attention;
            settings.cell = options.cell;
            settings.layers = options.layers;
            settings.bidirectional = options.bidirectional;
            core::Seq2SeqTrainer trainer(
                options.trainPairs
                    ? core::readSeq2SeqPairs(options.trainTask, options.filter, 200, 7)
                    : core::makeSeq2SeqTask(*task, 20000, 200, 7),
                settings);
            QJsonArray losses;
            for (int step = 0; step < options.steps; ++step)
                losses.append(trainer.step());
            // Bahdanau et al. 2015, Fig. 2: how the held-out accuracy falls with the length.
            const std::vector<core::Seq2SeqLengthAccuracy> lengths =
                trainer.heldOutAccuracyByLength();
            QJsonArray byLength;
            for (const core::Seq2SeqLengthAccuracy& entry : lengths)
                byLength.append(QJsonObject{{"length", entry.length},
                                            {"pairs", entry.pairs},
                                            {"exact", entry.exact},
                                            {"tokens", entry.tokens},
                                            {"right_tokens", entry.rightTokens}});
            const double accuracy = core::seq2seqExactShare(lengths);
            printLine(stdout, trainingSummary(
                                  options.trainTask, trainer.losses(),
                                  QStringLiteral("held-out exact match %1 %, words right %2 %")
                                      .arg(accuracy * 100.0, 0, 'f', 1)
                                      .arg(core::seq2seqTokenShare(lengths) * 100.0, 0, 'f', 1)));
            printLengthTable(lengths);
            dump[QStringLiteral("training")] = QJsonObject{{"task", options.trainTask},
                                                           {"loss", losses},
                                                           {"accuracy", accuracy},
                                                           {"accuracy_by_length", byLength}};
            model = std::make_shared<const core::Seq2SeqModel>(trainer.model());
            if (!options.savePath.isEmpty()) // written with the other outputs, all or none
                for (auto& file : core::seq2seqModelFiles(*model, options.savePath))
                    outputs.push_back(std::move(file));
        } else {
            try {
                model = std::make_shared<const core::Seq2SeqModel>(
                    core::loadSeq2SeqModel(options.folder));
            } catch (const core::Error& e) { // the folder is named once, for what is in it
                throw core::Error(options.folder.toStdString(), e);
            }
        }
        if (text) {
            const core::Seq2SeqDecoding decoding =
                options.beam == 1 ? core::decodeGreedy(*model, *text)
                                  : core::decodeBeam(*model, *text, options.beam);
            printLine(stdout, core::seq2seqTargetText(*model, decoding.outputIds));
            dump[QStringLiteral("seq2seq")] = decodingJson(*model, decoding);
            if (!exportPath.isEmpty()) {
                const auto format = ui::figureFormatForPath(exportPath);
                if (!format) {
                    printLine(stderr,
                              QStringLiteral("error: --export: %1 must end in .png, .svg or .pdf")
                                  .arg(exportPath));
                    return kUsage;
                }
                outputs.emplace_back(
                    exportPath,
                    ui::seq2seqFigureBytes(*ui::parseSeq2SeqFigure(options.view.toStdString()),
                                           *model, decoding, figureSize, dpi, *format));
            }
        } else if (!exportPath.isEmpty()) {
            printLine(stderr, QStringLiteral(
                                  "error: --export needs --text: the figure shows its decoding"));
            return kUsage;
        }
    } catch (...) {
        return reportInputError();
    }
    if (!dumpPath.isEmpty())
        outputs.emplace_back(dumpPath, QJsonDocument(dump).toJson(QJsonDocument::Indented));
    if (!options.savePath.isEmpty() && !QDir().mkpath(options.savePath)) {
        printLine(stderr,
                  QStringLiteral("error: cannot create the folder %1").arg(options.savePath));
        return kCannotWrite;
    }
    return writeOutputs(outputs);
}

} // namespace attn::app
