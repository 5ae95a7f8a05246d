#include "model_command.h"

#include "command_line.h"

#include "app/output_paths.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/model/activation_patching.h"
#include "core/model/available_memory.h"
#include "core/model/decoding_memory.h"
#include "core/model/encoder_decoder.h"
#include "core/model/forward.h"
#include "core/model/lens_json.h"
#include "core/model/logit_attribution.h"
#include "core/model/logit_lens.h"
#include "core/model/model_analysis.h"
#include "core/model/model_json.h"
#include "core/model/model_loader.h"
#include "core/tokenizers/hf_tokenizer.h"
#include "gpu/backend_factory.h"
#include "ui/concepts/concept_figures.h"
#include "ui/concepts/embedding_space_figure.h"
#include "ui/concepts/positions_figure.h"
#include "ui/figures/figure_export.h"
#include "ui/figures/stage_export.h"
#include "ui/model/model_figures.h"
#include "ui/widgets/score_options.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <algorithm>
#include <cstdio>
#include <new>
#include <numeric>

namespace attn::app {
namespace {

QString percent(float probability)
{
    return QString::number(double(probability) * 100.0, 'f', 2) + QStringLiteral(" %");
}

// A token as it reads on a terminal: quoted, with spaces and line breaks visible.
QString quoted(const QString& text)
{
    QString shown = text;
    shown.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    return QLatin1Char('"') + shown + QLatin1Char('"');
}

// Rotary on all of a head or part of it (GPT-NeoX, Phi); learned, from a row past 0 (OPT,
// RoBERTa); Marian's static sinusoidal table (the family reader builds it); T5's relative bias.
QString positionsText(const core::ModelConfig& c)
{
    if (c.positions == core::PositionKind::RelativeBias)
        return QStringLiteral("relative bias per head, %1 buckets, the last from distance %2")
            .arg(c.relativeBuckets)
            .arg(c.relativeMaxDistance);
    if (core::toString(c.family) == "marian")
        return QStringLiteral("sinusoidal (sin and cos halves), not learned");
    if (c.positions == core::PositionKind::Rotary)
        return c.rotaryDims < c.dHead
                   ? QStringLiteral("rotary on %1 of %2 head dimensions, theta %3")
                         .arg(c.rotaryDims)
                         .arg(c.dHead)
                         .arg(c.ropeTheta)
                   : QStringLiteral("rotary, theta %1").arg(c.ropeTheta);
    return c.positionOffset
               ? QStringLiteral("learned, position p in row p + %1").arg(c.positionOffset)
               : QStringLiteral("learned");
}

QString describe(const core::ModelInfo& model)
{
    const core::ModelConfig& c = model.config;
    const core::AvailableMemory available = core::availableMemory();
    QStringList lines;
    lines << QStringLiteral("model:          %1 (%2)").arg(model.name, model.folder)
          << QStringLiteral("family:         %1, %2")
                 .arg(QString::fromUtf8(core::toString(c.family)),
                      c.architecture.isEmpty() ? c.modelType : c.architecture)
          << (c.encoderDecoder()
                  ? QStringLiteral("layers:         encoder %1 (%2 heads, feed-forward %3), "
                                   "decoder %4 with cross-attention")
                        .arg(c.encoderLayers)
                        .arg(c.encoderHeads)
                        .arg(c.encoderFeedForward)
                        .arg(c.layers)
                  : QStringLiteral("layers:         %1").arg(c.layers))
          << QStringLiteral("heads:          %1 (key/value heads %2), d_head %3")
                 .arg(c.heads)
                 .arg(c.kvHeads)
                 .arg(c.dHead)
          << QStringLiteral("d_model:        %1, feed-forward %2").arg(c.dModel).arg(c.dFeedForward)
          << QStringLiteral("vocabulary:     %1").arg(c.vocab)
          << QStringLiteral("parameters:     %1").arg(c.parameterCount())
          << QStringLiteral("dtype:          %1").arg(c.dtype)
          << QStringLiteral("memory:         %1 to load%2")
                 .arg(QString::fromStdString(
                          core::memoryText(core::memoryToLoad(model.float32Bytes))),
                      available.bytes < 0
                          ? QString()
                          : QStringLiteral(", %1 available (%2)")
                                .arg(QString::fromStdString(core::memoryText(available.bytes)),
                                     QString::fromStdString(available.limitedBy)))
          << QStringLiteral("tokenizer:      %1").arg(model.tokenizer->kind())
          << QStringLiteral("context:        %1 tokens").arg(c.maxPositions)
          << QStringLiteral("positions:      %1").arg(positionsText(c))
          << QStringLiteral("normalisation:  %1, %2%3")
                 .arg(QString::fromUtf8(core::toString(c.norm)),
                      c.placement == core::NormPlacement::Pre
                          ? QStringLiteral("before each sub-layer")
                          : QStringLiteral("after each residual sum"),
                      c.parallelResidual
                          ? QStringLiteral("; attention and feed-forward side by side")
                          : QString())
          << QStringLiteral("predicts:       %1")
                 .arg(c.objective == core::Objective::CausalLm ? QStringLiteral("the next token")
                      : c.objective == core::Objective::MaskedLm
                          ? QStringLiteral("[MASK] tokens")
                          : QStringLiteral("nothing (no language-model head)"));
    return lines.join(QLatin1Char('\n'));
}

void printPredictions(const core::ModelResult& result)
{
    const core::Model& model = *result.model;
    if (model.config().objective == core::Objective::None) {
        printLine(stdout,
                  QStringLiteral("%1 has no language-model head: no prediction.").arg(model.name));
        return;
    }
    if (result.predictions.empty()) {
        printLine(stdout, QStringLiteral("The text has no [MASK] token: nothing to fill in."));
        return;
    }
    for (const core::PositionPrediction& p : result.predictions) {
        printLine(stdout, model.config().objective == core::Objective::CausalLm
                              ? QStringLiteral("Next token:")
                              : QStringLiteral("Token %1 ([MASK]):").arg(p.position + 1));
        int rank = 0;
        for (const core::Prediction& top : p.top)
            printLine(stdout, QStringLiteral("%1. %2 %3  (id %4)")
                                  .arg(++rank, 3)
                                  .arg(quoted(top.text), -16)
                                  .arg(percent(top.probability), 9)
                                  .arg(top.id));
    }
}

// What a message names for a value the user wrote: the option, or the scene file's key.
std::string named(const ModelOptions& options, const char* option, const char* sceneKey)
{
    return options.sceneFile.isEmpty() ? std::string(option)
                                       : options.sceneFile.toStdString() + ": " + sceneKey;
}

// The layer that figures and matrices show, from 0.
int shownLayer(const ModelOptions& options, int layers)
{
    const int layer = options.layer.value_or(1);
    if (layer < 1 || layer > layers)
        throw core::Error(named(options, "--layer", "checkpoint.layer") + " " +
                          std::to_string(layer) + ": the model has " + std::to_string(layers) +
                          " layers (1 to " + std::to_string(layers) + ")");
    return layer - 1;
}

// The head a scene names, and the head of a figure or matrix of one head, against the model's
// heads (a figure of head 99 of 4 would otherwise show another head or fail half-way).
void checkShownHead(const CommandLine& commandLine, int heads)
{
    const ModelOptions& options = commandLine.modelOptions;
    const std::string range = ": the model's layers have " + std::to_string(heads) +
                              " heads (1 to " + std::to_string(heads) + ")";
    if (!options.sceneFile.isEmpty() && options.sceneHead >= heads)
        throw core::Error(options.sceneFile.toStdString() + ": checkpoint.head " +
                          std::to_string(options.sceneHead + 1) + range);
    const ui::FigureSpec& figure = commandLine.figure;
    if (commandLine.viewGiven && !options.figure && figure.head >= heads) {
        const std::string view = ui::figureViewName(figure.view, figure.head).toStdString();
        throw core::Error((options.viewFromScene ? options.sceneFile.toStdString() + ": view.view "
                                                 : std::string("--view ")) +
                          view + range);
    }
}

} // namespace

void addModelOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("model"),
         QStringLiteral("A Hugging Face model folder, or a model id in the Hugging Face cache."),
         QStringLiteral("DIR|ID")},
        {QStringLiteral("layer"),
         QStringLiteral("With --model: the layer figures and matrices show (from 1)."),
         QStringLiteral("N")},
        {QStringLiteral("heads-off"),
         QStringLiteral("With --model: switch heads off, LAYER.HEAD from 1 (3.1,5.7)."),
         QStringLiteral("LIST")},
        {QStringLiteral("edit-layer"),
         QStringLiteral("With --model: --mode, --normalize, --temperature, --fill, --causal and "
                        "--window act on "
                        "this layer only (from 1)."),
         QStringLiteral("N")},
        {QStringLiteral("top-k"),
         QStringLiteral("With --model: how many predictions to list (default 5); with --generate: "
                        "sample among the K most likely tokens (0, the default: all)."),
         QStringLiteral("K")},
        {QStringLiteral("model-info"), QStringLiteral("Describe the model (--model) and exit.")},
        {QStringLiteral("clean"),
         QStringLiteral("With --view patching: the clean prompt, activations patched from it."),
         QStringLiteral("TEXT")},
        {QStringLiteral("corrupt"),
         QStringLiteral("With --view patching: the corrupted prompt (as many tokens as --clean)."),
         QStringLiteral("TEXT")},
        {QStringLiteral("metric"),
         QStringLiteral("With --view patching: \"A,B\" (logit(A) - logit(B)) or \"A\" (p(A)), "
                        "one token each."),
         QStringLiteral("A,B")},
    });
    addGenerateOptions(parser);
}

