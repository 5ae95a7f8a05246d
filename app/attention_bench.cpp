// attention-bench: one attention layer against NumPy, and whole models against eager PyTorch
// (docs/PERFORMANCE.md holds the tables).
//
// For each size T and backend, in a child process of its own (so that no case inherits another's
// memory or caches): the median full compute of one attention layer, with every head's T x T
// weight matrix materialized as the NumPy peer does, and its stages; the edit-to-heatmap
// latency (one weight of W_q changed, intermediates not kept, weights pooled to the window's
// 512 x 512); and peak RSS. The NumPy peer runs in the same run, and the tables give
// numpy_ms / ours_ms.
//
// With --models, whole transformers with random weights in the shapes of gpt2 and bert-base
// (bench_models.h), against eager PyTorch in the same run.
//
//   attention-bench [--sizes 32,128,1024,4096,16384] [--backends cpu,vulkan] [--quick]
//                   [--numpy | --no-numpy] [--models gpt2,bert] [--model-sizes 32,128,512]
//                   [--model-backends cpu] [--append] [--torch | --no-torch] [--json FILE]
//   attention-bench --training [--quick] [--json FILE]     (training steps per second)
//   attention-bench --seq2seq [--no-torch] [--json FILE]   (the tutorial's encoder-decoder)
//   attention-bench --translate [--quick] [--no-torch] [--json FILE]   (t5-small's decoding)
//   attention-bench --tokenizer DIR [--text FILE] [--json FILE]   (encoding MB/s)
#include "app/bench_models.h"
#include "app/bench_seq2seq.h"
#include "app/bench_timing.h"
#include "app/bench_tokenizers.h"
#include "app/bench_training.h"
#include "app/bench_translate.h"
#include "core/allocator.h"
#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/kernels/gemm.h"
#include "core/limits.h"
#include "core/random_problem.h"
#include "gpu/backend_factory.h"
#include "gpu/vulkan_backend.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>
#include <vector>

namespace {

using namespace attn;
using bench::Budget;
using bench::Clock;
using bench::median;
using bench::millisecondsSince;
using bench::sample;

constexpr int kModel = 512;
constexpr int kHeads = 8;
constexpr int kView = 512; // the window's heatmap resolution
const char* const kPython = "/usr/bin/python3";

// Nominal FLOPs (a multiply-add counts 2), every product counted whole: with the causal mask
// both backends execute only about half of the scores and of weights x V.
double projectFlops(int t)
{
    return 2.0 * t * kModel * kModel * 3;
}
double scoreFlops(int t)
{
    return 2.0 * t * t * kModel;
} // all heads; weights x V the same
double outputFlops(int t)
{
    return 2.0 * t * kModel * kModel;
}
double totalFlops(int t)
{
    return projectFlops(t) + 2 * scoreFlops(t) + outputFlops(t);
}

// The stages as both backends name them in Diagnostics::stages.
struct StageColumn
{
    const char* name;
    double (*flops)(int); // null: not counted
};
const StageColumn kStageColumns[] = {
    {"embed + project", projectFlops}, {"scores + mask + normalize", scoreFlops},
    {"weights x V", scoreFlops},       {"pool", nullptr},
    {"concat + W_O", outputFlops},
};

// ---- One case, in the child process -----------------------------------------------------

// Validated once when built, as a model's layers are (Problem::weightsValidated): each compute
// checks the shapes, not every weight again. An edit (editWeights) validates its copy in full.
std::shared_ptr<const core::Problem> benchProblem(int t, std::uint64_t seed)
{
    auto p = core::randomProblem(t, t, kModel, kHeads, seed, false);
    p->mask.causal = true; // scaled dot and softmax are the defaults
    p->validate();
    p->weightsValidated = true;
    return p;
}

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // kilobytes on Linux
}

// "cpu", or "vulkanN" for device N: the Vulkan backend itself, not the fallback wrapper, so a
// failing device is reported instead of silently measuring the CPU.
std::unique_ptr<core::Backend> makeBackend(const QString& spec)
{
    if (spec == QLatin1String("cpu"))
        return std::make_unique<core::CpuBackend>();
    if (spec.startsWith(QLatin1String("vulkan")))
        return gpu::VulkanBackend::create(spec.mid(6).toStdString());
    throw core::Error("unknown backend '" + spec.toStdString() + "'");
}

