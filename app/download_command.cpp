#include "app/download_command.h"

#include "app/command_line.h"
#include "core/error.h"
#include "core/hub/hub_downloader.h"
#include "core/hub/transfer_meter.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>

#include <cstdio>
#include <unistd.h>

namespace attn::app {

using core::hub::DownloadFailure;
using core::hub::formatSize;

namespace {

// A progress line at most this often: a terminal is not a log.
constexpr qint64 kProgressMsecs = 250;

QString timeLeft(qint64 seconds)
{
    if (seconds < 0)
        return QStringLiteral("--:--");
    return QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
}

} // namespace

void addDownloadOptions(QCommandLineParser& parser)
{
    parser.addOption(QCommandLineOption(
        QStringLiteral("download"),
        QStringLiteral("Download a model's config, tokenizer and safetensors files from the "
                       "Hugging Face Hub into its cache, and print the snapshot folder."),
        QStringLiteral("ID[@REVISION]")));
}

bool readDownloadOptions(const QCommandLineParser& parser, QString& reference,
                         CommandLineError& error)
{
    if (!parser.isSet(QStringLiteral("download")))
        return true;
    reference = parser.value(QStringLiteral("download"));
    try {
        core::hub::parseModelRef(reference);
    } catch (const core::Error& e) {
        error = {kUsage, QStringLiteral("--download: ") + QString::fromStdString(e.what())};
        return false;
    }
    const QStringList others = parser.optionNames();
    if (others.size() > 1 || !parser.positionalArguments().isEmpty()) {
        error = {kUsage, QStringLiteral("--download takes no other option: download first, then "
                                        "open the model with --model ID")};
        return false;
    }
    return true;
}

int runDownload(const QString& reference)
{
    const core::hub::ModelRef ref = core::hub::parseModelRef(reference);
    core::hub::HubDownloader downloader(core::hub::HubSettings::fromEnvironment());
    const bool terminal = ::isatty(STDERR_FILENO) == 1;
    QElapsedTimer clock;
    clock.start();
    core::hub::TransferMeter meter;
    qint64 lastLine = -kProgressMsecs;
    int code = kOk;
    QEventLoop loop;

    QObject::connect(&downloader, &core::hub::HubDownloader::revisionResolved,
                     [&](const QString& commit, qint64 total) {
                         std::fprintf(stderr, "%s: revision %s, %s\n", qPrintable(ref.id),
                                      qPrintable(commit), qPrintable(formatSize(total)));
                     });
    QObject::connect(
        &downloader, &core::hub::HubDownloader::fileStarted, [&](const QString& path, qint64 size) {
            if (!terminal)
                std::fprintf(stderr, "  %s (%s)\n", qPrintable(path), qPrintable(formatSize(size)));
        });
    bool started = false;
    QObject::connect(
        &downloader, &core::hub::HubDownloader::progress, [&](qint64 done, qint64 total) {
            if (!started) {
                meter.start(done, clock.elapsed());
                started = true;
            }
            meter.update(done, clock.elapsed());
            if (!terminal || clock.elapsed() - lastLine < kProgressMsecs)
                return;
            lastLine = clock.elapsed();
            const double rate = meter.bytesPerSecond();
            std::fprintf(stderr, "\r  %s of %s (%lld%%), %s/s, %s left   ",
                         qPrintable(formatSize(done)), qPrintable(formatSize(total)),
                         total > 0 ? static_cast<long long>(100 * done / total) : 0LL,
                         qPrintable(rate < 0 ? QStringLiteral("-- MB") : formatSize(qint64(rate))),
                         qPrintable(timeLeft(meter.secondsLeft(done, total))));
        });
    QObject::connect(&downloader, &core::hub::HubDownloader::finished,
                     [&](const QString& snapshot) {
                         if (terminal)
                             std::fputs("\n", stderr);
                         std::printf("%s\n", qPrintable(snapshot));
                         loop.quit();
                     });
    QObject::connect(&downloader, &core::hub::HubDownloader::failed,
                     [&](const QString& message, DownloadFailure failure) {
                         if (terminal)
                             std::fputs("\n", stderr);
                         std::fprintf(stderr, "attention-explorer: %s\n", qPrintable(message));
                         code = failure == DownloadFailure::DiskFull ? kCannotWrite : kInvalidInput;
                         loop.quit();
                     });
    downloader.start(ref);
    loop.exec();
    return code;
}

} // namespace attn::app
