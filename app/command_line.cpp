#include "command_line.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/result_json.h"
#include "core/scene_json.h"
#include "core/word_vectors.h"
#include "ui/concepts/concept_figures.h"
#include "ui/explorer/comparison_choices.h"
#include "ui/figures/figure_export.h"
#include "ui/figures/legible_text.h"
#include "ui/figures/stage_export.h"
#include "ui/presentation/presentation_export.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <cstdio>

namespace attn::app {

namespace {

const char* const kBuiltInExample = ":/examples/01-this-is-a-cat.json";

// A fresh scene for a sentence typed on the command line: the built-in example's weights
// were set by hand for its own four tokens, so another sentence gets seeded weights.
constexpr int kDefaultModelWidth = 16;
constexpr int kDefaultHeads = 2;

void printLine(FILE* stream, const QString& text)
{
    std::fputs(qPrintable(text + QLatin1Char('\n')), stream);
    std::fflush(stream);
}

CommandLineError usage(const QString& message)
{
    return {kUsage, message};
}

bool applyMode(const QString& mode, core::Scene& scene)
{
    return applyModeName(mode, scene.score, scene.normalization);
}

std::shared_ptr<const core::AttentionResult> compute(core::Backend& backend,
                                                     std::shared_ptr<const core::Problem> problem,
                                                     const core::ComputeOptions& options)
{
    auto result = backend.compute(std::move(problem), options);
    for (const std::string& warning : result->diagnostics.warnings)
        printLine(stderr, QStringLiteral("warning: ") + QString::fromStdString(warning));
    return result;
}

// Words the embedding does not know got hashed vectors: say which, as the window does.
void noteFallbacks(const core::Problem& problem, const core::Scene& scene)
{
    QStringList words;
    auto collect = [&words](const std::vector<core::Token>& tokens,
                            const std::vector<bool>& fallback) {
        for (std::size_t i = 0; i < tokens.size() && i < fallback.size(); ++i)
            if (fallback[i] && !words.contains(tokens[i].text))
                words.append(tokens[i].text);
    };
    collect(problem.queryTokens, problem.queryFallback);
    collect(problem.keyTokens, problem.keyFallback);
    if (words.isEmpty())
        return;
    const QString where =
        scene.embedding.kind == core::EmbeddingKind::OneHot
            ? QStringLiteral("the one-hot vocabulary (one word per dimension of d_model %1)")
                  .arg(scene.weights.dModel)
        : scene.embedding.kind == core::EmbeddingKind::Table ? QStringLiteral("the embedding table")
                                                             : scene.embedding.wordVectorPath;
    printLine(stderr, QStringLiteral("note: %1 %2 not in %3 got hashed vectors: %4")
                          .arg(words.size())
                          .arg(words.size() == 1 ? QStringLiteral("word") : QStringLiteral("words"),
                               where, words.join(QStringLiteral(", "))));
}

// A path as the file system resolves it, so that "./a.png" and "a.png", or a link and its
// target, compare equal: the existing file resolved (core::writeFilesAtomically replaces a
// link's target), else its resolved folder and its name, else the cleaned absolute path.
QString resolvedPath(const QString& path)
{
    const QFileInfo info(path);
    if (info.exists())
        return info.canonicalFilePath();
    const QString folder = QFileInfo(info.absolutePath()).canonicalFilePath();
    return folder.isEmpty() ? QDir::cleanPath(info.absoluteFilePath())
                            : QDir(folder).filePath(info.fileName());
}

// Two outputs (option, path) that name one file: the second would replace the first without
// a word. The message names both options; empty when every output has a file of its own.
QString sharedOutput(const std::vector<std::pair<QString, QString>>& outputs)
{
    std::vector<QString> resolved;
    for (const auto& [option, path] : outputs)
        resolved.push_back(path.isEmpty() ? QString() : resolvedPath(path));
    for (std::size_t i = 0; i < outputs.size(); ++i)
        for (std::size_t j = 0; j < i && !resolved[i].isEmpty(); ++j)
            if (resolved[j] == resolved[i] && outputs[j].first != outputs[i].first)
                return QStringLiteral("--%1 and --%2 both write to %3; give each its own file")
                    .arg(outputs[j].first, outputs[i].first, outputs[i].second);
    return {};
}

// The single-file outputs the command line names, with their options.
std::vector<std::pair<QString, QString>> fileOutputs(const CommandLine& commandLine)
{
    return {{QStringLiteral("export"), commandLine.exportPath},
            {QStringLiteral("dump"), commandLine.dumpPath},
            {QStringLiteral("export-matrix"), commandLine.matrixPath},
            {QStringLiteral("export-presentation"), commandLine.presentationPath},
            {QStringLiteral("train-save"), commandLine.trainOptions.savePath}};
}

struct ExportAllFile
{
    ui::FigureView view;
    int head;
    ui::FigureFormat format;
    QString path;
};

// What --export-all writes into `dir`, each figure a lecture may need named after its view:
// all heads, each head, its difference and (unless the input is pooled) its pipeline, and
// the mean of the heads; a PDF and a PNG of each.
std::vector<ExportAllFile> exportAllFiles(const QString& dir, int heads, bool pooled)
{
    std::vector<std::pair<ui::FigureView, int>> views{{ui::FigureView::Heads, 0}};
    for (int h = 0; h < heads; ++h) {
        views.insert(views.end(), {{ui::FigureView::Head, h}, {ui::FigureView::Difference, h}});
        if (!pooled)
            views.emplace_back(ui::FigureView::Pipeline, h);
    }
    if (heads > 1)
        views.emplace_back(ui::FigureView::Head, -1);
    std::vector<ExportAllFile> files;
    for (const auto& [view, head] : views) {
        const QString name =
            ui::figureViewName(view, head).replace(QLatin1Char(':'), QLatin1Char('-'));
        for (const auto& [suffix, format] :
             {std::pair{QStringLiteral(".pdf"), ui::FigureFormat::Pdf},
              std::pair{QStringLiteral(".png"), ui::FigureFormat::Png}})
            files.push_back({view, head, format, QDir(dir).filePath(name + suffix)});
    }
    return files;
}

} // namespace

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
    const QCommandLineOption temperature(QStringLiteral("temperature"),
                                         QStringLiteral("Softmax temperature (> 0)."),
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
    const QCommandLineOption seed(QStringLiteral("seed"),
                                  QStringLiteral("Seed of new weights and hashed embeddings."),
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
                       "train, gradient, kernel, positions, embedding-space."),
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
        if (!parser.isSet(option))
            return true;
        bool ok = false;
        const int value = parser.value(option).toInt(&ok);
        if (!ok || value < low || value > high) {
            error = usage(QStringLiteral("--%1: expected a whole number from %2 to %3, got \"%4\"")
                              .arg(option.names().first())
                              .arg(low)
                              .arg(high)
                              .arg(parser.value(option)));
            return false;
        }
        into = value;
        return true;
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
    if (parser.isSet(normalize)) {
        out.normalization = core::parseNormalization(parser.value(normalize).toStdString());
        if (!out.normalization) {
            error = usage(QStringLiteral("--normalize: expected %1, got \"%2\"")
                              .arg(QString::fromStdString(core::allNormalizationNames()),
                                   parser.value(normalize)));
            return std::nullopt;
        }
    }
    if (parser.isSet(fill)) {
        const QString value = parser.value(fill);
        out.fill = core::parseMaskFill(value.toStdString());
        if (!out.fill && (value == QLatin1String("-infinity") || value == QLatin1String("-Inf")))
            out.fill = core::MaskFill::NegativeInfinity;
        if (!out.fill) {
            error = usage(QStringLiteral("--fill: expected -inf or -9e15, got \"%1\"").arg(value));
            return std::nullopt;
        }
    }
    if (parser.isSet(embedding)) {
        out.embedding = core::parseEmbeddingKind(parser.value(embedding).toStdString());
        if (!out.embedding) {
            error = usage(
                QStringLiteral("--embedding: expected hashed|onehot|table|wordvectors, got \"%1\"")
                    .arg(parser.value(embedding)));
            return std::nullopt;
        }
    }
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
    if (parser.isSet(positionalOption)) {
        out.positional = core::parsePositionalKind(parser.value(positionalOption).toStdString());
        if (!out.positional) {
            error = usage(QStringLiteral("--positional: expected none|sinusoidal|table, got \"%1\"")
                              .arg(parser.value(positionalOption)));
            return std::nullopt;
        }
    }
    if (parser.isSet(temperature)) {
        bool ok = false;
        const double t = parser.value(temperature).toDouble(&ok);
        if (!ok || !(t > 0.0) || t > 1e6) {
            error = usage(QStringLiteral("--temperature: expected a number above 0, got \"%1\"")
                              .arg(parser.value(temperature)));
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
    if (parser.isSet(backend)) {
        const auto choice = gpu::parseBackendChoice(parser.value(backend).toStdString());
        if (!choice) {
            error = usage(QStringLiteral("--backend: expected auto|cpu|vulkan, got \"%1\"")
                              .arg(parser.value(backend)));
            return std::nullopt;
        }
        out.backend = *choice;
    }
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
    if (parser.isSet(view)) {
        // A real model's figures too (the window's grid, rollout, predictions, importance).
        if (const auto figure = ui::parseModelFigure(parser.value(view))) {
            out.modelOptions.figure = figure;
        } else if (const auto conceptView = ui::parseConceptView(parser.value(view))) {
            out.conceptView = conceptView;
        } else if (!ui::parseFigureView(parser.value(view), out.figure.view, out.figure.head)) {
            error = usage(QStringLiteral("--view: expected head:N (from 1), head:mean, heads, "
                                         "pipeline:N, difference:N, lines:N, "
                                         "train, gradient, kernel, positions or embedding-space "
                                         "(with a model also grid, "
                                         "rollout, predictions or importance), got \"%1\"")
                              .arg(parser.value(view)));
            return std::nullopt;
        }
        out.viewGiven = true;
    }
    if (parser.isSet(colormap)) {
        const auto map = ui::parseColormap(parser.value(colormap));
        if (!map || *map == ui::Colormap::Diverging) {
            error =
                usage(QStringLiteral("--colormap: expected viridis|cividis|magma|gray, got \"%1\"")
                          .arg(parser.value(colormap)));
            return std::nullopt;
        }
        out.figure.colormap = *map;
    }
    if (parser.isSet(colorScale)) {
        const auto scale = ui::parseWeightScale(parser.value(colorScale));
        if (!scale) {
            error = usage(QStringLiteral("--color-scale: expected fixed|data, got \"%1\"")
                              .arg(parser.value(colorScale)));
            return std::nullopt;
        }
        out.figure.weightScale = *scale;
        out.weightScaleGiven = true;
    }
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
    if (out.modelOptions.active()) {
        // A model brings its own tokenizer, embeddings and weights: the single-layer scene's
        // settings have nothing to act on.
        for (const QString& name :
             {QStringLiteral("scene"), QStringLiteral("source"), QStringLiteral("heads"),
              QStringLiteral("d-model"), QStringLiteral("d-k"), QStringLiteral("seed"),
              QStringLiteral("embedding"), QStringLiteral("word-vectors"),
              QStringLiteral("positional"), QStringLiteral("padding-token"),
              QStringLiteral("export-all"), QStringLiteral("export-presentation")}) {
            if (parser.isSet(name)) {
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

core::Scene builtInExample()
{
    QFile file(QString::fromLatin1(kBuiltInExample));
    if (file.open(QIODevice::ReadOnly))
        return core::sceneFromJson(file.readAll());
    return core::makeScene(QStringLiteral("This is a cat."), kDefaultModelWidth, kDefaultHeads, 1);
}

core::Scene sceneFor(const CommandLine& commandLine)
{
    core::Scene scene;
    if (!commandLine.scenePath.isEmpty()) {
        scene = core::loadScene(commandLine.scenePath);
        if (commandLine.text)
            scene.text = *commandLine.text;
    } else if (commandLine.text) {
        scene = core::makeScene(*commandLine.text, commandLine.dModel.value_or(kDefaultModelWidth),
                                commandLine.heads.value_or(kDefaultHeads),
                                commandLine.seed.value_or(1));
    } else {
        scene = builtInExample();
    }
    if (commandLine.source)
        scene.source = *commandLine.source;
    if (commandLine.heads || commandLine.dModel || commandLine.dK || commandLine.seed) {
        // A new shape or seed draws new weights; the rest of the scene is kept (tables of
        // another width give way, as in the window).
        const int d = commandLine.dModel.value_or(scene.weights.dModel);
        const int h = commandLine.heads.value_or(scene.weights.headCount());
        const bool reshaped = commandLine.heads || commandLine.dModel;
        if (reshaped && d % h != 0)
            throw core::Error("--heads " + std::to_string(h) + " does not divide --d-model " +
                              std::to_string(d) + " (d_v = d_model / h)");
        const int dV = reshaped ? d / h : scene.weights.dV;
        const int dk = commandLine.dK.value_or(reshaped ? d / h : scene.weights.dK);
        const std::uint64_t seed = commandLine.seed.value_or(scene.seed);
        core::reshapeModel(scene, d, h, dk, dV, seed);
        scene.embedding.seed = seed;
    }
    if (commandLine.embedding || !commandLine.wordVectors.isEmpty()) {
        const core::EmbeddingKind kind =
            commandLine.embedding.value_or(core::EmbeddingKind::WordVectors);
        switch (kind) {
        case core::EmbeddingKind::Hashed:
            scene.embedding.kind = kind;
            break;
        case core::EmbeddingKind::OneHot:
            // One dimension per word of the sentences as given here.
            scene.embedding.kind = kind;
            scene.embedding.vocabulary.clear();
            core::fitOneHotVocabulary(scene);
            break;
        case core::EmbeddingKind::Table:
            // The scene's own table where it has one, else the vectors in use kept as one.
            if (scene.embedding.table.empty())
                core::keepEmbeddingsAsTable(scene);
            scene.embedding.kind = kind;
            break;
        case core::EmbeddingKind::WordVectors: {
            auto vectors = std::make_shared<const core::WordVectors>(
                core::WordVectors::load(commandLine.wordVectors));
            if (vectors->dimension() != scene.weights.dModel)
                throw core::Error("--word-vectors: " + commandLine.wordVectors.toStdString() +
                                  " has " + std::to_string(vectors->dimension()) +
                                  "-dimensional vectors and d_model is " +
                                  std::to_string(scene.weights.dModel) + "; give --d-model " +
                                  std::to_string(vectors->dimension()));
            scene.embedding.kind = kind;
            scene.embedding.wordVectorPath = commandLine.wordVectors;
            scene.embedding.wordVectors = std::move(vectors);
            break;
        }
        }
    }
    if (commandLine.positional) {
        if (*commandLine.positional == core::PositionalKind::Table) {
            if (scene.positional.table.size() == 0)
                core::keepPositionsAsTable(scene);
        }
        scene.positional.kind = *commandLine.positional;
    }
    if (commandLine.fill)
        scene.fill = *commandLine.fill;
    if (commandLine.mode)
        applyMode(*commandLine.mode, scene);
    if (commandLine.normalization)
        scene.normalization = *commandLine.normalization;
    if (commandLine.temperature)
        scene.temperature = *commandLine.temperature;
    if (commandLine.causal)
        scene.mask.causal = true;
    if (commandLine.window) {
        scene.mask.window = *commandLine.window;
        scene.mask.windowCausal = false;
    }
    if (commandLine.paddingToken) {
        scene.paddingToken = *commandLine.paddingToken;
        scene.mask.padding = true;
    }
    if (!commandLine.compare.isEmpty()) {
        QStringList names;
        for (const ui::ComparisonChoice& choice : ui::comparisonChoices(scene, false))
            names << choice.name;
        if (!names.contains(commandLine.compare))
            throw core::Error(
                QStringLiteral("--compare: \"%1\" is not a change of this scene; one of %2")
                    .arg(commandLine.compare, names.join(QStringLiteral(", ")))
                    .toStdString());
        scene.view.compareScore = commandLine.compare;
    }
    return scene;
}

int runHeadless(const CommandLine& commandLine)
{
    if (commandLine.modelOptions.active())
        return runModelHeadless(commandLine);
    if (commandLine.listDevices) {
        const auto devices = gpu::listDevices();
        if (devices.empty())
            printLine(stdout, QStringLiteral("No Vulkan device (the CPU backend will be used)."));
        for (const auto& device : devices)
            printLine(stdout, QString::fromStdString(gpu::describe(device)));
        if (commandLine.exportPath.isEmpty() && commandLine.dumpPath.isEmpty())
            return kOk;
    }

    core::Scene scene;
    std::optional<TrainingReport> training;
    std::optional<ui::ConceptView> conceptView = commandLine.conceptView;
    try {
        scene = sceneFor(commandLine);
        // The scene's own view may be a concept figure; "train:TASK" names the task to train.
        const QString ownView = scene.view.view.section(QLatin1Char(':'), 0, 0);
        if (!conceptView && !commandLine.viewGiven)
            conceptView = ui::parseConceptView(ownView);
        TrainOptions trainOptions = commandLine.trainOptions;
        if (conceptView == ui::ConceptView::Train && !trainOptions.task) {
            const std::string task = scene.view.view.section(QLatin1Char(':'), 1).toStdString();
            trainOptions.task = core::parseTrainingTask(task).value_or(core::TrainingTask::Copy);
        }
        training = trainIfAsked(trainOptions, scene); // --train: fitted before anything is shown
        if (training)
            scene = training->scene;
    } catch (const core::Error& e) {
        printLine(stderr, QStringLiteral("error: ") + QString::fromStdString(e.what()));
        return kInvalidInput;
    }
    if (!commandLine.exportAllDir.isEmpty()) {
        // Pipelines counted as if unpooled: a name --export-all may write is never another
        // output's.
        std::vector<std::pair<QString, QString>> outputs = fileOutputs(commandLine);
        for (const ExportAllFile& file :
             exportAllFiles(commandLine.exportAllDir, scene.weights.headCount(), false))
            outputs.emplace_back(QStringLiteral("export-all"), file.path);
        if (const QString shared = sharedOutput(outputs); !shared.isEmpty()) {
            printLine(stderr, QStringLiteral("error: ") + shared);
            return kUsage;
        }
    }
    if (scene.checkpoint) {
        // A scene of a real model: its text through the model, its layer and head shown.
        CommandLine model = commandLine;
        model.text = scene.text;
        model.modelOptions.model = scene.checkpoint->resolved;
        model.modelOptions.layer = scene.checkpoint->layer + 1;
        model.modelOptions.interventions = scene.checkpoint->interventions;
        model.modelOptions.sceneFile = QFileInfo(commandLine.scenePath).fileName();
        model.modelOptions.sceneHead = scene.checkpoint->head;
        if (!commandLine.viewGiven &&
            ui::parseFigureView(scene.view.view, model.figure.view, model.figure.head))
            model.viewGiven = model.modelOptions.viewFromScene = true;
        else if (!commandLine.viewGiven)
            model.figure.head = scene.checkpoint->head;
        return runModelHeadless(model);
    }
    if (commandLine.modelOptions.figure) {
        printLine(
            stderr,
            QStringLiteral(
                "error: --view %1 is a figure of a whole model: give --model DIR (or a scene that "
                "names a checkpoint)")
                .arg(ui::modelFigureName(*commandLine.modelOptions.figure)));
        return kUsage;
    }
    std::unique_ptr<core::Backend> backend;
    try {
        std::string notice;
        backend =
            gpu::createBackend(commandLine.backend, commandLine.vkDevice.toStdString(), &notice);
        if (!notice.empty())
            printLine(stderr, QString::fromStdString(notice));
    } catch (const core::Error& e) { // --vk-device names no device
        printLine(stderr, QStringLiteral("error: ") + QString::fromStdString(e.what()));
        return kUsage;
    }

    // Render everything first, then write: a failure to write (exit 4) is told apart from
    // input the figure cannot be made of (exit 3), and nothing half-made is written.
    std::vector<std::pair<QString, QByteArray>> outputs; // path, bytes: written at the end
    try {
        ui::FigureSpec spec = commandLine.figure;
        if (!commandLine.viewGiven && !ui::parseFigureView(scene.view.view, spec.view, spec.head))
            spec.view = ui::FigureView::Head;
        if (const auto map = ui::parseColormap(scene.view.colormap);
            map && commandLine.figure.colormap == ui::Colormap::Viridis)
            spec.colormap = *map;
        spec.showValues = scene.view.showValues;
        spec.precision = scene.view.valuePrecision;
        if (!commandLine.weightScaleGiven)
            spec.weightScale =
                ui::parseWeightScale(scene.view.colorScale).value_or(ui::WeightScale::Fixed);
        spec.transposed = scene.view.transposed || commandLine.transpose;

        // Every intermediate only where something shows them (--dump, --export-matrix, the
        // pipeline of a short input). A figure of a long input shows weights pooled by the
        // backend to at most kFigureCells a side (more cells than a page has dots), so no
        // T x T matrix of every head reaches the host (T = 16384 with 8 heads: 8 GiB).
        constexpr int kFigureCells = 1024;
        const bool figures =
            !commandLine.exportPath.isEmpty() || !commandLine.exportAllDir.isEmpty();
        const auto problem = core::resolveProblem(scene);
        noteFallbacks(*problem, scene);
        std::shared_ptr<const core::AttentionResult> full;
        if (!commandLine.dumpPath.isEmpty()) {
            // Refused before computing: a dump past the limit would exhaust memory as JSON.
            const std::int64_t numbers = core::resultDumpNumbers(*problem);
            if (numbers > core::kMaxDumpNumbers)
                throw core::Error("--dump: " + std::to_string(problem->queryCount()) + " x " +
                                  std::to_string(problem->keyCount()) + " tokens with " +
                                  std::to_string(problem->weights->headCount()) + " heads make " +
                                  std::to_string(numbers) + " numbers, more than the " +
                                  std::to_string(core::kMaxDumpNumbers) +
                                  " a dump may hold; dump a shorter text, or export a figure "
                                  "(--export), which pools long inputs");
        }
        if (!commandLine.presentationPath.isEmpty() &&
            std::max(problem->queryCount(), problem->keyCount()) > ui::kMaxPresentationTokens)
            throw core::Error("--export-presentation: a presentation shows every token, at most " +
                              std::to_string(ui::kMaxPresentationTokens) + "; this input has " +
                              std::to_string(std::max(problem->queryCount(), problem->keyCount())));
        if (!commandLine.dumpPath.isEmpty() || !commandLine.matrixPath.isEmpty() ||
            !commandLine.presentationPath.isEmpty())
            full = compute(*backend, problem, core::ComputeOptions{});
        core::ComputeOptions options;
        std::shared_ptr<const core::AttentionResult> result = full; // what the figures show
        if (figures) {
            if (std::max(problem->queryCount(), problem->keyCount()) > kFigureCells) {
                options.viewRows = options.viewCols = kFigureCells;
                options.pool =
                    core::PoolMode::Max; // as the window: one sharp weight is not averaged away
                options.keepIntermediates = false;
                result = compute(*backend, problem, options);
            } else if (!result) {
                result = compute(*backend, problem, options);
            }
        }
        // The difference view compares with --compare or the scene's comparison, else dot
        // product against scaled dot product (ui::chooseComparison), as the window's
        // Difference tab: never the scene as it is (all zeros).
        const QString comparisonName = ui::chooseComparison(scene.view.compareScore, scene, false);
        spec.compareLabel = ui::comparisonLabel(scene, comparisonName);
        std::shared_ptr<const core::AttentionResult> compare;
        auto comparison = [&]() {
            if (!compare)
                compare = compute(
                    *backend,
                    core::resolveProblem(ui::comparisonScene(scene, comparisonName, nullptr)),
                    options);
            return compare.get();
        };
        if (!commandLine.dumpPath.isEmpty())
            outputs.emplace_back(commandLine.dumpPath,
                                 QJsonDocument(withTraining(core::resultToJson(*full), training))
                                     .toJson(QJsonDocument::Indented));
        if (training && !commandLine.trainOptions.savePath.isEmpty())
            outputs.emplace_back(commandLine.trainOptions.savePath,
                                 core::sceneToJson(training->scene));
        if (commandLine.query && *commandLine.query >= problem->queryCount())
            throw core::Error(QStringLiteral("--query %1: the input has %2 queries")
                                  .arg(*commandLine.query + 1)
                                  .arg(problem->queryCount())
                                  .toStdString());
        if (!commandLine.exportPath.isEmpty() && conceptView) {
            ui::ConceptSource source;
            source.scene = std::make_shared<const core::Scene>(scene);
            source.result = result;
            source.head = std::max(0, spec.head);
            source.query = commandLine.query.value_or(problem->queryCount() - 1);
            source.trainer = training ? training->trainer.get() : nullptr;
            outputs.emplace_back(
                commandLine.exportPath,
                ui::conceptFigureBytes(*conceptView, source, spec, commandLine.figureSize,
                                       *ui::figureFormatForPath(commandLine.exportPath)));
        } else if (!commandLine.exportPath.isEmpty()) {
            bool valuesLeftOut = false;
            outputs.emplace_back(
                commandLine.exportPath,
                ui::figureBytes(*result, spec, commandLine.figureSize,
                                *ui::figureFormatForPath(commandLine.exportPath),
                                spec.view == ui::FigureView::Difference ? comparison() : nullptr,
                                &valuesLeftOut));
            if (valuesLeftOut)
                printLine(stderr, QStringLiteral("warning: ") + ui::valuesLeftOutMessage());
        }
        if (!commandLine.presentationPath.isEmpty()) {
            ui::DeckOptions deck;
            deck.head = std::max(0, spec.head);
            deck.query = commandLine.query.value_or(-1); // -1: ui::defaultQuery
            deck.theme = (commandLine.theme.isEmpty() ? scene.view.theme : commandLine.theme) ==
                                 QLatin1String("dark")
                             ? ui::PresentationTheme::Dark
                             : ui::PresentationTheme::Light;
            deck.weightScale = spec.weightScale;
            outputs.emplace_back(commandLine.presentationPath, ui::presentationPdf(*full, deck));
        }
        if (!commandLine.matrixPath.isEmpty()) {
            auto format = *ui::matrixFormatForPath(commandLine.matrixPath);
            if (format == ui::MatrixFormat::LatexTable && commandLine.pgfplots)
                format = ui::MatrixFormat::LatexPgfplots;
            const auto stage =
                ui::stageMatrix(*full, *ui::parseStage(commandLine.stage), std::max(0, spec.head));
            outputs.emplace_back(commandLine.matrixPath,
                                 ui::stageBytes(stage, format, spec.precision));
        }
        if (!commandLine.exportAllDir.isEmpty()) {
            for (const ExportAllFile& file :
                 exportAllFiles(commandLine.exportAllDir, result->problem->weights->headCount(),
                                result->pooling.pooled)) {
                ui::FigureSpec each = spec;
                each.view = file.view;
                each.head = file.head;
                outputs.emplace_back(
                    file.path,
                    ui::figureBytes(*result, each, commandLine.figureSize, file.format,
                                    file.view == ui::FigureView::Difference ? comparison()
                                                                            : nullptr));
            }
        }
    } catch (const core::Error& e) {
        printLine(stderr, QStringLiteral("error: ") + QString::fromStdString(e.what()));
        return kInvalidInput;
    } catch (const core::BackendFault& e) {
        printLine(stderr, QStringLiteral("error: ") + QString::fromStdString(e.what()));
        return kInvalidInput;
    } catch (const std::bad_alloc&) {
        printLine(stderr,
                  QStringLiteral("error: out of memory while computing or rendering; try a shorter "
                                 "text or fewer heads"));
        return kInvalidInput;
    }

    // Every output at once (core::writeFilesAtomically): each file is written in full beside
    // its target before any is renamed into place, so a failure half-way (a full disk, a
    // read-only folder) leaves no partial set of figures and every old file intact.
    const bool newFolder =
        !commandLine.exportAllDir.isEmpty() && !QFileInfo(commandLine.exportAllDir).isDir();
    try {
        if (!commandLine.exportAllDir.isEmpty())
            core::createFolders(commandLine.exportAllDir);
        core::writeFilesAtomically(outputs);
    } catch (const core::Error& e) {
        if (newFolder)
            QDir().rmdir(commandLine.exportAllDir); // only if still empty
        printLine(stderr, QStringLiteral("error: ") + QString::fromStdString(e.what()));
        return kCannotWrite;
    }
    if (!commandLine.exportAllDir.isEmpty())
        printLine(stdout, QStringLiteral("Wrote %1 files to %2")
                              .arg(outputs.size())
                              .arg(commandLine.exportAllDir));
    return kOk;
}

} // namespace attn::app
