#include "bench_seq2seq.h"

#include "app/bench_timing.h"
#include "core/random.h"
#include "core/seq2seq/seq2seq_trainer.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStringList>

#include <cstdio>

namespace attn::bench {
namespace {

// The tutorial's sizes, as the peer has them: words 2.. of each vocabulary (0 and 1 are SOS and
// EOS), sentences of 9 words and EOS, 10 tokens.
constexpr int kSourceWords = 4345, kTargetWords = 2803, kTokens = 10, kHidden = 128, kBatch = 32;

core::Seq2SeqTaskData tutorialSizedData()
{
    core::Seq2SeqTaskData data;
    data.tokens = core::Seq2SeqTokens::Words;
    // Word n is "s" (or "t") and n's digits in base 26 as letters: the tutorial's normalisation
    // keeps letters only. 1,024 random pairs; the speed does not depend on which.
    const auto word = [](char prefix, int n) {
        std::string w(1, prefix);
        do {
            w += char('a' + n % 26);
            n /= 26;
        } while (n);
        return w;
    };
    for (int i = 0; i < kSourceWords - 2; ++i)
        data.sourceAlphabet.push_back(word('s', i));
    for (int i = 0; i < kTargetWords - 2; ++i)
        data.targetAlphabet.push_back(word('t', i));
    core::Random random(1);
    for (int p = 0; p < 1024; ++p) {
        QStringList source, target;
        for (int i = 0; i + 1 < kTokens; ++i) {
            source << QString::fromStdString(
                data.sourceAlphabet[random.nextU64() % data.sourceAlphabet.size()]);
            target << QString::fromStdString(
                data.targetAlphabet[random.nextU64() % data.targetAlphabet.size()]);
        }
        data.training.push_back({source.join(QLatin1Char(' ')), target.join(QLatin1Char(' '))});
    }
    return data;
}

struct PeerMedians
{
    double trainMs = -1.0;
    double decodeMs = -1.0;
};

PeerMedians runPeer()
{
    std::fprintf(stderr, "running the torch peer (seq2seq)...\n");
    QProcess peer;
    peer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    // As its docstring says: env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 ...
    peer.start(QStringLiteral("env"), {"-u", "OPENBLAS_CORETYPE", "-u", "OPENBLAS_L2_SIZE",
                                       "/usr/bin/python3", QStringLiteral(ATTN_TORCH_SEQ2SEQ_PEER),
                                       QString::number(kHidden), QString::number(kBatch)});
    peer.waitForFinished(-1);
    static const QRegularExpression line(
        QStringLiteral(R"(torch\s+seq2seq\s+(train|decode)\s.*median\s+([0-9.]+) ms)"));
    PeerMedians medians;
    for (const QString& text : QString::fromUtf8(peer.readAllStandardOutput()).split('\n')) {
        const auto m = line.match(text);
        if (m.hasMatch())
            (m.captured(1) == QStringLiteral("train") ? medians.trainMs : medians.decodeMs) =
                m.captured(2).toDouble();
    }
    if (peer.exitCode() != 0)
        std::printf("torch peer failed (exit code %d)\n", peer.exitCode());
    return medians;
}

} // namespace

int runSeq2SeqMode(bool torch, const QString& jsonPath)
{
    core::Seq2SeqTrainingSettings settings;
    settings.hiddenSize = kHidden;
    settings.batchSize = kBatch;
    settings.learningRate = 0.001; // the peer's
    core::Seq2SeqTrainer trainer(tutorialSizedData(), settings);
    const std::vector<double> train = sample({5, 200, 3000.0}, [&] {
        const auto start = Clock::now();
        trainer.step();
        return millisecondsSince(start);
    });
    core::Seq2SeqModel model = trainer.model();
    // The peer decodes 10 steps whatever it chooses: so does this, EOS made unlikeliest.
    model.maxLength = kTokens;
    model.outBias(core::Seq2SeqVocabulary::kEos) = -1e4f;
    const QString sentence = trainer.data().training.front().source;
    std::size_t decodedSteps = 0;
    const std::vector<double> decode = sample({5, 500, 3000.0}, [&] {
        const auto start = Clock::now();
        decodedSteps = core::decodeGreedy(model, sentence).steps.size();
        return millisecondsSince(start);
    });
    const double trainMs = median(train), decodeMs = median(decode);
    const PeerMedians peer = torch ? runPeer() : PeerMedians();
    const auto ratio = [](double theirs, double ours) {
        return theirs > 0.0 && ours > 0.0 ? theirs / ours : 0.0;
    };
    std::printf("\n## Sequence to sequence: the tutorial's encoder-decoder (H = %d, batch %d, "
                "%d tokens, vocabularies %d and %d)\n\n"
                "| phase | ours ms (median) | torch ms (median) | torch / ours |\n"
                "|---|---|---|---|\n"
                "| train step | %.2f | %.2f | %.2f |\n"
                "| greedy decode, %d steps | %.3f | %.3f | %.2f |\n",
                kHidden, kBatch, kTokens, kSourceWords, kTargetWords, trainMs, peer.trainMs,
                ratio(peer.trainMs, trainMs), kTokens, decodeMs, peer.decodeMs,
                ratio(peer.decodeMs, decodeMs));
    std::fflush(stdout);
    if (jsonPath.isEmpty())
        return 0;
    QJsonObject seq2seq{{"train_ms_per_step", trainMs},
                        {"decode_ms", decodeMs},
                        {"train_steps", int(train.size())},
                        {"decode_runs", int(decode.size())},
                        {"decode_steps", int(decodedSteps)}};
    if (peer.trainMs > 0.0)
        seq2seq["torch_train_ms_per_step"] = peer.trainMs;
    if (peer.decodeMs > 0.0)
        seq2seq["torch_decode_ms"] = peer.decodeMs;
    return writeJsonFile(jsonPath, QJsonObject{{"seq2seq", seq2seq}});
}

} // namespace attn::bench
