#include "command_line.h"

#include "app/output_paths.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/fallback_words.h"
#include "core/limits.h"
#include "core/result_json.h"
#include "core/scene_json.h"
#include "ui/concepts/concept_figures.h"
#include "ui/explorer/comparison_choices.h"
#include "ui/figures/figure_export.h"
#include "ui/figures/legible_text.h"
#include "ui/figures/stage_export.h"
#include "ui/presentation/presentation_export.h"
#include "ui/presentation/presentation_extras.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <cstdio>

// The headless renderer of a scene (runHeadless): every figure, dump and matrix the command
// line asks for, made in memory first and then written at once.
namespace attn::app {

namespace {

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
    core::appendFallbackWords(words, problem.queryTokens, problem.queryFallback);
    core::appendFallbackWords(words, problem.keyTokens, problem.keyFallback);
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
} // namespace

std::unique_ptr<core::Backend> commandLineBackend(const CommandLine& commandLine)
{
    try {
        std::string notice;
        auto backend =
            gpu::createBackend(commandLine.backend, commandLine.vkDevice.toStdString(), &notice);
        if (!notice.empty())
            printLine(stderr, QString::fromStdString(notice));
        return backend;
    } catch (const core::Error& e) { // --vk-device names no device
        printLine(stderr, QStringLiteral("error: ") + QString::fromStdString(e.what()));
        return nullptr;
    }
}

int runHeadless(const CommandLine& commandLine)
{
    if (!commandLine.download.isEmpty())
        return runDownload(commandLine.download);
    if (commandLine.seq2seqOptions.active())
        return runSeq2SeqHeadless(commandLine.seq2seqOptions, commandLine.text,
                                  commandLine.dumpPath, commandLine.exportPath,
                                  commandLine.figureSize, commandLine.figure.dpi);
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
    const std::unique_ptr<core::Backend> backend = commandLineBackend(commandLine);
    if (!backend)
        return kUsage;

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
        // A stacked scene's figures show the layer its view names (scene_layers.h).
        const auto problem = core::resolveLayerProblem(scene, *backend, scene.view.layer);
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
                    core::resolveLayerProblem(ui::comparisonScene(scene, comparisonName, nullptr),
                                              *backend, scene.view.layer),
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
            deck.extras = ui::presentationExtras(scene); // a stacked block's, the mixing weights'
            if (deck.extras && !deck.extras->leftOut.isEmpty())
                printLine(stderr, QStringLiteral("warning: --export-presentation leaves out ") +
                                      deck.extras->leftOut);
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
