#pragma once

#include "app/command_line.h"
#include "ui/figures/figure_export.h"

#include <QByteArray>
#include <QString>
#include <cstdio>
#include <utility>
#include <vector>

// The files a command line writes, shared by the parser (command_line.cpp) and the headless
// renderer (headless_render.cpp), so that no two outputs name one file.
namespace attn::app {

// One line on a standard stream, flushed, so that stdout and stderr keep their order.
void printLine(FILE* stream, const QString& text);

// In a command's catch (...): the exception being handled on stderr ("error: not enough
// memory", or "error: " and a core::Error's message) and kInvalidInput (exit 3); any other
// exception goes on up, as it would without the catch.
int reportInputError();

// Every output at once, all or none (core::writeFilesAtomically): kCannotWrite (exit 4), with
// the reason on stderr, when one cannot be written, the old files left as they were; else kOk.
int writeOutputs(const std::vector<std::pair<QString, QByteArray>>& outputs);

// Two outputs (option, path) that name one file: the second would replace the first without
// a word. The message names both options; empty when every output has a file of its own.
QString sharedOutput(const std::vector<std::pair<QString, QString>>& outputs);

// The single-file outputs the command line names, with their options.
std::vector<std::pair<QString, QString>> fileOutputs(const CommandLine& commandLine);

struct ExportAllFile
{
    ui::FigureView view;
    int head;
    ui::FigureFormat format;
    QString path;
};

// What --export-all writes into `dir`, each figure a lecture may need named after its view:
// all heads, each head, its difference and (unless the input is pooled) its pipeline, and
// the mean of the heads; a PDF and a PNG of each.
std::vector<ExportAllFile> exportAllFiles(const QString& dir, int heads, bool pooled);

} // namespace attn::app
