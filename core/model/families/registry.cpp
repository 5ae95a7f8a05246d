#include "core/model/families/registry.h"

#include <array>

namespace attn::core::families {

// Each family's readers, defined in its own file in this folder.
void readGpt2Config(const ConfigReader&, ModelConfig&);
TransformerWeights readGpt2(const TensorReader&, const ModelConfig&);
TransformerWeights readBert(const TensorReader&, const ModelConfig&);
void readDistilBertConfig(const ConfigReader&, ModelConfig&);
TransformerWeights readDistilBert(const TensorReader&, const ModelConfig&);
void readLlamaConfig(const ConfigReader&, ModelConfig&);
void readMistralConfig(const ConfigReader&, ModelConfig&);
void readQwen2Config(const ConfigReader&, ModelConfig&);
void readGptNeoXConfig(const ConfigReader&, ModelConfig&);
TransformerWeights readGptNeoX(const TensorReader&, const ModelConfig&);
void readGemmaConfig(const ConfigReader&, ModelConfig&);
TransformerWeights readGemma(const TensorReader&, const ModelConfig&);
void readOptConfig(const ConfigReader&, ModelConfig&);
TransformerWeights readOpt(const TensorReader&, const ModelConfig&);
void readPhiConfig(const ConfigReader&, ModelConfig&);
TransformerWeights readPhi(const TensorReader&, const ModelConfig&);
void readRobertaConfig(const ConfigReader&, ModelConfig&);
TransformerWeights readRoberta(const TensorReader&, const ModelConfig&);
void readBartConfig(const ConfigReader&, ModelConfig&);
TransformerWeights readBart(const TensorReader&, const ModelConfig&);
void readMarianConfig(const ConfigReader&, ModelConfig&);
TransformerWeights readMarian(const TensorReader&, const ModelConfig&);
void readT5Config(const ConfigReader&, ModelConfig&);
TransformerWeights readT5(const TensorReader&, const ModelConfig&);

namespace {

// The keys of most configs since BERT (transformers' PretrainedConfig attribute names).
constexpr ConfigKeys kHiddenSizeKeys{"hidden_size", "num_attention_heads", "num_hidden_layers",
                                     "intermediate_size", "max_position_embeddings"};

// In the order messages list them.
const std::array kFamilies{
    FamilyEntry{"gpt2",
                {"n_embd", "n_head", "n_layer", "n_inner", "n_positions"},
                false,
                readGpt2Config,
                readGpt2},
    FamilyEntry{"bert", kHiddenSizeKeys, true, readBertConfig, readBert},
    FamilyEntry{"distilbert",
                {"dim", "n_heads", "n_layers", "hidden_dim", "max_position_embeddings"},
                true,
                readDistilBertConfig,
                readDistilBert},
    FamilyEntry{"llama", kHiddenSizeKeys, false, readLlamaConfig, readLlama},
    FamilyEntry{"mistral", kHiddenSizeKeys, false, readMistralConfig, readLlama},
    FamilyEntry{"qwen2", kHiddenSizeKeys, false, readQwen2Config, readLlama},
    FamilyEntry{"gpt_neox", kHiddenSizeKeys, false, readGptNeoXConfig, readGptNeoX},
    FamilyEntry{"gemma", kHiddenSizeKeys, false, readGemmaConfig, readGemma},
    FamilyEntry{"opt",
                {"hidden_size", "num_attention_heads", "num_hidden_layers", "ffn_dim",
                 "max_position_embeddings"},
                false,
                readOptConfig,
                readOpt},
    FamilyEntry{"phi", kHiddenSizeKeys, false, readPhiConfig, readPhi},
    FamilyEntry{"roberta", kHiddenSizeKeys, true, readRobertaConfig, readRoberta},
    // XLM-R: RoBERTa's architecture and tensor names (modeling_xlm_roberta.py copies them).
    FamilyEntry{"xlm-roberta", kHiddenSizeKeys, true, readRobertaConfig, readRoberta},
    // Encoder-decoder: the sizes named here are the decoder's (encoder_* beside them).
    FamilyEntry{"bart",
                {"d_model", "decoder_attention_heads", "decoder_layers", "decoder_ffn_dim",
                 "max_position_embeddings"},
                false,
                readBartConfig,
                readBart},
    FamilyEntry{"marian",
                {"d_model", "decoder_attention_heads", "decoder_layers", "decoder_ffn_dim",
                 "max_position_embeddings"},
                false,
                readMarianConfig,
                readMarian},
    FamilyEntry{"t5",
                {"d_model", "num_heads", "num_decoder_layers", "d_ff", "n_positions"},
                false,
                readT5Config,
                readT5},
};

} // namespace

void readSizes(const ConfigReader& c, ModelConfig& config, const char* kvHeadsKey)
{
    const ConfigKeys& keys = config.family->keys;
    config.dModel = c.size(keys.dModel, kWidth);
    config.heads = c.size(keys.heads, kHeadCount);
    config.kvHeads = kvHeadsKey ? c.sizeOr(kvHeadsKey, config.heads, kHeadCount) : config.heads;
    config.layers = c.size(keys.layers);
    config.vocab = c.size("vocab_size");
    config.maxPositions = c.size(keys.positions);
    config.dHead = config.dModel / config.heads;
    config.dFeedForward = c.size(keys.feedForward);
}

const FamilyEntry* findFamily(std::string_view modelType)
{
    for (const FamilyEntry& family : kFamilies)
        if (modelType == family.modelType)
            return &family;
    return nullptr;
}

const std::string& supportedModelTypes()
{
    static const std::string names = [] {
        std::string list;
        for (const FamilyEntry& family : kFamilies)
            list += (list.empty() ? "" : ", ") + std::string(family.modelType);
        return list;
    }();
    return names;
}

} // namespace attn::core::families
