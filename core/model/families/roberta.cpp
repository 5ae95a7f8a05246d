// RoBERTa (RobertaForMaskedLM, RobertaModel) in the hub's names: transformers'
// modeling_roberta.py (Liu et al. 2019). BERT's encoder; positions count from
// padding_idx + 1, and the masked-LM head is lm_head.
#include "core/model/families/families.h"

namespace attn::core::families {

void readRobertaConfig(const ConfigReader& c, ModelConfig& config)
{
    readBertConfig(c, config);
    // create_position_ids_from_input_ids: token i of an unpadded text is at padding_idx + 1 + i.
    const int padding = c.sizeOr("pad_token_id", 1);
    config.positionOffset = padding + 1;
    if (config.maxPositions <= config.positionOffset)
        c.fail("max_position_embeddings", std::to_string(config.maxPositions) +
                                              " rows leave no position past pad_token_id " +
                                              std::to_string(padding) + " + 1");
    config.maxPositions -= config.positionOffset;
}

TransformerWeights readRoberta(const TensorReader& reader, const ModelConfig& config)
{
    // RobertaForMaskedLM writes "roberta.embeddings...", RobertaModel "embeddings...".
    const std::string p = reader.contains("embeddings.word_embeddings.weight") ? "" : "roberta.";
    const int d = config.dModel;
    TransformerWeights w = readBertEncoder(reader, config, p);

    if (config.architecture.isEmpty() && !reader.contains("lm_head.dense.weight"))
        w.config.objective = Objective::None;
    if (w.config.objective == Objective::None)
        return w;
    // RobertaLMHead: layer_norm(gelu(dense(x))) (gelu, erf, whatever hidden_act says), then
    // the decoder tied to the word embeddings with lm_head.bias.
    w.headTransform.dense = reader.linear("lm_head.dense.weight", "lm_head.dense.bias", d, d);
    w.headTransform.activation = Activation::GeluErf;
    w.headTransform.norm = reader.layerNorm("lm_head.layer_norm", d, config.normEps);
    w.lmBias = reader.vector("lm_head.bias", config.vocab);
    readLmHead(reader, w, "lm_head.decoder.weight");
    return w;
}

} // namespace attn::core::families
