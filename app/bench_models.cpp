#include "app/bench_models.h"

#include "core/backend.h"
#include "core/error.h"
#include "core/kernels/gemm.h"
#include "core/model/forward.h"
#include "core/model/kv_cache.h"
#include "core/model/model_loader.h"
#include "core/model/random_checkpoint.h"
#include "core/tokenizers/hf_tokenizer.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>

namespace attn::bench {
namespace {

const char* const kPython = "/usr/bin/python3";
constexpr int kEditedLayer = 6; // "layer 7", counted from 1

// T token ids: GPT-2 random ids; BERT [CLS] ... [MASK] ... [SEP] (one [MASK], in the middle,
// the position whose fillers the explorer predicts).
std::vector<core::Token> benchTokens(const core::Model& model, int t)
{
    const bool masked = model.config().objective == core::Objective::MaskedLm;
    std::mt19937 random(20260411u + unsigned(t));
    const int vocab = model.config().vocab;
    std::uniform_int_distribution<int> ids(masked ? 1000 : 0, vocab - 1);
    std::vector<core::Token> tokens;
    for (int i = 0; i < t; ++i) {
        int id = ids(random);
        if (masked && i == 0)
            id = 101;
        else if (masked && i == t - 1 && t > 1)
            id = 102;
        else if (masked && i == t / 2)
            id = model.tokenizer->maskTokenId().value_or(103);
        core::Token token(QStringLiteral("t%1").arg(id), -1, 0, false);
        token.id = id;
        tokens.push_back(std::move(token));
    }
    return tokens;
}

QJsonArray stageMedians(const std::vector<std::vector<core::StageTime>>& runs)
{
    std::vector<std::string> order;
    for (const auto& run : runs)
        for (const core::StageTime& s : run)
            if (std::find(order.begin(), order.end(), s.stage) == order.end())
                order.push_back(s.stage);
    QJsonArray out;
    for (const std::string& name : order) {
        std::vector<double> ms;
        for (const auto& run : runs)
            for (const core::StageTime& s : run)
                if (s.stage == name)
                    ms.push_back(s.milliseconds);
        out.append(QJsonObject{{"stage", QString::fromStdString(name)}, {"ms", median(ms)}});
    }
    return out;
}

} // namespace

// The model cases and their torch peer are decoder-only or encoder-only (gpt2, bert); t5-small's
// shape is --translate's.
bool isBenchModel(const QString& name)
{
    return core::isRandomCheckpointShape(name) && name != QLatin1String("t5-small");
}

void writeRandomCheckpoint(const QString& name, const QString& folder)
{
    core::writeRandomCheckpoint(name, folder); // shared with the model window's tests
}

QStringList modelPhases()
{
    return {QStringLiteral("full"), QStringLiteral("predicted"), QStringLiteral("intervention")};
}

QJsonObject runModelCase(const QString& folder, const QString& name, core::Backend& backend, int t,
                         const QString& phase, const Budget& budget)
{
    QJsonObject out{{"model", name},
                    {"T", t},
                    {"backend", QString::fromStdString(backend.name())},
                    {"device", QString::fromStdString(backend.deviceName())},
                    {"kernels", QString::fromLatin1(core::gemmKernelName())}};
    auto start = Clock::now();
    const std::shared_ptr<const core::Model> model = core::loadModel(folder);
    out["load_ms"] = millisecondsSince(start);
    const double weightsMiB = double(model->config().parameterCount()) * 4.0 / (1 << 20);
    out["weights_mib"] = weightsMiB;
    out["rss_target_mib"] = 1.25 * weightsMiB + 300.0;
    out["rss_after_load_mib"] = procStatusMiB("VmRSS");
    const std::vector<core::Token> tokens = benchTokens(*model, t);
    if (phase == QLatin1String("append")) {
        // The peer's append mode: T - 1 tokens cached in every layer, one more appended (its
        // row in every head of every layer, and its logits). Each sample appends to a fresh
        // copy of the cache, the copy not timed. Beside it, the whole forward of T tokens
        // (logits at the last position) that the cache saves.
        core::ForwardOptions options;
        options.keepIntermediates = false;
        const std::vector<core::Token> prefix(tokens.begin(), tokens.end() - 1);
        const auto cache =
            core::KvCache::fromResult(*core::runModel(model, prefix, {}, backend, options));
        if (!cache)
            throw core::Error(name.toStdString() + " has no key/value cache (not causal)");
        std::unique_ptr<core::KvCache> copy;
        const std::vector<double> append = sample(budget, [&] {
            copy = std::make_unique<core::KvCache>(*cache);
            const auto s = Clock::now();
            copy->append({tokens.back()}, backend.blockOps());
            return millisecondsSince(s);
        });
        out["append_ms"] = median(append);
        out["append_reps"] = int(append.size());
        out["cache_mib"] = double(cache->bytes()) / (1 << 20);
        const Budget few{1, 3, 0.0};
        const std::vector<double> whole = sample(few, [&] {
            const auto s = Clock::now();
            core::runModel(model, tokens, {}, backend, options);
            return millisecondsSince(s);
        });
        out["forward_ms"] = median(whole);
        return out;
    }

    // Every attention map (Q, K, V, weights and outputs kept; raw, scaled and masked scores not,
    // as the peer returns only the maps), and the logits.
    core::ForwardOptions predicted;
    predicted.keepIntermediates = false;
    predicted.topK = 5;
    core::ForwardOptions every = predicted;
    every.logitsAtEveryPosition = true;

    // One result alive at a time: the previous one is dropped before the next forward.
    std::shared_ptr<const core::ModelResult> result;
    std::vector<std::vector<core::StageTime>> stages;
    auto forward = [&](const core::ForwardOptions& options, const core::Interventions& edit,
                       std::shared_ptr<const core::ModelResult> previous) {
        result.reset();
        const auto s = Clock::now();
        result = core::runModel(model, tokens, edit, backend, options, std::move(previous));
        const double ms = millisecondsSince(s);
        stages.push_back(result->stages);
        return ms;
    };
    std::vector<double> ms;
    if (phase == QLatin1String("intervention")) {
        // One head of layer 7 edited (W_q scaled, two scales alternating so that each sample is
        // a new intervention), the layers from 7 up recomputed on the unedited forward, which
        // stays alive as the window keeps the result it shows.
        forward(predicted, {}, nullptr);
        const std::shared_ptr<const core::ModelResult> base = result;
        out["rss_reset"] = resetPeakRss();
        const core::Matrix& wq = model->weights.layers[kEditedLayer].attention->heads[0].Wq;
        core::Interventions edits[2];
        for (int i = 0; i < 2; ++i)
            edits[i].layers[kEditedLayer].heads[0].Wq = core::Matrix(wq * (i ? 0.5f : 0.25f));
        int runs = 0;
        int firstComputed = -1;
        stages.clear();
        ms = sample(budget, [&] {
            const double m = forward(predicted, edits[runs++ % 2], base);
            firstComputed = result->firstComputedLayer;
            return m;
        });
        out["intervention_first_layer"] = firstComputed + 1;
    } else {
        // "full": the peer's work, every position's logits. "predicted": the explorer's, the
        // logits where it predicts (the last position; BERT's [MASK]).
        out["rss_reset"] = resetPeakRss();
        const core::ForwardOptions& options = phase == QLatin1String("full") ? every : predicted;
        ms = sample(budget, [&] { return forward(options, {}, nullptr); });
    }
    stages.erase(stages.begin()); // the warm-up
    const QString key = phase == QLatin1String("full")        ? QStringLiteral("full")
                        : phase == QLatin1String("predicted") ? QStringLiteral("full_predicted")
                                                              : QStringLiteral("intervention");
    out[key + "_ms"] = median(ms);
    out[key + "_reps"] = int(ms.size());
    out[key + "_stages"] = stageMedians(stages);
    out["rss_" + phase + "_mib"] = procStatusMiB("VmHWM");
    return out;
}

bool torchAvailable(QString* why)
{
    if (!QFile::exists(QStringLiteral(ATTN_TORCH_PEER)))
        *why = QStringLiteral("%1 not found").arg(QStringLiteral(ATTN_TORCH_PEER));
    else if (QProcess::execute(QString::fromLatin1(kPython), {"-c", "import torch"}) != 0)
        *why = QStringLiteral("%1 with torch not found (apt-get install python3-torch "
                              "libopenblas0-pthread)")
                   .arg(QString::fromLatin1(kPython));
    return why->isEmpty();
}

PeerTimes runTorchPeer(const QStringList& models, const std::vector<int>& sizes, bool append)
{
    PeerTimes medians;
    // "torch  gpt2  T=   128 layers=12 d_model=768 heads=12  median    123.45 ms  (...)", and
    // "torch  gpt2  append T=   512 ..." in append mode
    static const QRegularExpression line(
        QStringLiteral(R"(torch\s+(\w+)\s+(?:append\s+)?T=\s*(\d+).*median\s+([0-9.]+) ms)"));
    for (const QString& name : models) {
        const int positions = core::randomCheckpointPositions(name);
        QStringList args{"-u",
                         "OPENBLAS_CORETYPE",
                         "-u",
                         "OPENBLAS_L2_SIZE",
                         QString::fromLatin1(kPython),
                         QStringLiteral(ATTN_TORCH_PEER),
                         name};
        if (append)
            args << QStringLiteral("--append");
        bool any = false;
        for (int t : sizes)
            if (t <= positions) {
                args << QString::number(t);
                any = true;
            }
        if (!any)
            continue;
        std::fprintf(stderr, "running the torch peer (%s)...\n", qPrintable(name));
        QProcess peer;
        peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        peer.start(QStringLiteral("env"), args);
        peer.waitForFinished(-1);
        for (const QString& text : QString::fromUtf8(peer.readAllStandardOutput()).split('\n')) {
            const auto m = line.match(text);
            if (m.hasMatch())
                medians[{m.captured(1), m.captured(2).toInt()}] = m.captured(3).toDouble();
        }
        if (peer.exitCode() != 0)
            std::printf("torch peer failed for %s (exit code %d)\n", qPrintable(name),
                        peer.exitCode());
    }
    return medians;
}

void printAppendTable(const std::vector<QJsonObject>& cases, const PeerTimes& torch)
{
    std::printf("\nOne more token at total length T, the first T - 1 cached in every layer (its "
                "row in every head\nof every layer, and its logits), against the whole forward "
                "of T tokens and the torch peer's append.\n\n");
    std::printf("| model | T | backend | append ms | torch append ms | torch / ours | whole "
                "forward ms | append / forward | cache MiB |\n|---|---|---|---|---|---|---|---|"
                "---|\n");
    for (const QJsonObject& c : cases) {
        const QString model = c["model"].toString();
        const int t = c["T"].toInt();
        if (c.contains("skipped")) {
            std::printf("| %s | %d | %s | skipped: %s | | | | | |\n", qPrintable(model), t,
                        qPrintable(c["label"].toString()), qPrintable(c["skipped"].toString()));
            continue;
        }
        const double append = c["append_ms"].toDouble();
        const auto peer = torch.find({model, t});
        const bool hasPeer = peer != torch.end();
        std::printf("| %s | %d | %s | %.2f | %s | %s | %.1f | %.3f | %.1f |\n", qPrintable(model),
                    t, qPrintable(c["label"].toString()), append,
                    hasPeer ? qPrintable(QString::number(peer->second, 'f', 2)) : "-",
                    hasPeer ? qPrintable(QString::number(peer->second / append, 'f', 2)) : "-",
                    c["forward_ms"].toDouble(), append / c["forward_ms"].toDouble(),
                    c["cache_mib"].toDouble());
    }
}

void printModelTables(const std::vector<QJsonObject>& cases, const PeerTimes& torch)
{
    std::printf(
        "\nWhole models, random float32 weights in the shapes of gpt2 and bert-base, every layer's "
        "attention maps\n"
        "kept (Q, K, V, weights, outputs). Full: the forward with the logits of every position, "
        "as the torch\n"
        "peer computes them. Predicted: the explorer's forward, logits at the last position "
        "(gpt2) or the\n"
        "[MASK] (bert). Intervention: one head of layer 7 edited, layers 7-12 recomputed, logits "
        "as predicted.\n"
        "Peak RSS after loading (VmHWM reset between phases); target 1.25 x float32 weights + "
        "300 MiB.\n\n");
    std::printf("| model | T | backend | full ms | torch ms | torch / ours | predicted ms | "
                "intervention ms | intervention / predicted | peak RSS MiB (full / predicted / "
                "intervention) | target MiB |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const QJsonObject& c : cases) {
        const QString model = c["model"].toString();
        const int t = c["T"].toInt();
        if (c.contains("skipped")) {
            std::printf("| %s | %d | %s | skipped: %s | | | | | | | |\n", qPrintable(model), t,
                        qPrintable(c["label"].toString()), qPrintable(c["skipped"].toString()));
            continue;
        }
        const double full = c["full_ms"].toDouble();
        const double predicted = c["full_predicted_ms"].toDouble();
        const double intervention = c["intervention_ms"].toDouble();
        const auto peer = torch.find({model, t});
        const bool hasPeer = peer != torch.end();
        std::printf("| %s | %d | %s | %.1f | %s | %s | %.1f | %.1f | %.2f | %.0f / %.0f / %.0f | "
                    "%.0f |\n",
                    qPrintable(model), t, qPrintable(c["label"].toString()), full,
                    hasPeer ? qPrintable(QString::number(peer->second, 'f', 1)) : "-",
                    hasPeer ? qPrintable(QString::number(peer->second / full, 'f', 2)) : "-",
                    predicted, intervention, intervention / predicted, c["rss_full_mib"].toDouble(),
                    c["rss_predicted_mib"].toDouble(), c["rss_intervention_mib"].toDouble(),
                    c["rss_target_mib"].toDouble());
    }
    std::printf("\nStages of the full forward (median ms):\n\n");
    for (const QJsonObject& c : cases) {
        if (c.contains("skipped"))
            continue;
        std::printf("- %s T = %d:", qPrintable(c["model"].toString()), c["T"].toInt());
        for (const QJsonValue& s : c["full_stages"].toArray())
            std::printf(" %s %.1f;", qPrintable(s["stage"].toString()), s["ms"].toDouble());
        std::printf(" predicted:");
        for (const QJsonValue& s : c["full_predicted_stages"].toArray())
            std::printf(" %s %.1f;", qPrintable(s["stage"].toString()), s["ms"].toDouble());
        std::printf(" (load %.0f ms, %s kernels%s)\n", c["load_ms"].toDouble(),
                    qPrintable(c["kernels"].toString()),
                    c["rss_reset"].toBool() ? ""
                                            : "; VmHWM could not be reset: peaks include loading");
    }
}

} // namespace attn::bench
