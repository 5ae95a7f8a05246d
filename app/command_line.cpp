#include "command_line.h"

#include "app/output_paths.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/scene_json.h"
#include "core/word_vectors.h"
#include "ui/figures/figure_export.h"
#include "ui/figures/stage_export.h"

#include <QCommandLineParser>
#include <utility>

// The parser of the command line; the scene it describes is built in command_line_scene.cpp,
// what runs headless is in headless_render.cpp.
namespace attn::app {

namespace {

CommandLineError usage(const QString& message)
{
    return {kUsage, message};
}

bool applyMode(const QString& mode, core::Scene& scene)
{
    return applyModeName(mode, scene.score, scene.normalization);
}

} // namespace

bool readWholeNumber(const QCommandLineParser& parser, const QString& name, int low, int high,
                     int& into, CommandLineError& error)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const int value = parser.value(name).toInt(&ok);
    if (!ok || value < low || value > high) {
        error = usage(QStringLiteral("--%1: expected a whole number from %2 to %3, got \"%4\"")
                          .arg(name)
                          .arg(low)
                          .arg(high)
                          .arg(parser.value(name)));
        return false;
    }
    into = value;
    return true;
}

bool readWholeNumber(const QCommandLineParser& parser, const QString& name, int low, int high,
                     std::optional<int>& into, CommandLineError& error)
{
    if (!parser.isSet(name))
        return true;
    int value = 0;
    if (!readWholeNumber(parser, name, low, high, value, error))
        return false;
    into = value;
    return true;
}

bool applyModeName(const QString& mode, core::ScoreKind& score, core::Normalization& normalization)
{
    if (mode == QLatin1String("hard")) {
        score = core::ScoreKind::ScaledDot;
        normalization = core::Normalization::Hard;
        return true;
    }
    const auto parsed = core::parseScoreKind(mode.toStdString());
    if (!parsed)
        return false;
    score = *parsed;
    if (normalization == core::Normalization::Hard)
        normalization = core::Normalization::Softmax;
    return true;
}

