#pragma once

#include "core/attention_settings.h"
#include "core/matrix.h"

#include <map>
#include <optional>
#include <set>
#include <utility>

namespace attn::core {

// One head's weights replaced by the explorer's own (d_model x d_head each); a matrix left
// empty keeps the checkpoint's.
struct HeadEdit
{
    std::optional<Matrix> Wq;
    std::optional<Matrix> Wk;
    std::optional<Matrix> Wv;

    bool operator==(const HeadEdit&) const = default;
};

// One layer's attention settings replaced by the explorer's own: the score function,
// normalisation, temperature, mask and fill of every head of that layer.
struct LayerEdit
{
    std::optional<ScoreKind> score;
    std::optional<Normalization> normalization;
    std::optional<float> temperature;
    std::optional<MaskSpec> mask;
    std::optional<MaskFill> fill;
    std::map<int, HeadEdit> heads; // by head index, from 0

    bool empty() const;
    bool operator==(const LayerEdit&) const = default;
};

// What a user changed in a model, as a value: heads switched off (their output zeroed before
// W_O; their attention is still computed and shown) and layer or head edits. The forward
// recomputes from the lowest layer where two interventions differ.
struct Interventions
{
    std::set<std::pair<int, int>> headsOff; // (layer, head), both from 0
    std::map<int, LayerEdit> layers;        // by layer, from 0

    bool empty() const { return headsOff.empty() && layers.empty(); }
    // The lowest layer whose computation differs between the two, or `layerCount` when none.
    int firstDifference(const Interventions& other, int layerCount) const;
    bool operator==(const Interventions&) const = default;
};

} // namespace attn::core