QJsonObject runCase(const QString& spec, int t, const Budget& budget)
{
    const std::unique_ptr<core::Backend> backend = makeBackend(spec);
    QJsonObject out{
        {"backend", spec}, {"T", t}, {"device", QString::fromStdString(backend->deviceName())}};

    // Edit to displayed heatmap first, so that its peak RSS is not the full compute's. Each
    // edit makes a new immutable problem, as the window does (which holds at most the shown
    // result's problem and the edited one); the backend may reuse whatever the edit did not
    // touch.
    core::ComputeOptions view;
    view.keepIntermediates = false;
    view.viewRows = view.viewCols = kView;
    {
        std::shared_ptr<const core::Problem> current = benchProblem(t, 1);
        std::shared_ptr<const core::AttentionResult> shown;
        const float w = current->weights->heads[0].Wq(0, 0);
        int edits = 0;
        const auto ms = sample(budget, [&] {
            const auto start = Clock::now();
            auto edited = std::make_shared<core::Problem>(*current);
            edited->editWeights().heads[0].Wq(0, 0) = w + (++edits % 2 ? 0.01f : -0.01f);
            current = edited;
            shown = backend->compute(current, view);
            return millisecondsSince(start);
        });
        out["edit_ms"] = median(ms);
        out["edit_reps"] = int(ms.size());
        out["rss_heatmap_mib"] = peakRssMiB();
    }

    // Full compute: every weight matrix at full size, scores not kept (what the NumPy peer
    // computes), alternating two problems so that nothing can be reused. A size whose full
    // matrices a backend refuses is pooled to the view instead, and says so.
    const auto a = benchProblem(t, 1);
    const auto b = benchProblem(t, 2);
    core::ComputeOptions full;
    full.keepIntermediates = false;
    std::vector<std::map<std::string, double>> stageRuns;
    std::vector<std::string> stageOrder;
    int runs = 0;
    auto once = [&] {
        const auto start = Clock::now();
        const auto result = backend->compute(runs++ % 2 ? b : a, full);
        const double ms = millisecondsSince(start);
        auto& stages = stageRuns.emplace_back();
        for (const core::StageTime& s : result->diagnostics.stages) {
            if (std::find(stageOrder.begin(), stageOrder.end(), s.stage) == stageOrder.end())
                stageOrder.push_back(s.stage);
            stages[s.stage] += s.milliseconds;
        }
        return ms;
    };
    std::vector<double> fullMs;
    try {
        fullMs = sample(budget, once);
    } catch (const std::exception& e) { // core::Error or BackendFault: too large unpooled
        out["full_note"] = QStringLiteral("full weights refused (%1); pooled to %2x%2")
                               .arg(QString::fromStdString(e.what()))
                               .arg(kView);
        full = view;
        stageRuns.clear();
        fullMs = sample(budget, once);
    }
    stageRuns.erase(stageRuns.begin()); // the warm-up
    out["full_ms"] = median(fullMs);
    out["full_reps"] = int(fullMs.size());
    out["full_pooled"] = full.viewRows > 0;
    QJsonArray stages;
    for (const std::string& name : stageOrder) {
        std::vector<double> ms;
        for (auto& run : stageRuns)
            ms.push_back(run[name]);
        stages.append(QJsonObject{{"stage", QString::fromStdString(name)}, {"ms", median(ms)}});
    }
    out["stages"] = stages;
    out["rss_peak_mib"] = peakRssMiB();
    return out;
}

// ---- The parent: children, the NumPy peer, tables ----------------------------------------

struct BackendSpec
{
    QString spec;  // what --case takes
    QString label; // the table's name
    QString device;
};