bool readModelOptions(const QCommandLineParser& parser, ModelOptions& options,
                      CommandLineError& error)
{
    const QStringList modelOnly{
        QStringLiteral("layer"), QStringLiteral("heads-off"),  QStringLiteral("edit-layer"),
        QStringLiteral("top-k"), QStringLiteral("model-info"), QStringLiteral("generate"),
        QStringLiteral("clean"), QStringLiteral("corrupt"),    QStringLiteral("metric")};
    if (!readGenerateOptions(parser, options.generate, error))
        return false;
    if (!parser.isSet(QStringLiteral("model"))) {
        for (const QString& name : modelOnly) {
            if (parser.isSet(name)) {
                error = {kUsage, QStringLiteral("--%1 needs --model").arg(name)};
                return false;
            }
        }
        return true;
    }
    options.model = parser.value(QStringLiteral("model"));
    options.info = parser.isSet(QStringLiteral("model-info"));
    options.clean = parser.value(QStringLiteral("clean"));
    options.corrupt = parser.value(QStringLiteral("corrupt"));
    options.metric = parser.value(QStringLiteral("metric"));
    auto number = [&](const QString& name, int low, int high, std::optional<int>& into) {
        return readWholeNumber(parser, name, low, high, into, error);
    };
    std::optional<int> topK;
    if (!number(QStringLiteral("layer"), 1, 10000, options.layer) ||
        !number(QStringLiteral("edit-layer"), 1, 10000, options.editLayer) ||
        (!options.generate.active() && !number(QStringLiteral("top-k"), 1, 1000, topK)))
        return false;
    options.topK = topK.value_or(options.topK);
    options.topKGiven = topK.has_value();
    if (parser.isSet(QStringLiteral("heads-off"))) {
        static const QRegularExpression pair(QStringLiteral("^\\s*(\\d+)\\.(\\d+)\\s*$"));
        for (const QString& item :
             parser.value(QStringLiteral("heads-off")).split(QLatin1Char(','))) {
            const QRegularExpressionMatch match = pair.match(item);
            const int layer = match.captured(1).toInt();
            const int head = match.captured(2).toInt();
            if (!match.hasMatch() || layer < 1 || head < 1) {
                error = {
                    kUsage,
                    QStringLiteral(
                        "--heads-off: expected LAYER.HEAD pairs from 1 such as 3.1,5.7, got \"%1\"")
                        .arg(item)};
                return false;
            }
            options.interventions.headsOff.insert({layer - 1, head - 1});
        }
    }
    return true;
}

