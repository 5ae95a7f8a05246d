#pragma once

#include "app/generate_command.h"
#include "core/model/intervention.h"
#include "ui/model/model_figures.h"

#include <QString>
#include <optional>

class QCommandLineParser;

namespace attn::app {

struct CommandLine;
struct CommandLineError;

// What the command line asks of a real model (--model and the options that go with it).
struct ModelOptions
{
    QString model;                // --model DIR|ID; empty: the single-layer explorer
    std::optional<int> layer;     // --layer N, from 1: the layer figures and matrices show
    std::optional<int> editLayer; // --edit-layer N, from 1: --mode etc. act on that layer
    // --heads-off L.H,... ((layer, head) from 0 inside), or a scene's interventions
    core::Interventions interventions;
    int topK = 5;           // --top-k K
    bool topKGiven = false; // --top-k given: the predictions are wanted on stdout
    bool info = false;      // --model-info
    // --view grid|rollout|predictions|importance: a whole-model figure for --export, drawn by
    // the window's painters (ui/model/model_figures.h)
    std::optional<ui::ModelFigure> figure;
    // A scene whose "checkpoint" named the model: its file, so that a layer, head or heads off
    // the model lacks is blamed on the scene's key rather than on an option never given.
    QString sceneFile;          // empty: everything came from the command line
    int sceneHead = 0;          // its checkpoint.head, from 0
    bool viewFromScene = false; // the figure's view and head came from its view.view
    GenerateOptions generate;   // --generate N and its sampling options

    bool active() const { return !model.isEmpty(); }
    // Only printed output asked for (--model-info, --top-k): headless even where there is a
    // display. With neither (nor --export, --dump, ...), --model opens the model window.
    bool printsOnly() const { return active() && (info || topKGiven || generate.active()); }
};

// Adds --model, --layer, --heads-off, --edit-layer, --top-k, --model-info and the --generate
// options to the parser.
void addModelOptions(QCommandLineParser& parser);
// Reads them back after parsing; false (with a usage error) for a malformed value.
bool readModelOptions(const QCommandLineParser& parser, ModelOptions& options,
                      CommandLineError& error);

// The interventions the command line describes for `layers` layers: --heads-off, and the
// single-layer settings (--mode, --normalize, --temperature, --fill, --causal, --window)
// applied to --edit-layer. Throws core::Error for a layer or head the model does not have.
core::Interventions modelInterventions(const CommandLine& commandLine, int layers, int heads);

// A headless model run: --model-info, the predictions on stdout, --dump, --export and
// --export-matrix of one layer. Returns the exit code (README).
int runModelHeadless(const CommandLine& commandLine);

} // namespace attn::app