// Runs this executable with `args` (a --case or --model-case) and returns the JSON it prints.
QJsonObject runChild(QStringList args, bool quick)
{
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    if (quick)
        args << QStringLiteral("--quick");
    child.start(QCoreApplication::applicationFilePath(), args);
    child.waitForFinished(-1);
    const QList<QByteArray> lines = child.readAllStandardOutput().trimmed().split('\n');
    const QJsonObject reply = QJsonDocument::fromJson(lines.last()).object();
    if (child.exitStatus() != QProcess::NormalExit || reply.isEmpty())
        return {{"skipped", QStringLiteral("the case process failed (%1)")
                                .arg(child.exitStatus() == QProcess::CrashExit
                                         ? QStringLiteral("crashed, out of memory?")
                                         : QStringLiteral("exit code %1").arg(child.exitCode()))}};
    return reply;
}

bool numpyAvailable(QString* why)
{
    if (!QFile::exists(QStringLiteral(ATTN_NUMPY_PEER)))
        *why = QStringLiteral("%1 not found").arg(QStringLiteral(ATTN_NUMPY_PEER));
    else if (QProcess::execute(QString::fromLatin1(kPython), {"-c", "import numpy"}) != 0)
        *why = QStringLiteral(
                   "%1 with numpy not found (apt-get install python3-numpy libopenblas0-pthread)")
                   .arg(QString::fromLatin1(kPython));
    return why->isEmpty();
}

double memAvailableBytes()
{
    QFile meminfo(QStringLiteral("/proc/meminfo"));
    if (meminfo.open(QIODevice::ReadOnly))
        for (const QByteArray& line : meminfo.readAll().split('\n'))
            if (line.startsWith("MemAvailable:"))
                return line.simplified().split(' ').value(1).toDouble() * 1024.0;
    return 0.0;
}

// Runs the peer exactly as its docstring says and returns its median per T. Sizes whose
// arrays cannot fit are left out with a line: the peer holds about three h x T x T float32
// arrays at once (16 GiB at T = 16384).
std::map<int, double> runNumpy(const std::vector<int>& sizes)
{
    std::map<int, double> medians;
    QStringList args{"-u",
                     "OPENBLAS_CORETYPE",
                     "-u",
                     "OPENBLAS_L2_SIZE",
                     QString::fromLatin1(kPython),
                     QStringLiteral(ATTN_NUMPY_PEER)};
    bool any = false;
    for (int t : sizes) {
        const double bytes = 3.0 * kHeads * double(t) * t * sizeof(float);
        if (bytes > memAvailableBytes() / 2) {
            std::printf("NumPy peer skipped at T = %d: its arrays need about %.0f GiB\n", t,
                        bytes / (1 << 30));
            continue;
        }
        args << QString::number(t);
        any = true;
    }
    if (!any)
        return medians;
    std::fprintf(stderr, "running the NumPy peer...\n");
    QProcess peer;
    peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    peer.start(QStringLiteral("env"), args);
    peer.waitForFinished(-1);
    // "numpy  T=  1024 d_model=512 heads=8 causal  median     61.02 ms"
    static const QRegularExpression line(QStringLiteral(R"(T=\s*(\d+).*median\s+([0-9.]+) ms)"));
    for (const QString& text : QString::fromUtf8(peer.readAllStandardOutput()).split('\n')) {
        const auto m = line.match(text);
        if (m.hasMatch())
            medians[m.captured(1).toInt()] = m.captured(2).toDouble();
    }
    if (peer.exitCode() != 0 || medians.empty())
        std::printf("NumPy peer failed (exit code %d)\n", peer.exitCode());
    return medians;
}

std::vector<BackendSpec> availableBackends(const QStringList& wanted)
{
    std::vector<BackendSpec> backends;
    for (const QString& name : wanted) {
        if (name == QLatin1String("cpu")) {
            backends.push_back({"cpu", "CPU", "Eigen"});
        } else if (name == QLatin1String("vulkan")) {
            const auto devices = gpu::listDevices();
            if (devices.empty())
                std::printf("Vulkan: no device found; skipped\n");
            for (const gpu::DeviceInfo& d : devices)
                backends.push_back(
                    {QStringLiteral("vulkan%1").arg(d.index),
                     QStringLiteral("Vulkan %1").arg(d.index),
                     QString::fromStdString(gpu::describe(d)).section(": ", 1)}); // no "N: "
        } else {
            std::printf("unknown backend '%s' (cpu, vulkan); skipped\n", qPrintable(name));
        }
    }
    return backends;
}

