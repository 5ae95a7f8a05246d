#pragma once

#include <QString>

class QCommandLineParser;

namespace attn::app {

struct CommandLineError;

// Adds --download ID[@REVISION] to the parser.
void addDownloadOptions(QCommandLineParser& parser);
// Reads it back: the model reference, "" when not given; false with a usage error for an
// id the Hub cannot have, or --download beside another option.
bool readDownloadOptions(const QCommandLineParser& parser, QString& reference,
                         CommandLineError& error);

// Downloads the model into the Hugging Face cache (core/hub), progress on stderr, the snapshot
// folder on stdout. Returns the exit code (README): 3 for a model that cannot be downloaded
// (not found, gated, no network, a damaged file, offline and not cached), 4 for a cache that
// cannot be written (a full disk).
int runDownload(const QString& reference);

} // namespace attn::app
