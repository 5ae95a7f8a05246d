#pragma once

#include "app/seq2seq_command.h"

#include <QString>

#include <optional>

class QCommandLineParser;

namespace attn::app {

// --seq2seq-train tagging|classification: the options that go with an output head
// (--seq2seq-pooling, --seq2seq-cell, --seq2seq-bidirectional, --steps) and those that do not
// (a decoder's, --save); false with a usage error.
bool readOutputHeadOptions(const QCommandLineParser& parser, Seq2SeqOptions& options,
                           CommandLineError& error);

// Trains the encoder and its head on the built-in task (the final loss and the held-out accuracy
// on stdout), labels --text (each word's tag, or the sentence's class, on stdout) and writes
// --dump. Returns the exit code: 2 for --export (the figure is the window's), 3 for a word the
// grammar lacks, 4 for a dump that cannot be written.
int runOutputHeadHeadless(const Seq2SeqOptions& options, const std::optional<QString>& text,
                          const QString& dumpPath, const QString& exportPath);

} // namespace attn::app