QString gflops(double flops, double ms)
{
    return QString::number(flops / (ms * 1e6), 'f', 1);
}

void printTables(const std::vector<BackendSpec>& backends, const std::vector<QJsonObject>& cases,
                 const std::map<int, double>& numpy)
{
    std::printf("\nd_model = %d, h = %d, causal scaled-dot softmax, self-attention. Full compute: "
                "every head's\n"
                "T x T weights materialized (intermediate scores not kept), as the NumPy peer "
                "does. GFLOP/s are\n"
                "nominal: every product counted whole, though the causal mask lets both backends "
                "skip about half\n"
                "of the scores and of weights x V (executed GFLOP/s of those stages are about half "
                "the figure).\n"
                "Edit: one weight of W_q changed, new problem, compute with the weights pooled to "
                "%dx%d.\n\n",
                kModel, kHeads, kView, kView);
    for (const BackendSpec& b : backends)
        std::printf("- %s: %s\n", qPrintable(b.label), qPrintable(b.device));

    std::printf(
        "\n| backend | T | full compute ms (median) | GFLOP/s | edit to heatmap ms | peak RSS MiB "
        "(heatmap / case) | NumPy ms | NumPy / ours |\n|---|---|---|---|---|---|---|---|\n");
    for (const QJsonObject& c : cases) {
        const int t = c["T"].toInt();
        const QString label = c["label"].toString();
        if (c.contains("skipped")) {
            std::printf("| %s | %d | skipped: %s | | | | | |\n", qPrintable(label), t,
                        qPrintable(c["skipped"].toString()));
            continue;
        }
        const double ms = c["full_ms"].toDouble();
        const bool pooled = c["full_pooled"].toBool();
        const auto peer = numpy.find(t);
        std::printf(
            "| %s | %d | %.2f%s | %s | %.2f | %.0f / %.0f | %s | %s |\n", qPrintable(label), t, ms,
            pooled ? " (pooled)" : "", qPrintable(gflops(totalFlops(t), ms)),
            c["edit_ms"].toDouble(), c["rss_heatmap_mib"].toDouble(), c["rss_peak_mib"].toDouble(),
            peer != numpy.end() ? qPrintable(QString::number(peer->second, 'f', 2)) : "-",
            peer != numpy.end() && !pooled ? qPrintable(QString::number(peer->second / ms, 'f', 2))
                                           : "-");
    }

    std::printf("\nStages of the full compute: median ms (nominal GFLOP/s)\n\n| backend | T |");
    for (const StageColumn& s : kStageColumns)
        std::printf(" %s |", s.name);
    std::printf("\n|---|---|");
    for (std::size_t i = 0; i < std::size(kStageColumns); ++i)
        std::printf("---|");
    std::printf("\n");
    for (const QJsonObject& c : cases) {
        if (c.contains("skipped"))
            continue;
        const int t = c["T"].toInt();
        std::printf("| %s | %d |", qPrintable(c["label"].toString()), t);
        for (const StageColumn& column : kStageColumns) {
            QString cell = QStringLiteral("-");
            for (const QJsonValue& s : c["stages"].toArray())
                if (s["stage"].toString() == QLatin1String(column.name)) {
                    const double ms = s["ms"].toDouble();
                    cell = QString::number(ms, 'f', 2);
                    if (column.flops)
                        cell += QStringLiteral(" (%1)").arg(gflops(column.flops(t), ms));
                }
            std::printf(" %s |", qPrintable(cell));
        }
        std::printf("\n");
    }
    for (const QJsonObject& c : cases)
        if (c.contains("full_note"))
            std::printf("\n%s T = %d: %s", qPrintable(c["label"].toString()), c["T"].toInt(),
                        qPrintable(c["full_note"].toString()));
    std::printf("\n");
}

} // namespace