core::Interventions modelInterventions(const CommandLine& commandLine, int layers, int heads)
{
    const ModelOptions& options = commandLine.modelOptions;
    core::Interventions interventions = options.interventions;
    for (const auto& [layer, head] : interventions.headsOff) {
        if (layer >= layers || head >= heads)
            throw core::Error(named(options, "--heads-off", "checkpoint.heads_off") + " " +
                              std::to_string(layer + 1) + "." + std::to_string(head + 1) +
                              ": the model has " + std::to_string(layers) + " layers of " +
                              std::to_string(heads) + " heads");
    }
    const bool settings = commandLine.mode || commandLine.normalization ||
                          commandLine.temperature || commandLine.fill || commandLine.causal ||
                          commandLine.window;
    if (settings && !options.editLayer)
        throw CommandLineError{
            kUsage,
            QStringLiteral("with --model, --mode, --normalize, --temperature, --fill, --causal "
                           "and --window act on one layer: name it with --edit-layer N")};
    if (!options.editLayer)
        return interventions;
    const int layer = *options.editLayer - 1;
    if (layer >= layers)
        throw core::Error("--edit-layer " + std::to_string(layer + 1) + ": the model has " +
                          std::to_string(layers) + " layers");
    core::LayerEdit& edit = interventions.layers[layer];
    if (commandLine.mode) {
        core::Scene probe; // applyMode's "hard" also sets the normalisation
        probe.normalization = commandLine.normalization.value_or(core::Normalization::Softmax);
        applyModeName(*commandLine.mode, probe.score, probe.normalization);
        edit.score = probe.score;
        edit.normalization = probe.normalization;
    }
    if (commandLine.normalization)
        edit.normalization = commandLine.normalization;
    edit.temperature = commandLine.temperature;
    edit.fill = commandLine.fill;
    if (commandLine.causal || commandLine.window) {
        core::MaskSpec mask;
        mask.causal = commandLine.causal;
        mask.window = commandLine.window.value_or(-1);
        edit.mask = mask;
    }
    return interventions;
}

