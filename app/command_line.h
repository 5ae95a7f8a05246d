#pragma once

#include "app/download_command.h"
#include "app/model_command.h"
#include "app/seq2seq_command.h"
#include "app/train_command.h"
#include "core/scene.h"
#include "gpu/backend_factory.h"
#include "ui/concepts/concept_view.h"
#include "ui/figures/figure_spec.h"

#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

class QCommandLineParser;

namespace attn::app {

// Exit codes (README): what a script can tell apart.
enum ExitCode { kOk = 0, kUsage = 2, kInvalidInput = 3, kCannotWrite = 4 };

// A usage error (exit 2) or invalid input (exit 3), with the message for stderr; or, for
// --help and --version (code kOk), the text to print on stdout.
struct CommandLineError
{
    ExitCode code = kUsage;
    QString message;
};

// --NAME, when given, as a whole number from `low` to `high` into `into` (left as it is when
// the option is not given); false, with the usage error that names the option and what was
// typed, when it is something else.
bool readWholeNumber(const QCommandLineParser& parser, const QString& name, int low, int high,
                     int& into, CommandLineError& error);
bool readWholeNumber(const QCommandLineParser& parser, const QString& name, int low, int high,
                     std::optional<int>& into, CommandLineError& error);

// Everything the command line asks for, validated.
struct CommandLine
{
    QString scenePath;             // empty: the built-in example
    std::optional<QString> text;   // --text
    std::optional<QString> source; // --source (cross-attention)
    std::optional<QString> mode;   // --mode
    std::optional<core::Normalization> normalization;
    std::optional<float> temperature;
    std::optional<int> heads;
    std::optional<int> dModel;
    std::optional<int> dK;                          // --d-k: apart from d_model / h
    std::optional<core::EmbeddingKind> embedding;   // --embedding
    QString wordVectors;                            // --word-vectors FILE
    std::optional<core::PositionalKind> positional; // --positional
    std::optional<core::MaskFill> fill;             // --fill
    std::optional<std::uint64_t> seed;
    bool causal = false;
    std::optional<int> window;
    std::optional<QString> paddingToken;
    gpu::BackendChoice backend = gpu::BackendChoice::Auto;
    QString vkDevice;
    bool listDevices = false;

    QString exportPath;   // --export: headless figure
    QString dumpPath;     // --dump: every intermediate as JSON
    QString exportAllDir; // --export-all: every figure of the scene, PDF and PNG
    QString matrixPath;   // --export-matrix: one stage of one head as CSV, NPY, JSON or LaTeX
    QString stage = QStringLiteral("weights");
    bool pgfplots = false; // --latex pgfplots instead of a tabular
    ui::FigureSpec figure;
    QSize figureSize{1200, 900};
    bool viewGiven = false;        // --view given: otherwise the scene's own view
    bool weightScaleGiven = false; // --color-scale given: otherwise the scene's own
    QString presentationPath;      // --export-presentation: every step, one PDF page each
    QString theme;                 // --theme light|dark (the presentation's); empty: the scene's
    bool transpose = false;        // --transpose: weights with queries in columns (seed 001)
    QString compare; // --compare: what the difference view subtracts (ui::comparisonChoices)
    std::optional<ui::ConceptView>
        conceptView;          // --view train|gradient|kernel|positions|embedding-space
    std::optional<int> query; // --query N, from 0: the concept figures' query in focus

    // True when no option changes the scene file (or the example) as loaded.
    bool unchangedScene() const
    {
        return !text && !source && !mode && !normalization && !temperature && !heads && !dModel &&
               !dK && !seed && !embedding && wordVectors.isEmpty() && !positional && !fill &&
               !causal && !window && !paddingToken;
    }

    ModelOptions modelOptions;     // --model and what goes with it
    TrainOptions trainOptions;     // --train and what goes with it
    Seq2SeqOptions seq2seqOptions; // --seq2seq, --seq2seq-train and what goes with them
    QString download;              // --download ID[@REVISION], alone

    bool headless() const
    {
        return !exportPath.isEmpty() || !dumpPath.isEmpty() || !exportAllDir.isEmpty() ||
               !matrixPath.isEmpty() || !presentationPath.isEmpty() || listDevices ||
               modelOptions.printsOnly() || trainOptions.active() ||
               !seq2seqOptions.trainTask.isEmpty() || !download.isEmpty();
    }
};

// Parses argv (without the program name handling of QCoreApplication, so it can run before
// the QApplication exists and choose the platform). Prints nothing: on --help/--version it
// sets `exitNow` and puts the text in error.message (code kOk), for the caller to print once
// (after the QApplication exists, so that the usage line names the program).
std::optional<CommandLine> parseCommandLine(const QStringList& arguments, CommandLineError& error,
                                            bool& exitNow);

// The scene the command line describes: the file or the built-in example, with the
// overrides applied. Throws core::Error (exit 3) or CommandLineError.
core::Scene sceneFor(const CommandLine& commandLine);

// The built-in example (":/examples/01-this-is-a-cat.json").
core::Scene builtInExample();

// The backend --backend and --vk-device choose, with its notice (a fallback) on stderr; null
// after the error on stderr where --vk-device names no device (exit kUsage).
std::unique_ptr<core::Backend> commandLineBackend(const CommandLine& commandLine);

// Headless work: --list-devices, --export, --export-all, --export-matrix, --dump. Returns the
// exit code.
int runHeadless(const CommandLine& commandLine);

// The score and normalisation a --mode names: "hard" is the scaled dot product followed by
// the hard (argmax) normalisation of seed 000. False for an unknown name.
bool applyModeName(const QString& mode, core::ScoreKind& score, core::Normalization& normalization);

} // namespace attn::app