int main(int argc, char** argv)
{
    core::keepFreedMemoryForReuse(); // as the app does (app/main.cpp)
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("attention-bench"));
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Attention Explorer's benchmark: one attention layer against NumPy, whole "
                       "models against eager PyTorch."));
    parser.addHelpOption();
    const QCommandLineOption sizesOption("sizes", "Comma-separated T values.", "list",
                                         "32,128,1024,4096,16384");
    const QCommandLineOption backendsOption("backends", "cpu, vulkan (every device), or both.",
                                            "list", "cpu,vulkan");
    const QCommandLineOption quickOption("quick", "Fewer repetitions (one sample per large case).");
    const QCommandLineOption numpyOption("numpy",
                                         "Run the NumPy peer (default when it is available).");
    const QCommandLineOption noNumpyOption("no-numpy", "Do not run the NumPy peer.");
    const QCommandLineOption jsonOption("json", "Also write every measurement to this file.",
                                        "file");
    const QCommandLineOption modelsOption(
        "models",
        "Whole models with random weights: gpt2, bert. Alone, without "
        "--sizes, only the model cases run.",
        "list");
    const QCommandLineOption modelSizesOption("model-sizes", "T values of the model cases.", "list",
                                              "32,128,512");
    const QCommandLineOption modelBackendsOption(
        "model-backends", "Backends of the model cases: cpu, vulkan.", "list", "cpu");
    const QCommandLineOption modelDirOption(
        "model-dir",
        "Keep the random checkpoints in this folder (reused when already there) "
        "instead of a temporary one.",
        "folder");
    const QCommandLineOption torchOption("torch",
                                         "Run the torch peer (default when it is available).");
    const QCommandLineOption noTorchOption("no-torch", "Do not run the torch peer.");
    const QCommandLineOption appendOption(
        "append",
        "Model cases (causal only): one more token at T with T - 1 cached, instead of the "
        "whole forwards.");
    const QCommandLineOption trainingOption(
        "training", "Training steps per second at T <= 16, d_model <= 64; only these cases run.");
    const QCommandLineOption seq2seqOption(
        "seq2seq", "The translation tutorial's encoder-decoder at its sizes, trained and decoded, "
                   "against the torch peer; only this case runs.");
    const QCommandLineOption translateOption(
        "translate",
        "An encoder-decoder in t5-small's shape decoding word by word, greedy and "
        "with 4 beams, with and without the key/value cache, against the torch peer; only "
        "this case runs.");
    const QCommandLineOption tokenizerOption(
        "tokenizer",
        "Encoding speed of one tokenizer folder on the seeds' notes (or --text FILE), about "
        "1 MB; only this case runs.",
        "dir");
    const QCommandLineOption textOption("text", "The text --tokenizer encodes.", "file");
    QCommandLineOption caseOption("case", "Internal: measure one case, BACKEND:T, and print JSON.",
                                  "case");
    caseOption.setFlags(QCommandLineOption::HiddenFromHelp);
    QCommandLineOption modelCaseOption("model-case",
                                       "Internal: measure one phase of a model case, "
                                       "MODEL:BACKEND:T:PHASE:FOLDER, and print JSON.",
                                       "case");
    modelCaseOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({sizesOption,    backendsOption,  quickOption,      numpyOption,
                       noNumpyOption,  modelsOption,    modelSizesOption, modelBackendsOption,
                       modelDirOption, torchOption,     noTorchOption,    jsonOption,
                       trainingOption, seq2seqOption,   caseOption,       modelCaseOption,
                       appendOption,   tokenizerOption, textOption,       translateOption});
    parser.process(app);

    const bool quick = parser.isSet(quickOption);
    if (parser.isSet(trainingOption))
        return bench::runTrainingMode(quick, parser.value(jsonOption));
    if (parser.isSet(seq2seqOption))
        return bench::runSeq2SeqMode(!parser.isSet(noTorchOption), parser.value(jsonOption));
    if (parser.isSet(translateOption))
        return bench::runTranslateMode(quick, !parser.isSet(noTorchOption),
                                       parser.value(jsonOption));
    if (parser.isSet(tokenizerOption))
        return bench::runTokenizerMode(parser.value(tokenizerOption), parser.value(textOption),
                                       parser.value(jsonOption));
    if (parser.isSet(caseOption) || parser.isSet(modelCaseOption)) {
        const bool model = parser.isSet(modelCaseOption);
        const QStringList parts = parser.value(model ? modelCaseOption : caseOption).split(':');
        QJsonObject out;
        try {
            if (model) {
                const Budget budget = quick ? Budget{1, 1, 0.0} : Budget{3, 21, 3000.0};
                const std::unique_ptr<core::Backend> backend = makeBackend(parts.value(1));
                out = bench::runModelCase(parts.mid(4).join(':'), parts.value(0), *backend,
                                          parts.value(2).toInt(), parts.value(3), budget);
            } else {
                const Budget budget = quick ? Budget{1, 5, 200.0} : Budget{3, 51, 2000.0};
                out = runCase(parts.value(0), parts.value(1).toInt(), budget);
            }
        } catch (const std::exception& e) {
            out = {{"skipped", QString::fromStdString(e.what())}};
        }
        std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Compact).constData());
        return 0;
    }

    auto parseSizes = [](const QString& option, const QString& list, std::vector<int>& sizes) {
        for (const QString& s : list.split(',', Qt::SkipEmptyParts)) {
            bool ok = false;
            const int t = s.toInt(&ok);
            if (!ok || t < 1 || t > core::kMaxTokens) {
                std::fprintf(stderr, "attention-bench: --%s: '%s' is not a size from 1 to %d\n",
                             qPrintable(option), qPrintable(s), core::kMaxTokens);
                return false;
            }
            sizes.push_back(t);
        }
        return true;
    };
    const QStringList models = parser.value(modelsOption).split(',', Qt::SkipEmptyParts);
    const bool append = parser.isSet(appendOption);
    for (const QString& m : models)
        if (!bench::isBenchModel(m)) {
            std::fprintf(stderr, "attention-bench: --models: '%s' is not gpt2 or bert\n",
                         qPrintable(m));
            return 2;
        }
    std::vector<int> sizes;
    std::vector<int> modelSizes;
    if (!parseSizes("sizes",
                    models.isEmpty() || parser.isSet(sizesOption) ? parser.value(sizesOption)
                                                                  : QString(),
                    sizes) ||
        !parseSizes("model-sizes", models.isEmpty() ? QString() : parser.value(modelSizesOption),
                    modelSizes))
        return 2;
    const std::vector<BackendSpec> backends =
        sizes.empty() ? std::vector<BackendSpec>{}
                      : availableBackends(parser.value(backendsOption).split(','));
    std::printf("CPU kernels: %s\n", core::gemmKernelName());

    std::map<int, double> numpy;
    QString why;
    if (!sizes.empty() && !parser.isSet(noNumpyOption)) {
        if (numpyAvailable(&why)) {
            numpy = runNumpy(sizes);
        } else if (parser.isSet(numpyOption)) {
            std::fprintf(stderr, "attention-bench: --numpy: %s\n", qPrintable(why));
            return 2;
        } else {
            std::printf("NumPy peer not run: %s\n", qPrintable(why));
        }
    }

    std::vector<QJsonObject> cases;
    for (const BackendSpec& backend : backends)
        for (int t : sizes) {
            std::fprintf(stderr, "%s T=%d...\n", qPrintable(backend.label), t);
            QJsonObject c = runChild(
                {QStringLiteral("--case"), QStringLiteral("%1:%2").arg(backend.spec).arg(t)},
                quick);
            c["label"] = backend.label;
            c["T"] = t;
            if (c.contains("skipped"))
                std::printf("%s T = %d skipped: %s\n", qPrintable(backend.label), t,
                            qPrintable(c["skipped"].toString()));
            cases.push_back(c);
        }
    if (!sizes.empty())
        printTables(backends, cases, numpy);

    // Whole models: the checkpoints written once into a temporary folder, the torch peer, then
    // each case in its own process.
    std::vector<QJsonObject> modelCases;
    bench::PeerTimes torch;
    if (!models.isEmpty()) {
        QTemporaryDir temporary;
        const bool keep = parser.isSet(modelDirOption);
        const QDir folder(keep ? parser.value(modelDirOption) : temporary.path());
        if (!keep && !temporary.isValid()) {
            std::fprintf(stderr, "attention-bench: no temporary folder: %s\n",
                         qPrintable(temporary.errorString()));
            return 1;
        }
        for (const QString& m : models) {
            if (keep && QFile::exists(folder.filePath(m + "/model.safetensors")))
                continue;
            std::fprintf(stderr, "writing a random %s checkpoint...\n", qPrintable(m));
            try {
                bench::writeRandomCheckpoint(m, folder.filePath(m));
            } catch (const std::exception& e) {
                std::fprintf(stderr, "attention-bench: %s\n", e.what());
                return 1;
            }
        }
        if (!parser.isSet(noTorchOption)) {
            if (bench::torchAvailable(&why)) {
                torch = bench::runTorchPeer(models, modelSizes, append);
            } else if (parser.isSet(torchOption)) {
                std::fprintf(stderr, "attention-bench: --torch: %s\n", qPrintable(why));
                return 2;
            } else {
                std::printf("torch peer not run: %s\n", qPrintable(why));
            }
        }
        const QStringList phases =
            append ? QStringList{QStringLiteral("append")} : bench::modelPhases();
        for (const QString& spec : parser.value(modelBackendsOption).split(',', Qt::SkipEmptyParts))
            for (const QString& m : models)
                for (int t : modelSizes) {
                    std::fprintf(stderr, "%s %s T=%d...\n", qPrintable(m), qPrintable(spec), t);
                    // Each phase in its own process; the case is their union.
                    QJsonObject c;
                    for (const QString& phase : phases) {
                        const QJsonObject part = runChild(
                            {QStringLiteral("--model-case"), QStringLiteral("%1:%2:%3:%4:%5")
                                                                 .arg(m, spec)
                                                                 .arg(t)
                                                                 .arg(phase, folder.filePath(m))},
                            quick);
                        if (part.contains("skipped")) {
                            c = part;
                            break;
                        }
                        for (auto it = part.begin(); it != part.end(); ++it)
                            if (!c.contains(it.key()) || it.key() != QLatin1String("rss_reset"))
                                c[it.key()] = it.value();
                            else
                                c[it.key()] = c[it.key()].toBool() && it.value().toBool();
                    }
                    if (!c.contains("skipped") && !append)
                        c["rss_peak_mib"] = std::max({c["rss_full_mib"].toDouble(),
                                                      c["rss_predicted_mib"].toDouble(),
                                                      c["rss_intervention_mib"].toDouble()});
                    c["model"] = m;
                    c["T"] = t;
                    c["label"] = spec;
                    if (c.contains("skipped"))
                        std::printf("%s %s T = %d skipped: %s\n", qPrintable(m), qPrintable(spec),
                                    t, qPrintable(c["skipped"].toString()));
                    modelCases.push_back(c);
                }
        if (append)
            bench::printAppendTable(modelCases, torch);
        else
            bench::printModelTables(modelCases, torch);
    }

    if (parser.isSet(jsonOption)) {
        QJsonObject peer;
        for (const auto& [t, ms] : numpy)
            peer[QString::number(t)] = ms;
        QJsonObject torchPeer;
        for (const auto& [key, ms] : torch)
            torchPeer[QStringLiteral("%1:%2").arg(key.first).arg(key.second)] = ms;
        QJsonArray all;
        for (const QJsonObject& c : cases)
            all.append(c);
        QJsonArray allModels;
        for (const QJsonObject& c : modelCases)
            allModels.append(c);
        QFile file(parser.value(jsonOption));
        if (!file.open(QIODevice::WriteOnly) ||
            file.write(QJsonDocument(QJsonObject{{"cases", all},
                                                 {"numpy_ms", peer},
                                                 {"model_cases", allModels},
                                                 {"torch_ms", torchPeer}})
                           .toJson()) < 0) {
            std::fprintf(stderr, "attention-bench: cannot write %s\n",
                         qPrintable(parser.value(jsonOption)));
            return 1;
        }
    }
    return 0;
}