std::optional<CommandLine> parseCommandLine(const QStringList& arguments, CommandLineError& error,
                                            bool& exitNow)
{
    exitNow = false;
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Attention Explorer: type a sentence, see its tokens become queries, keys and values, and "
        "watch the attention weights.\nWith --export or --dump it runs headless (no display "
        "needed)."));
    parser.addPositionalArgument(QStringLiteral("scene"),
                                 QStringLiteral("A scene file to open (.attention.json or .json)."),
                                 QStringLiteral("[SCENE]"));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QCommandLineOption sceneOption(QStringLiteral("scene"), QStringLiteral("The scene file."),
                                         QStringLiteral("FILE"));
    const QCommandLineOption text(
        QStringLiteral("text"),
        QStringLiteral("The sentence (the target, with --source). Without a scene file it gets "
                       "fresh seeded weights."),
        QStringLiteral("TEXT"));
    const QCommandLineOption source(
        QStringLiteral("source"),
        QStringLiteral("Cross-attention: keys and values from this sentence."),
        QStringLiteral("TEXT"));
    const QCommandLineOption mode(QStringLiteral("mode"),
                                  QStringLiteral("dot|scaled|additive|hard|bilinear|cosine."),
                                  QStringLiteral("MODE"));
    const QCommandLineOption normalize(
        QStringLiteral("normalize"),
        QStringLiteral(
            "softmax|hard|relu|sparsemax|none (none: the scaled, masked scores are the weights)."),
        QStringLiteral("NAME"));
    const QCommandLineOption fill(
        QStringLiteral("fill"),
        QStringLiteral("What a masked score becomes: -inf (excluded) or -9e15 (PyTorch's "
                       "masked_fill)."),
        QStringLiteral("VALUE"));
    const QCommandLineOption embedding(
        QStringLiteral("embedding"),
        QStringLiteral("hashed|onehot|table|wordvectors (wordvectors needs --word-vectors)."),
        QStringLiteral("KIND"));
    const QCommandLineOption wordVectors(
        QStringLiteral("word-vectors"),
        QStringLiteral("A GloVe or word2vec text file of d_model dimensions (sets "
                       "--embedding wordvectors)."),
        QStringLiteral("FILE"));
    const QCommandLineOption positionalOption(QStringLiteral("positional"),
                                              QStringLiteral("none|sinusoidal|table."),
                                              QStringLiteral("KIND"));
    const QCommandLineOption temperature(
        QStringLiteral("temperature"),
        QStringLiteral("Softmax temperature (> 0); with --generate the sampling's (0: greedy)."),
        QStringLiteral("T"));
    const QCommandLineOption heads(QStringLiteral("heads"),
                                   QStringLiteral("Number of heads (new seeded weights)."),
                                   QStringLiteral("N"));
    const QCommandLineOption dModel(QStringLiteral("d-model"),
                                    QStringLiteral("Model width (new seeded weights)."),
                                    QStringLiteral("D"));
    const QCommandLineOption dK(
        QStringLiteral("d-k"),
        QStringLiteral(
            "Query and key width per head, apart from d_model / h (new seeded weights)."),
        QStringLiteral("K"));
    const QCommandLineOption causal(QStringLiteral("causal"),
                                    QStringLiteral("Mask every key after its query."));
    const QCommandLineOption window(QStringLiteral("window"),
                                    QStringLiteral("Local window: mask |i - j| > N."),
                                    QStringLiteral("N"));
    const QCommandLineOption padding(QStringLiteral("padding-token"),
                                     QStringLiteral("Tokens with this text are padding."),
                                     QStringLiteral("TOKEN"));
    const QCommandLineOption seed(
        QStringLiteral("seed"),
        QStringLiteral("Seed of new weights and hashed embeddings; with --generate, of the draws."),
        QStringLiteral("S"));
    const QCommandLineOption backend(QStringLiteral("backend"),
                                     QStringLiteral("auto|cpu|vulkan (default auto)."),
                                     QStringLiteral("NAME"));
    const QCommandLineOption vkDevice(QStringLiteral("vk-device"),
                                      QStringLiteral("Vulkan device index or name."),
                                      QStringLiteral("DEVICE"));
    const QCommandLineOption listDevices(QStringLiteral("list-devices"),
                                         QStringLiteral("List the Vulkan devices and exit."));
    const QCommandLineOption exportOption(
        QStringLiteral("export"),
        QStringLiteral("Render a figure headless: OUT.png, OUT.svg or OUT.pdf."),
        QStringLiteral("OUT"));
    const QCommandLineOption view(
        QStringLiteral("view"),
        QStringLiteral("head:N (from 1), head:mean, heads, pipeline:N, difference:N, lines:N, "
                       "train, gradient, kernel, positions, embedding-space, projections, hard, "
                       "context (context:WORD:SENTENCE in a scene), layers, mixing "
                       "(mixing:SENTENCE in a scene); with --model "
                       "also grid, rollout, predictions, importance, logit-lens, patching, "
                       "attribution."),
        QStringLiteral("VIEW"));
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QStringLiteral("What difference:N subtracts: a score (dot, scaled, additive, hard, "
                       "bilinear, cosine), mask:causal, mask:no-causal, normalization:NAME, "
                       "embedding:NAME or positions:NAME."),
        QStringLiteral("WHAT"));
    const QCommandLineOption transpose(
        QStringLiteral("transpose"),
        QStringLiteral("Draw weights with queries in columns, A = K^T Q, as texts that "
                       "keep vectors in columns write them."));
    const QCommandLineOption query(
        QStringLiteral("query"),
        QStringLiteral("The query in focus of the gradient and kernel views (default: the last) "
                       "and of --export-presentation, from 1."),
        QStringLiteral("N"));
    const QCommandLineOption width(QStringLiteral("width"),
                                   QStringLiteral("Figure width in pixels (default 1200)."),
                                   QStringLiteral("PX"));
    const QCommandLineOption height(QStringLiteral("height"),
                                    QStringLiteral("Figure height in pixels (default 900)."),
                                    QStringLiteral("PX"));
    const QCommandLineOption dpi(QStringLiteral("dpi"),
                                 QStringLiteral("Figure resolution, 72 to 600 (default 150)."),
                                 QStringLiteral("DPI"));
    const QCommandLineOption colormap(QStringLiteral("colormap"),
                                      QStringLiteral("viridis|cividis|magma|gray."),
                                      QStringLiteral("NAME"));
    const QCommandLineOption colorScale(
        QStringLiteral("color-scale"),
        QStringLiteral("fixed|data: weights coloured 0 to 1 (default, comparable) or "
                       "0 to the largest weight."),
        QStringLiteral("SCALE"));
    const QCommandLineOption exportPresentation(
        QStringLiteral("export-presentation"),
        QStringLiteral("Write every presentation step as one page of a PDF."),
        QStringLiteral("OUT.pdf"));
    const QCommandLineOption theme(
        QStringLiteral("theme"),
        QStringLiteral("light|dark: the presentation's colours (default: the scene's)."),
        QStringLiteral("NAME"));
    const QCommandLineOption dump(QStringLiteral("dump"),
                                  QStringLiteral("Write every intermediate as JSON."),
                                  QStringLiteral("OUT.json"));
    const QCommandLineOption exportAll(
        QStringLiteral("export-all"),
        QStringLiteral("Write every figure of the scene (PDF and PNG) into DIR."),
        QStringLiteral("DIR"));
    const QCommandLineOption exportMatrix(
        QStringLiteral("export-matrix"),
        QStringLiteral("Write one stage of one head (--stage, --view head:N): .csv, .npy, "
                       ".json or .tex."),
        QStringLiteral("OUT"));
    const QCommandLineOption stage(
        QStringLiteral("stage"),
        QStringLiteral("%1 (default weights).").arg(ui::stageNames().join(QLatin1Char('|'))),
        QStringLiteral("NAME"));
    const QCommandLineOption latex(QStringLiteral("latex"),
                                   QStringLiteral("table|pgfplots: the kind of .tex matrix."),
                                   QStringLiteral("KIND"));
    parser.addOptions({sceneOption, text,         source,
                       mode,        normalize,    fill,
                       embedding,   wordVectors,  positionalOption,
                       temperature, heads,        dModel,
                       dK,          causal,       window,
                       padding,     seed,         backend,
                       vkDevice,    listDevices,  exportOption,
                       view,        width,        height,
                       dpi,         colormap,     dump,
                       exportAll,   exportMatrix, stage,
                       latex,       colorScale,   exportPresentation,
                       theme,       compare,      query,
                       transpose});

    addModelOptions(parser);
    addTrainOptions(parser);
    addSeq2SeqOptions(parser);
    addDownloadOptions(parser);

    if (!parser.parse(arguments)) {
        error = usage(parser.errorText());
        return std::nullopt;
    }
    if (parser.isSet(help) || parser.isSet(version)) {
        // Printed once, by the caller (main prints it after the QApplication exists).
        error = {kOk, parser.isSet(help)
                          ? parser.helpText()
                          : QStringLiteral("attention-explorer ") + QStringLiteral(ATTN_VERSION)};
        exitNow = true;
        return std::nullopt;
    }

    CommandLine out;
    if (!readDownloadOptions(parser, out.download, error))
        return std::nullopt;
    if (!out.download.isEmpty())
        return out;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1 || (positional.size() == 1 && parser.isSet(sceneOption))) {
        error = usage(QStringLiteral("give one scene file, either as an argument or with --scene"));
        return std::nullopt;
    }
    // An empty path (often an unset shell variable) is a mistake, never "not given": ignored,
    // --model "" would run the single-layer example and --export "" open a window instead.
    if (positional.size() == 1 && positional.front().isEmpty()) {
        error = usage(QStringLiteral("the scene file name is empty"));
        return std::nullopt;
    }
    for (const char* name : {"scene", "word-vectors", "export", "dump", "export-all",
                             "export-matrix", "export-presentation", "model", "train-save"}) {
        if (parser.isSet(QLatin1String(name)) && parser.value(QLatin1String(name)).isEmpty()) {
            error = usage(QStringLiteral("--%1: the path is empty").arg(QLatin1String(name)));
            return std::nullopt;
        }
    }
    out.scenePath = parser.isSet(sceneOption) ? parser.value(sceneOption) : positional.value(0);

    auto integer = [&](const QCommandLineOption& option, int low, int high,
                       std::optional<int>& into) {
        return readWholeNumber(parser, option.names().first(), low, high, into, error);
    };
    // An option that names one of a list: what `parse` makes of its value (nullopt: none of
    // them), or a usage error that lists `expected`.
    auto named = [&](const QCommandLineOption& option, const QString& expected, auto parse,
                     auto& into) {
        if (!parser.isSet(option))
            return true;
        if (const auto parsed = parse(parser.value(option))) {
            into = *parsed;
            return true;
        }
        error = usage(QStringLiteral("--%1: expected %2, got \"%3\"")
                          .arg(option.names().first(), expected, parser.value(option)));
        return false;
    };
    std::optional<int> widthValue, heightValue, dpiValue;
    if (!integer(heads, 1, core::kMaxHeads, out.heads) ||
        !integer(dModel, 1, core::kMaxModelWidth, out.dModel) ||
        !integer(dK, 1, core::kMaxModelWidth, out.dK) || !integer(window, 0, 1 << 20, out.window) ||
        !integer(width, 64, 20000, widthValue) || !integer(height, 64, 20000, heightValue) ||
        !integer(dpi, 72, 600, dpiValue))
        return std::nullopt;

    if (parser.isSet(text))
        out.text = parser.value(text);
    if (parser.isSet(source))
        out.source = parser.value(source);
    if (parser.isSet(mode)) {
        core::Scene probe;
        if (!applyMode(parser.value(mode), probe)) {
            error =
                usage(QStringLiteral(
                          "--mode: expected dot|scaled|additive|hard|bilinear|cosine, got \"%1\"")
                          .arg(parser.value(mode)));
            return std::nullopt;
        }
        out.mode = parser.value(mode);
    }
    if (!named(
            normalize, QString::fromStdString(core::allNormalizationNames()),
            [](const QString& value) { return core::parseNormalization(value.toStdString()); },
            out.normalization))
        return std::nullopt;
    const auto maskFill = [](const QString& value) {
        const auto parsed = core::parseMaskFill(value.toStdString());
        if (!parsed && (value == QLatin1String("-infinity") || value == QLatin1String("-Inf")))
            return std::optional(core::MaskFill::NegativeInfinity);
        return parsed;
    };
    if (!named(fill, QStringLiteral("-inf or -9e15"), maskFill, out.fill) ||
        !named(
            embedding, QStringLiteral("hashed|onehot|table|wordvectors"),
            [](const QString& value) { return core::parseEmbeddingKind(value.toStdString()); },
            out.embedding))
        return std::nullopt;
    out.wordVectors = parser.value(wordVectors);
    if (out.embedding == core::EmbeddingKind::WordVectors && out.wordVectors.isEmpty()) {
        error = usage(
            QStringLiteral("--embedding wordvectors: give the file with --word-vectors FILE"));
        return std::nullopt;
    }
    if (!out.wordVectors.isEmpty() && out.embedding &&
        *out.embedding != core::EmbeddingKind::WordVectors) {
        error = usage(QStringLiteral("--word-vectors goes with --embedding wordvectors, not \"%1\"")
                          .arg(parser.value(embedding)));
        return std::nullopt;
    }
    if (!named(
            positionalOption, QStringLiteral("none|sinusoidal|table"),
            [](const QString& value) { return core::parsePositionalKind(value.toStdString()); },
            out.positional))
        return std::nullopt;
    if (parser.isSet(temperature)) {
        bool ok = false;
        const double t = parser.value(temperature).toDouble(&ok);
        // With --generate it is the sampling temperature, where 0 means greedy.
        const bool sampling = parser.isSet(QStringLiteral("generate"));
        if (!ok || !(t > 0.0 || (sampling && t == 0.0)) || t > 1e6) {
            error = usage(QStringLiteral("--temperature: expected %1, got \"%2\"")
                              .arg(sampling ? QStringLiteral("0 (greedy) or a number above 0")
                                            : QStringLiteral("a number above 0"),
                                   parser.value(temperature)));
            return std::nullopt;
        }
        out.temperature = float(t);
    }
    if (parser.isSet(seed)) {
        bool ok = false;
        out.seed = parser.value(seed).toULongLong(&ok);
        if (!ok) {
            error = usage(QStringLiteral("--seed: expected a whole number, got \"%1\"")
                              .arg(parser.value(seed)));
            return std::nullopt;
        }
    }
    out.causal = parser.isSet(causal);
    if (parser.isSet(padding))
        out.paddingToken = parser.value(padding);
    if (!named(
            backend, QStringLiteral("auto|cpu|vulkan"),
            [](const QString& value) { return gpu::parseBackendChoice(value.toStdString()); },
            out.backend))
        return std::nullopt;
    out.vkDevice = parser.value(vkDevice);
    out.listDevices = parser.isSet(listDevices);

    out.exportPath = parser.value(exportOption);
    out.dumpPath = parser.value(dump);
    if (!out.exportPath.isEmpty() && !ui::figureFormatForPath(out.exportPath)) {
        error =
            usage(QStringLiteral("--export: the file name must end in .png, .svg or .pdf: \"%1\"")
                      .arg(out.exportPath));
        return std::nullopt;
    }
    out.exportAllDir = parser.value(exportAll);
    out.matrixPath = parser.value(exportMatrix);
    if (!out.matrixPath.isEmpty() && !ui::matrixFormatForPath(out.matrixPath)) {
        error = usage(
            QStringLiteral(
                "--export-matrix: the file name must end in .csv, .npy, .json or .tex: \"%1\"")
                .arg(out.matrixPath));
        return std::nullopt;
    }
    if (parser.isSet(stage)) {
        if (!ui::parseStage(parser.value(stage))) {
            error = usage(QStringLiteral("--stage: expected %1, got \"%2\"")
                              .arg(ui::stageNames().join(QLatin1Char('|')), parser.value(stage)));
            return std::nullopt;
        }
        out.stage = parser.value(stage);
    }
    if (parser.isSet(latex)) {
        if (parser.value(latex) != QLatin1String("table") &&
            parser.value(latex) != QLatin1String("pgfplots")) {
            error = usage(QStringLiteral("--latex: expected table|pgfplots, got \"%1\"")
                              .arg(parser.value(latex)));
            return std::nullopt;
        }
        out.pgfplots = parser.value(latex) == QLatin1String("pgfplots");
    }
    const bool seq2seq =
        parser.isSet(QStringLiteral("seq2seq")) || parser.isSet(QStringLiteral("seq2seq-train"));
    if (parser.isSet(view) && !seq2seq) { // an encoder-decoder's views are readSeq2SeqOptions'
        // A real model's figures too (the window's grid, rollout, predictions, importance, the
        // logit lens, activation patching and direct logit attribution).
        if (const auto figure = ui::parseModelFigure(parser.value(view))) {
            out.modelOptions.figure = figure;
        } else if (const auto conceptView = ui::parseConceptView(parser.value(view))) {
            out.conceptView = conceptView;
        } else if (!ui::parseFigureView(parser.value(view), out.figure.view, out.figure.head)) {
            error = usage(QStringLiteral("--view: expected head:N (from 1), head:mean, heads, "
                                         "pipeline:N, difference:N, lines:N, "
                                         "train, gradient, kernel, positions, embedding-space, "
                                         "projections, hard, context, layers or mixing "
                                         "(with a model also grid, rollout, predictions, "
                                         "importance, logit-lens, patching or attribution), got "
                                         "\"%1\"")
                              .arg(parser.value(view)));
            return std::nullopt;
        }
        out.viewGiven = true;
    }
    const auto weightsColormap = [](const QString& value) { // the diverging one is differences'
        const auto map = ui::parseColormap(value);
        return map == ui::Colormap::Diverging ? std::nullopt : map;
    };
    if (!named(colormap, QStringLiteral("viridis|cividis|magma|gray"), weightsColormap,
               out.figure.colormap) ||
        !named(colorScale, QStringLiteral("fixed|data"), ui::parseWeightScale,
               out.figure.weightScale))
        return std::nullopt;
    if (parser.isSet(colorScale))
        out.weightScaleGiven = true;
    out.presentationPath = parser.value(exportPresentation);
    if (!out.presentationPath.isEmpty() &&
        !out.presentationPath.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
        error =
            usage(QStringLiteral("--export-presentation: the file name must end in .pdf: \"%1\"")
                      .arg(out.presentationPath));
        return std::nullopt;
    }
    if (parser.isSet(theme)) {
        out.theme = parser.value(theme);
        if (out.theme != QLatin1String("light") && out.theme != QLatin1String("dark")) {
            error =
                usage(QStringLiteral("--theme: expected light|dark, got \"%1\"").arg(out.theme));
            return std::nullopt;
        }
    }
    out.compare = parser.value(compare);
    out.transpose = parser.isSet(transpose);
    if (parser.isSet(query)) {
        bool ok = false;
        const int n = parser.value(query).toInt(&ok);
        if (!ok || n < 1) {
            error = usage(QStringLiteral("--query: expected a query number from 1, got \"%1\"")
                              .arg(parser.value(query)));
            return std::nullopt;
        }
        out.query = n - 1;
    }
    out.figure.dpi = dpiValue.value_or(150);
    out.figureSize = QSize(widthValue.value_or(1200), heightValue.value_or(900));
    // Text set in points: 10 pt at the figure's DPI, but never so large that a small figure
    // has no room for its matrix.
    out.figure.fontPoints =
        std::min(10.0, 10.0 * out.figureSize.height() / (900.0 * out.figure.dpi / 150.0));

    if (!readModelOptions(parser, out.modelOptions, error))
        return std::nullopt;
    if (!readTrainOptions(parser, out.trainOptions, out.modelOptions.active(), error))
        return std::nullopt;
    if (!readSeq2SeqOptions(parser, out.seq2seqOptions, error))
        return std::nullopt;
    if (seq2seq) {
        // An encoder-decoder reads its own folder (or trains one) and decodes --text: the
        // single-layer scene, a transformer and its training have nothing to act on.
        for (const char* name : {"scene", "model", "train", "source", "export-all", "export-matrix",
                                 "export-presentation", "mode", "heads", "d-model", "d-k", "seed",
                                 "embedding", "word-vectors", "positional", "causal", "window"}) {
            if (parser.isSet(QLatin1String(name))) {
                error =
                    usage(QStringLiteral("--%1 cannot be used with --seq2seq or --seq2seq-train")
                              .arg(QLatin1String(name)));
                return std::nullopt;
            }
        }
        if (!positional.isEmpty()) {
            error = usage(
                QStringLiteral("a scene file cannot be used with --seq2seq or --seq2seq-train"));
            return std::nullopt;
        }
    }
    if (out.modelOptions.generate.active()) {
        // --temperature and --seed are the sampling's (generate_command.h).
        out.modelOptions.generate.temperature = std::exchange(out.temperature, std::nullopt);
        out.modelOptions.generate.seed = std::exchange(out.seed, std::nullopt);
        out.modelOptions.generate.samplingAsked |= out.modelOptions.generate.temperature > 0.0f;
    }
    if (out.modelOptions.active()) {
        // A model brings its own tokenizer, embeddings and weights: the single-layer scene's
        // settings have nothing to act on.
        for (const QString& name :
             {QStringLiteral("scene"), QStringLiteral("source"), QStringLiteral("heads"),
              QStringLiteral("d-model"), QStringLiteral("d-k"), QStringLiteral("seed"),
              QStringLiteral("embedding"), QStringLiteral("word-vectors"),
              QStringLiteral("positional"), QStringLiteral("padding-token"),
              QStringLiteral("export-all"), QStringLiteral("export-presentation")}) {
            if (parser.isSet(name) &&
                !(name == QLatin1String("seed") && out.modelOptions.generate.active())) {
                error = usage(QStringLiteral("--%1 cannot be used with --model").arg(name));
                return std::nullopt;
            }
        }
        if (!out.scenePath.isEmpty()) {
            error = usage(QStringLiteral("give a scene file or --model, not both"));
            return std::nullopt;
        }
        // The model's embedding map and positions are drawn from its weights alone: no forward
        // pass runs, so a dump or a matrix of one would not be written.
        const bool weightsView =
            out.conceptView && (*out.conceptView == ui::ConceptView::EmbeddingSpace ||
                                *out.conceptView == ui::ConceptView::Positions);
        if (weightsView && !out.exportPath.isEmpty())
            for (const QString& name : {QStringLiteral("dump"), QStringLiteral("export-matrix")})
                if (parser.isSet(name)) {
                    error =
                        usage(QStringLiteral(
                                  "--%1 cannot be used with --view %2 and --model (the view runs "
                                  "no forward pass): give them as two commands")
                                  .arg(name, ui::conceptViewName(*out.conceptView)));
                    return std::nullopt;
                }
    }
    // The folder of --export-all among them: a file of that name cannot be both. The files
    // written into it are compared once the scene says how many heads there are (runHeadless).
    std::vector<std::pair<QString, QString>> outputs = fileOutputs(out);
    outputs.emplace_back(QStringLiteral("export-all"), out.exportAllDir);
    if (const QString shared = sharedOutput(outputs); !shared.isEmpty()) {
        error = usage(shared);
        return std::nullopt;
    }
    return out;
}

} // namespace attn::app
