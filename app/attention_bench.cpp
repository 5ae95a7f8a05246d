// attention-bench: issue 3's benchmark (docs/PERFORMANCE.md holds its table).
//
// For each size T and backend, in a child process of its own (so that no case inherits
// another's memory or caches): the median full compute, with every head's T x T weight matrix
// materialized as the NumPy peer does, and its stages; the edit-to-heatmap latency (one
// weight of W_q changed, intermediates not kept, weights pooled to the window's 512 x 512);
// and peak RSS. The NumPy peer runs in the same run, and the tables give numpy_ms / ours_ms.
//
//   attention-bench [--sizes 32,128,1024,4096,16384] [--backends cpu,vulkan] [--quick]
//                   [--numpy | --no-numpy] [--json FILE]
#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/limits.h"
#include "gpu/backend_factory.h"
#include "gpu/vulkan_backend.h"
#include "tests/support/problems.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>

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
using Clock = std::chrono::steady_clock;

constexpr int kModel = 512;
constexpr int kHeads = 8;
constexpr int kView = 512; // the window's heatmap resolution
const char* const kPython = "/usr/bin/python3";

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

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

double median(std::vector<double> v)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// ---- One case, in the child process -----------------------------------------------------

struct Budget
{
    int minReps;
    int maxReps;
    double milliseconds; // keep sampling until this much time is spent
};

// One warm-up (plans, pipelines, caches), then samples of `once` (which returns its own
// milliseconds) until minReps are taken and the budget is spent, or maxReps.
std::vector<double> sample(const Budget& budget, const std::function<double()>& once)
{
    once();
    std::vector<double> samples;
    const auto start = Clock::now();
    while (int(samples.size()) < budget.maxReps &&
           (int(samples.size()) < budget.minReps || millisecondsSince(start) < budget.milliseconds))
        samples.push_back(once());
    return samples;
}

std::shared_ptr<const core::Problem> benchProblem(int t, std::uint64_t seed)
{
    auto p = test::randomProblem(t, t, kModel, kHeads, seed, false);
    p->mask.causal = true; // scaled dot and softmax are the defaults
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

QJsonObject runChild(const BackendSpec& backend, int t, bool quick)
{
    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QStringList args{QStringLiteral("--case"), QStringLiteral("%1:%2").arg(backend.spec).arg(t)};
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
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("attention-bench"));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Attention Explorer's benchmark (issue 3)."));
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
    QCommandLineOption caseOption("case", "Internal: measure one case, BACKEND:T, and print JSON.",
                                  "case");
    caseOption.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOptions({sizesOption, backendsOption, quickOption, numpyOption, noNumpyOption,
                       jsonOption, caseOption});
    parser.process(app);

    const bool quick = parser.isSet(quickOption);
    if (parser.isSet(caseOption)) {
        const QStringList parts = parser.value(caseOption).split(':');
        const Budget budget = quick ? Budget{1, 5, 200.0} : Budget{3, 51, 2000.0};
        QJsonObject out;
        try {
            out = runCase(parts.value(0), parts.value(1).toInt(), budget);
        } catch (const std::exception& e) {
            out = {{"skipped", QString::fromStdString(e.what())}};
        }
        std::printf("%s\n", QJsonDocument(out).toJson(QJsonDocument::Compact).constData());
        return 0;
    }

    std::vector<int> sizes;
    for (const QString& s : parser.value(sizesOption).split(',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const int t = s.toInt(&ok);
        if (!ok || t < 1 || t > core::kMaxTokens) {
            std::fprintf(stderr, "attention-bench: --sizes: '%s' is not a size from 1 to %d\n",
                         qPrintable(s), core::kMaxTokens);
            return 2;
        }
        sizes.push_back(t);
    }
    const std::vector<BackendSpec> backends =
        availableBackends(parser.value(backendsOption).split(','));

    std::map<int, double> numpy;
    QString why;
    if (!parser.isSet(noNumpyOption)) {
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
            QJsonObject c = runChild(backend, t, quick);
            c["label"] = backend.label;
            c["T"] = t;
            if (c.contains("skipped"))
                std::printf("%s T = %d skipped: %s\n", qPrintable(backend.label), t,
                            qPrintable(c["skipped"].toString()));
            cases.push_back(c);
        }
    printTables(backends, cases, numpy);

    if (parser.isSet(jsonOption)) {
        QJsonObject peer;
        for (const auto& [t, ms] : numpy)
            peer[QString::number(t)] = ms;
        QJsonArray all;
        for (const QJsonObject& c : cases)
            all.append(c);
        QFile file(parser.value(jsonOption));
        if (!file.open(QIODevice::WriteOnly) ||
            file.write(QJsonDocument(QJsonObject{{"cases", all}, {"numpy_ms", peer}}).toJson()) <
                0) {
            std::fprintf(stderr, "attention-bench: cannot write %s\n",
                         qPrintable(parser.value(jsonOption)));
            return 1;
        }
    }
    return 0;
}