namespace {

// The vocabulary's first entries on the map, and the sentence's tokens among them.
constexpr int kModelMapWords = 300;

// The positions of a model's figure: its learned table's first rows, or rotary distances.
constexpr int kModelPositions = 64;

// --view embedding-space with --model: the token embedding matrix's rows (the vocabulary's
// first kModelMapWords and those of --text) on their principal components. --view positions:
// the model's learned or rotary positions. Drawn first, then written, so that a failure to
// write is exit 4 and input the figure cannot be made of exit 3 (README).
int exportModelConcept(const CommandLine& commandLine, const core::Model& model)
{
    const ui::FigureSpec spec = commandLine.figure;
    const ui::FigureFormat format = *ui::figureFormatForPath(commandLine.exportPath);
    QByteArray bytes;
    try {
        if (*commandLine.conceptView == ui::ConceptView::Positions) {
            bytes = ui::drawnFigureBytes(
                [&](QCustomPlot& plot) {
                    ui::buildModelPositionsFigure(plot, model, kModelPositions, spec);
                },
                commandLine.figureSize, spec.dpi, format);
        } else {
            const core::Matrix& table = model.weights.tokenEmbedding;
            std::vector<int> ids(std::size_t(std::min<Eigen::Index>(kModelMapWords, table.rows())));
            std::iota(ids.begin(), ids.end(), 0);
            ui::EmbeddingMapOptions options;
            if (commandLine.text)
                // modelTokens refuses an id the table has no row for.
                for (const core::Token& token : core::modelTokens(model, *commandLine.text)) {
                    options.highlighted << token.text;
                    if (std::find(ids.begin(), ids.end(), token.id) == ids.end())
                        ids.push_back(token.id);
                }
            std::vector<QString> words;
            core::Matrix vectors(Eigen::Index(ids.size()), table.cols());
            for (std::size_t r = 0; r < ids.size(); ++r) {
                words.push_back(model.tokenizer ? model.tokenizer->displayText(ids[r])
                                                : QString::number(ids[r]));
                vectors.row(Eigen::Index(r)) = table.row(ids[r]);
            }
            const core::EmbeddingSpace space(std::move(words), std::move(vectors), model.name);
            bytes = ui::drawnFigureBytes(
                [&](QCustomPlot& plot) {
                    ui::buildEmbeddingSpaceFigure(plot, space, options, spec);
                },
                commandLine.figureSize, spec.dpi, format);
        }
    } catch (const core::Error& e) {
        printLine(stderr, QStringLiteral("error: ") + QString::fromUtf8(e.what()));
        return kInvalidInput;
    }
    return writeOutputs({{commandLine.exportPath, bytes}});
}

// --view patching needs its three options, and they mean nothing without it.
std::optional<CommandLineError> checkPatchingOptions(const ModelOptions& options)
{
    const bool patching = options.figure == ui::ModelFigure::Patching;
    const QList<std::pair<QString, QString>> given{{QStringLiteral("clean"), options.clean},
                                                   {QStringLiteral("corrupt"), options.corrupt},
                                                   {QStringLiteral("metric"), options.metric}};
    for (const auto& [name, value] : given) {
        if (patching && value.isEmpty())
            return CommandLineError{kUsage, QStringLiteral("--view patching needs --clean "
                                                           "\"...\", --corrupt \"...\" and "
                                                           "--metric \"A,B\"")};
        if (!patching && !value.isEmpty())
            return CommandLineError{kUsage, QStringLiteral("--%1 needs --view patching").arg(name)};
    }
    return std::nullopt;
}

// The lens, patching or attribution that --view asks for, into the figure's source; printed
// and dumped beside the run.
void analyse(const CommandLine& commandLine, const core::Interventions& interventions,
             core::Backend& backend, ui::ModelFigureSource& source, QJsonObject& dump)
{
    const ModelOptions& options = commandLine.modelOptions;
    const std::shared_ptr<const core::Model> model = source.result->model;
    switch (options.figure.value_or(ui::ModelFigure::Grid)) {
    case ui::ModelFigure::LogitLens:
        source.lens = core::logitLens(*source.result, backend);
        dump[QStringLiteral("logitLens")] = core::logitLensToJson(*source.lens);
        break;
    case ui::ModelFigure::Patching: {
        core::PatchingMetric metric;
        try {
            metric = core::parsePatchingMetric(*model, options.metric);
        } catch (const core::Error& e) {
            throw core::Error("--metric", e);
        }
        const core::PatchingRuns runs = core::patchingRuns(
            model, core::modelTokens(*model, options.clean),
            core::modelTokens(*model, options.corrupt), interventions, metric, backend);
        source.patching = core::activationPatching(runs, backend);
        for (const std::string& warning : source.patching->warnings)
            printLine(stderr, QStringLiteral("warning: ") + QString::fromStdString(warning));
        printLine(stdout, QStringLiteral("Patching %1: clean %2, corrupted %3")
                              .arg(ui::patchingMetricText(*model, metric))
                              .arg(runs.cleanMetric, 0, 'f', 4)
                              .arg(runs.corruptMetric, 0, 'f', 4));
        dump[QStringLiteral("patching")] = core::patchingToJson(*source.patching);
        break;
    }
    case ui::ModelFigure::Attribution:
        source.attribution = core::logitAttribution(*source.result);
        dump[QStringLiteral("attribution")] = core::attributionToJson(*source.attribution);
        break;
    default:
        break;
    }
}

} // namespace

