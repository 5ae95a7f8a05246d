#include "bench_translate.h"

#include "app/bench_models.h"
#include "app/bench_timing.h"
#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/model/encoder_decoder.h"
#include "core/model/model_loader.h"
#include "core/model/random_checkpoint.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <map>

#include <cstdio>

namespace attn::bench {
namespace {

constexpr int kSourceTokens = 32;
constexpr int kLengths[] = {32, 64};
constexpr int kBeams[] = {1, 4};

// Source ids 3 ... 34 and the end token: words of the random tokenizer.
std::vector<core::Token> sourceTokens()
{
    std::vector<core::Token> tokens;
    for (int i = 0; i < kSourceTokens; ++i) {
        const int id = i + 1 == kSourceTokens ? 1 : 3 + i;
        core::Token token(QStringLiteral("w%1").arg(id), -1, 0, false);
        token.id = id;
        tokens.push_back(std::move(token));
    }
    return tokens;
}

struct Decoded
{
    double milliseconds = 0.0;
    int tokens = 0;
};

Decoded decode(const std::shared_ptr<const core::Model>& model,
               const std::vector<core::Token>& source, int length, int beams, bool cached,
               core::Backend& backend)
{
    core::EncoderDecoderInterventions interventions;
    // A layer edit that changes nothing (temperature 1) takes the decoding off the cache
    // (DecoderCache::applies): every step a whole forward, the numbers the same.
    if (!cached)
        interventions.decoder.layers[0].temperature = 1.0f;
    core::ForwardOptions options;
    options.keepIntermediates = false;
    const auto start = Clock::now();
    const core::GreedyDecoding decoding =
        beams > 1
            ? core::decodeWithBeams(model, source, length, beams, interventions, backend, options)
                  .chosen
            : core::decodeGreedilyWith(model, source, length, interventions, backend, options);
    return {millisecondsSince(start), int(decoding.generated.size())};
}

// The peer as its docstring says: median milliseconds per (beams, new tokens).
std::map<std::pair<int, int>, double> runPeer()
{
    std::map<std::pair<int, int>, double> medians;
    QString why;
    if (!torchAvailable(&why)) {
        std::printf("torch peer skipped: %s\n", qPrintable(why));
        return medians;
    }
    std::fprintf(stderr, "running the torch peer (translate)...\n");
    QStringList args{"-u",
                     "OPENBLAS_CORETYPE",
                     "-u",
                     "OPENBLAS_L2_SIZE",
                     "/usr/bin/python3",
                     QStringLiteral(ATTN_TORCH_TRANSLATE_PEER)};
    for (int length : kLengths)
        args << QString::number(length);
    QProcess peer;
    peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    peer.start(QStringLiteral("env"), args);
    peer.waitForFinished(-1);
    static const QRegularExpression line(QStringLiteral(
        R"(torch\s+translate\s+beams=(\d+)\s+tokens=\s*(\d+)\s+median\s+([0-9.]+) ms)"));
    for (const QString& text : QString::fromUtf8(peer.readAllStandardOutput()).split('\n')) {
        const auto m = line.match(text);
        if (m.hasMatch())
            medians[{m.captured(1).toInt(), m.captured(2).toInt()}] = m.captured(3).toDouble();
    }
    if (peer.exitCode() != 0)
        std::printf("torch peer failed (exit code %d)\n", peer.exitCode());
    return medians;
}

} // namespace

int runTranslateMode(bool quick, bool torch, const QString& jsonPath)
{
    QTemporaryDir folder;
    if (!folder.isValid()) {
        std::fprintf(stderr, "attention-bench: cannot create a temporary folder\n");
        return 1;
    }
    std::fprintf(stderr, "writing a random t5-small checkpoint...\n");
    core::writeRandomCheckpoint(QStringLiteral("t5-small"), folder.path());
    const std::shared_ptr<const core::Model> model = core::loadModel(folder.path());
    const std::vector<core::Token> source = sourceTokens();
    core::CpuBackend backend;
    const Budget budget = quick ? Budget{1, 1, 0.0} : Budget{3, 5, 0.0};
    const std::map<std::pair<int, int>, double> peer =
        torch ? runPeer() : std::map<std::pair<int, int>, double>();
    std::printf("\n## Translation decoding: t5-small's shape (random weights), %d source tokens, "
                "CPU backend\n\n"
                "| beams | new tokens | with the cache ms | without ms | without / with | torch "
                "ms | torch / ours |\n"
                "|---|---|---|---|---|---|---|\n",
                kSourceTokens);
    QJsonArray rows;
    for (int beams : kBeams)
        for (int length : kLengths) {
            std::fprintf(stderr, "%d beam(s), %d tokens...\n", beams, length);
            int decoded = 0;
            const auto timed = [&](bool cached) {
                return median(sample(budget, [&] {
                    const Decoded d = decode(model, source, length, beams, cached, backend);
                    decoded = d.tokens;
                    return d.milliseconds;
                }));
            };
            const double with = timed(true);
            const double without = timed(false);
            const auto theirs = peer.find({beams, length});
            const double torchMs = theirs != peer.end() ? theirs->second : -1.0;
            std::printf("| %d | %d | %.1f | %.1f | %.2f | %s | %s |\n", beams, decoded, with,
                        without, without / with,
                        torchMs > 0 ? qPrintable(QString::number(torchMs, 'f', 1)) : "-",
                        torchMs > 0 ? qPrintable(QString::number(torchMs / with, 'f', 2)) : "-");
            std::fflush(stdout);
            QJsonObject row{{"beams", beams},
                            {"tokens", decoded},
                            {"cached_ms", with},
                            {"uncached_ms", without}};
            if (torchMs > 0)
                row["torch_ms"] = torchMs;
            rows.append(row);
        }
    if (jsonPath.isEmpty())
        return 0;
    return writeJsonFile(jsonPath, QJsonObject{{"translate", rows}});
}

} // namespace attn::bench
