#pragma once

#include "attention_settings.h"
#include "embedding.h"
#include "model/intervention.h"
#include "model_weights.h"
#include "problem.h"
#include "scene_layers.h"
#include "tokenizer.h"

#include <QString>
#include <memory>
#include <optional>
#include <vector>

namespace attn::core {

// How a figure of the scene is shown; the core stores it and never interprets it.
struct ViewSettings
{
    QString view = QStringLiteral(
        "head:1"); // head:N (from 1) | head:mean | heads | pipeline:N | lines | difference:N
    QString colormap = QStringLiteral("viridis");
    bool showValues = true;
    int valuePrecision = 2;
    QString compareScore; // difference view: the other score ("" = none)
    QString theme = QStringLiteral("light");
    // Weights drawn with queries in columns, as seed 001 writes A = K^T Q ("the sum of each
    // column must be 1"); core::orientWeights gives the matrix to draw.
    bool transposed = false;
    QString colorScale = QStringLiteral("fixed"); // weights' colours: "fixed" 0 to 1, or "data"
    int layer = 0;                                // the stacked layer whose heads are shown, from 0

    bool operator==(const ViewSettings&) const = default;
};

// A real model a scene shows instead of its own single layer: the checkpoint, the layer and
// head on screen, and what the user changed in it.
struct CheckpointReference
{
    QString path;     // as written in the file: a model folder (relative to the scene) or an id
    QString resolved; // what to open: a relative folder made absolute; an id as it is
    int layer = 0;    // the layer shown, from 0
    int head = 0;     // the head shown, from 0
    Interventions interventions; // a decoder's (an encoder-decoder model's decoder self-attention)
    // An encoder-decoder model's encoder self-attention and cross-attention, and the kind of head
    // shown: "encoder", "decoder" or "cross"; "" where the file names none.
    Interventions encoderInterventions;
    Interventions crossInterventions;
    QString kind;

    bool operator==(const CheckpointReference&) const = default;
};

// Everything that reproduces a figure exactly. Saved as a versioned JSON file
// (docs/SCENE_FORMAT.md).
struct Scene : AttentionSettings // score, normalization, temperature, fill, mask
{
    // Version 2 adds "checkpoint" (a real model); a scene without one is written as version
    // 1, which older builds read.
    static constexpr int kFormatVersion = 2;

    QString title;
    QString description;
    QString text;                  // the query sentence (target, in cross-attention)
    std::optional<QString> source; // set: cross-attention, keys and values from this
    TokenizerSettings tokenizer;
    QString paddingToken;              // tokens with this text are padding ("" = none)
    std::vector<int> paddingPositions; // key positions marked as padding by hand

    EmbeddingSettings embedding;
    PositionalSettings positional;
    std::uint64_t seed = 1; // what the weights were drawn with; shown to the user
    ModelWeights weights;

    // Empty: one attention layer, as every scene before them. Otherwise 1 to 4 blocks of
    // attention + feed-forward (scene_layers.h); the first block's attention is `weights`.
    std::vector<StackedLayer> layers;

    ViewSettings view;
    std::optional<CheckpointReference> checkpoint; // set: the text runs through this model
};

// Tokenize, embed, add positions, flag padding: the problem a backend computes.
// Throws Error with a message naming what is wrong.
std::shared_ptr<const Problem> resolveProblem(const Scene& scene);

// The distinct tokens of the scene's sentences in order of first appearance (the source's
// first in cross-attention, as the one-hot vocabulary orders them). Throws Error as
// tokenize does.
std::vector<QString> sceneVocabulary(const Scene& scene);

// One-hot scenes keep their vocabulary (EmbeddingSettings::vocabulary): this fills it up to
// d_model words with the sentences' words it lacks, in order of first appearance, and drops
// words past d_model. Other embedding kinds are left alone.
void fitOneHotVocabulary(Scene& scene);

// Draws every weight again for a new shape from `seed` (Xavier) and adapts what depends on
// the width, as the window and the command line both do: heads that remain keep their
// on/off switch, embedding and positional tables of another width give way to hashed
// vectors and sinusoidal positions, and a one-hot vocabulary is fitted to the new width.
void reshapeModel(Scene& scene, int dModel, int heads, int dK, int dV, std::uint64_t seed);

// The vectors in use now, kept in the scene as a table (embedding kind Table), one row per
// word of its sentences; words already in the table keep their rows. The numbers computed do
// not change until a row is edited.
void keepEmbeddingsAsTable(Scene& scene);
// The same for positions: a table of the rows in use now (positional kind Table).
void keepPositionsAsTable(Scene& scene);

// A scene with the given shape and fresh weights drawn from `seed` (the built-in default
// when nothing else is given).
Scene makeScene(const QString& text, int dModel, int heads, std::uint64_t seed);

} // namespace attn::core
