#include "app/bench_tokenizers.h"

#include "app/bench_timing.h"

#include "core/error.h"
#include "core/tokenizers/hf_tokenizer.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>

#include <cstdio>

namespace attn::bench {

namespace {

constexpr qsizetype kTargetBytes = 1 << 20;

// The text to encode: a file, or the seeds' notes (../shared/seeds from the working folder or
// ATTN_SEEDS_DIR), one paragraph per entry so no line is longer than the notes' own.
QString benchText(const QString& textPath)
{
    QStringList files;
    if (!textPath.isEmpty()) {
        files << textPath;
    } else {
        const QString dir =
            qEnvironmentVariable("ATTN_SEEDS_DIR", QStringLiteral("../shared/seeds"));
        for (const QString& name : QDir(dir).entryList({QStringLiteral("*.txt")}, QDir::Files))
            files << QDir(dir).filePath(name);
    }
    QString text;
    for (const QString& path : files) {
        QFile file(path);
        if (file.open(QIODevice::ReadOnly))
            text += QString::fromUtf8(file.readAll());
    }
    if (text.isEmpty())
        return text;
    const QString once = text;
    while (text.toUtf8().size() < kTargetBytes)
        text += once;
    return text;
}

} // namespace

int runTokenizerMode(const QString& folder, const QString& textPath, const QString& jsonPath)
{
    std::shared_ptr<const core::HfTokenizer> tokenizer;
    try {
        tokenizer = core::HfTokenizer::load(folder);
    } catch (const core::Error& e) {
        std::fprintf(stderr, "attention-bench: %s\n", e.what());
        return 3;
    }
    const QString text = benchText(textPath);
    if (text.isEmpty()) {
        std::fprintf(stderr, "attention-bench: no text to encode (give --text FILE, or run from "
                             "the project folder beside ../shared/seeds)\n");
        return 3;
    }
    const QStringList paragraphs = text.split(QStringLiteral("\n\n"));
    const double bytes = double(text.toUtf8().size());
    std::size_t tokens = 0;
    const std::vector<double> samples = sample({3, 20, 3000.0}, [&] {
        const auto start = Clock::now();
        tokens = 0;
        for (const QString& paragraph : paragraphs)
            tokens += tokenizer->encode(paragraph, false).size();
        return millisecondsSince(start);
    });
    const double ms = median(samples);
    const double mbPerSecond = bytes / (1 << 20) / (ms / 1000.0);
    std::printf("| tokenizer | MB | tokens | encode ms (median of %zu) | MB/s | tokens/s |\n"
                "|---|---|---|---|---|---|\n"
                "| %s | %.2f | %zu | %.1f | %.2f | %.0f |\n",
                samples.size(), qPrintable(QDir(folder).dirName()), bytes / (1 << 20), tokens, ms,
                mbPerSecond, double(tokens) / (ms / 1000.0));
    if (!jsonPath.isEmpty()) {
        const QJsonObject result{{QStringLiteral("folder"), folder},
                                 {QStringLiteral("bytes"), bytes},
                                 {QStringLiteral("tokens"), double(tokens)},
                                 {QStringLiteral("encode_ms"), ms},
                                 {QStringLiteral("mb_per_s"), mbPerSecond}};
        return writeJsonFile(jsonPath, QJsonObject{{QStringLiteral("tokenizer"), result}});
    }
    return 0;
}

} // namespace attn::bench