int runModelHeadless(const CommandLine& commandLine)
{
    const ModelOptions& options = commandLine.modelOptions;
    std::shared_ptr<const core::Model> model;
    try {
        if (options.info) { // config.json and the headers: no weight is read for it
            printLine(stdout, describe(core::readModelInfo(options.model)));
            if (!commandLine.text && !commandLine.conceptView)
                return kOk;
        }
        model = core::loadModel(options.model);
    } catch (const core::Error& e) {
        printLine(stderr, QStringLiteral("error: ") + QString::fromUtf8(e.what()));
        return kInvalidInput;
    } catch (const std::bad_alloc&) { // loadModel reports its own; this is the last resort
        printLine(stderr, QStringLiteral("error: not enough memory to load the model"));
        return kInvalidInput;
    }
    if (commandLine.conceptView && *commandLine.conceptView != ui::ConceptView::EmbeddingSpace &&
        *commandLine.conceptView != ui::ConceptView::Positions) {
        printLine(
            stderr,
            QStringLiteral(
                "error: --view %1 is a view of a single-layer scene; a model shows grid, rollout, "
                "predictions, importance, logit-lens, patching, attribution, embedding-space, "
                "positions or a layer's head:N")
                .arg(ui::conceptViewName(*commandLine.conceptView)));
        return kUsage;
    }
    if (commandLine.conceptView && !commandLine.exportPath.isEmpty())
        return exportModelConcept(commandLine, *model);
    if (const auto error = checkPatchingOptions(options)) {
        printLine(stderr, QStringLiteral("error: ") + error->message);
        return error->code;
    }
    // --view patching shows the clean run where no --text is given.
    const std::optional<QString> text =
        commandLine.text || options.clean.isEmpty() ? commandLine.text : options.clean;
    if (!text) {
        if (options.info)
            return kOk;
        printLine(stderr,
                  QStringLiteral("error: --model needs --text \"...\" (the sentence to run)"));
        return kUsage;
    }

    const std::unique_ptr<core::Backend> backend = commandLineBackend(commandLine);
    if (!backend)
        return kUsage;

    std::vector<std::pair<QString, QByteArray>> outputs; // written at the end, as runHeadless does
    try {
        const core::ModelConfig& config = model->config();
        const core::Interventions interventions =
            modelInterventions(commandLine, config.layers, config.heads);
        // Checked before the run: a layer or head the model lacks costs no forward pass.
        const int layer = shownLayer(options, config.layers);
        checkShownHead(commandLine, config.heads);
        const std::vector<core::Token> tokens = core::modelTokens(*model, *text);
        core::ForwardOptions forward;
        forward.topK = options.topK;
        forward.keepIntermediates = !commandLine.dumpPath.isEmpty() ||
                                    !commandLine.matrixPath.isEmpty() ||
                                    commandLine.figure.view == ui::FigureView::Pipeline;
        std::shared_ptr<const core::ModelResult> result;
        std::optional<core::GreedyDecoding> decoding;
        std::optional<core::Generation> generation;
        QString positionsNote;
        if (options.generate.active() && config.encoderDecoder()) {
            if (options.generate.samplingAsked || !options.generate.stopStrings.isEmpty() ||
                options.generate.repetitionPenalty != 1.0f)
                throw core::Error("--generate: an encoder-decoder model decodes greedily here; "
                                  "--temperature, --top-k, --top-p, --repetition-penalty, --seed "
                                  "and --stop are for decoder-only models");
            const int beams = commandLine.seq2seqOptions.beam;
            if (beams > 1) {
                core::EncoderDecoderInterventions all;
                all.decoder = interventions;
                decoding = core::decodeWithBeams(model, tokens, *options.generate.count, beams, all,
                                                 *backend, forward)
                               .chosen;
            } else {
                decoding = core::decodeGreedily(model, tokens, *options.generate.count,
                                                interventions, *backend, forward);
            }
            result = decoding->result;
            // The decoder's positions end the decoding (T5's n_positions has no table behind it,
            // but is the length it was trained for): say so rather than stop short unexplained.
            const int longest = core::decodedLength(config, *options.generate.count);
            if (longest < *options.generate.count && int(decoding->generated.size()) == longest &&
                decoding->generated.back() != config.eosToken)
                positionsNote = QStringLiteral("--generate %1: decoded %2 new tokens, as many as "
                                               "the decoder's %3 positions hold after its start "
                                               "token")
                                    .arg(*options.generate.count)
                                    .arg(longest)
                                    .arg(config.maxPositions);
            QStringList texts;
            for (int id : decoding->generated)
                texts << model->tokenizer->displayText(id);
            printLine(stdout, QStringLiteral("generated: ") + texts.join(QLatin1Char(' ')));
            if (!positionsNote.isEmpty())
                printLine(stderr, positionsNote);
        } else {
            if (commandLine.seq2seqOptions.beam > 1)
                throw core::Error("--beam: beam search is for encoder-decoder models (BART, "
                                  "Marian, T5); this one generates greedily or by sampling");
            result = core::runModel(model, tokens, interventions, *backend, forward);
            if (options.generate.active()) {
                core::GenerationSettings settings = options.generate.settings();
                settings.alternatives = options.topK;
                core::ForwardOptions steps = forward;
                steps.keepIntermediates = false; // the dump holds the prompt's forward only
                generation =
                    core::generate(model, tokens, interventions, *backend, settings, steps);
                printLine(stdout, generation->continuation);
            } else {
                printPredictions(*result);
            }
        }
        ui::ModelFigureSource source;
        source.result = result;
        QJsonObject analyses;
        analyse(commandLine, interventions, *backend, source, analyses);

        if (!commandLine.dumpPath.isEmpty()) {
            const std::int64_t numbers = core::modelDumpNumbers(*result);
            if (numbers > core::kMaxDumpNumbers)
                throw core::Error("--dump: " + std::to_string(tokens.size()) + " tokens through " +
                                  std::to_string(config.layers) + " layers of " +
                                  std::to_string(config.heads) + " heads make " +
                                  std::to_string(numbers) + " numbers (more than " +
                                  std::to_string(core::kMaxDumpNumbers) + "); dump a shorter text");
            QJsonObject dump = core::modelResultToJson(*result);
            if (generation)
                addGenerationToJson(*generation, dump);
            for (auto it = analyses.begin(); it != analyses.end(); ++it)
                dump[it.key()] = it.value();
            if (decoding) {
                QJsonArray generated;
                for (int id : decoding->generated)
                    generated.append(id);
                dump.insert(QStringLiteral("generated"), generated);
            }
            if (!positionsNote.isEmpty()) {
                QJsonArray warnings = dump.value(QStringLiteral("warnings")).toArray();
                warnings.append(positionsNote);
                dump.insert(QStringLiteral("warnings"), warnings);
            }
            outputs.emplace_back(commandLine.dumpPath,
                                 QJsonDocument(dump).toJson(QJsonDocument::Indented));
        }
        const core::AttentionResult& shown = *result->layers[std::size_t(layer)];
        ui::FigureSpec spec = commandLine.figure;
        if (!commandLine.viewGiven)
            spec.view = ui::FigureView::Heads;
        if (spec.title.isEmpty() && spec.view != ui::FigureView::Heads)
            spec.title = QStringLiteral("%1 · layer %2 · head %3")
                             .arg(model->name)
                             .arg(layer + 1)
                             .arg(spec.head + 1);
        if (!commandLine.exportPath.isEmpty() && options.figure) {
            // A whole-model figure, through the window's own painters.
            source.layer = commandLine.modelOptions.layer ? layer : -1;
            source.colormap = spec.colormap;
            source.title = commandLine.figure.title;
            source.topK = options.topK;
            if (!interventions.empty() && *options.figure == ui::ModelFigure::Predictions)
                source.baseline = core::runModel(model, tokens, {}, *backend, forward, result);
            if (*options.figure == ui::ModelFigure::Importance)
                source.importance = core::headImportance(result, *backend);
            outputs.emplace_back(
                commandLine.exportPath,
                ui::modelFigureBytes(*options.figure, source, commandLine.figureSize, spec.dpi,
                                     *ui::figureFormatForPath(commandLine.exportPath),
                                     spec.fontPoints));
        } else if (!commandLine.exportPath.isEmpty()) {
            std::shared_ptr<const core::AttentionResult> compare;
            if (spec.view == ui::FigureView::Difference) {
                // The same layer under the comparison score, as the window's Difference tab.
                auto other = std::make_shared<core::Problem>(*shown.problem);
                ui::applyScoreOption(
                    ui::comparisonOption(QString(), other->score, other->normalization),
                    other->score, other->normalization);
                compare = backend->compute(other, core::ComputeOptions{});
            }
            outputs.emplace_back(commandLine.exportPath,
                                 ui::figureBytes(shown, spec, commandLine.figureSize,
                                                 *ui::figureFormatForPath(commandLine.exportPath),
                                                 compare.get()));
        }
        if (!commandLine.matrixPath.isEmpty()) {
            auto format = *ui::matrixFormatForPath(commandLine.matrixPath);
            if (format == ui::MatrixFormat::LatexTable && commandLine.pgfplots)
                format = ui::MatrixFormat::LatexPgfplots;
            const auto stage =
                ui::stageMatrix(shown, *ui::parseStage(commandLine.stage), std::max(0, spec.head));
            outputs.emplace_back(commandLine.matrixPath,
                                 ui::stageBytes(stage, format, spec.precision));
        }
    } catch (const CommandLineError& e) {
        printLine(stderr, QStringLiteral("error: ") + e.message);
        return e.code;
    } catch (const core::Error& e) {
        printLine(stderr, QStringLiteral("error: ") + QString::fromUtf8(e.what()));
        return kInvalidInput;
    } catch (const core::BackendFault& e) {
        printLine(stderr, QStringLiteral("error: ") + QString::fromUtf8(e.what()));
        return kInvalidInput;
    } catch (const std::bad_alloc&) {
        printLine(stderr, QStringLiteral(
                              "error: out of memory while running the model; try a shorter text"));
        return kInvalidInput;
    }
    return writeOutputs(outputs);
}

} // namespace attn::app
