#pragma once

// Private to the loader: the one table of families. A family is a row here (its model_type,
// the names its config gives the sizes by, its config reader and its tensor reader) and one
// file in this folder that defines the two readers; docs/ADDING_A_MODEL.md is the checklist.

#include "core/model/families/config_reader.h"
#include "core/model/families/families.h"

#include <string>
#include <string_view>

namespace attn::core::families {

// The config keys that hold the sizes, for messages that point into config.json.
struct ConfigKeys
{
    const char* dModel;
    const char* heads;
    const char* layers;
    const char* feedForward;
    const char* positions;
};

// The sizes under the names in `config.family`'s row, in this order: width, heads, the
// grouped-query heads under `kvHeadsKey` where the family has them (else as many as heads),
// layers, vocab_size, positions, the feed-forward width; d_head = width / heads.
void readSizes(const ConfigReader& c, ModelConfig& config, const char* kvHeadsKey = nullptr);

// Sets the sizes and the family's flags in `config` (model_type and architecture are set).
using ConfigFunction = void (*)(const ConfigReader& reader, ModelConfig& config);
// The checkpoint's tensors in the hub's names, mapped into TransformerWeights.
using WeightsFunction = TransformerWeights (*)(const TensorReader& reader,
                                               const ModelConfig& config);

struct FamilyEntry
{
    const char* modelType; // config.json's model_type
    ConfigKeys keys;
    // What a config without architectures predicts: the masked tokens (encoders) or the next.
    bool maskedLmByDefault;
    ConfigFunction readConfig;
    WeightsFunction readWeights;
};

// The row for a model_type; nullptr when no family reads it.
const FamilyEntry* findFamily(std::string_view modelType);
// "gpt2, bert, ...": every model_type, in the table's order, for messages.
const std::string& supportedModelTypes();

} // namespace attn::core::families
