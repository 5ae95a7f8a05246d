// OPT (OPTForCausalLM, OPTModel) in the hub's names: transformers' modeling_opt.py (Zhang et
// al. 2022). Learned positions read from row 2 on, ReLU, pre-norm blocks.
#include "core/model/families/families.h"
#include "core/model/families/registry.h"

namespace attn::core::families {

void readOptConfig(const ConfigReader& c, ModelConfig& config)
{
    readSizes(c, config);
    config.positionOffset = 2; // OPTLearnedPositionalEmbedding: position p reads row p + 2
    config.normEps = 1e-5f;    // nn.LayerNorm's default in modeling_opt.py, not a config key
    config.activation = parseActivation(c, "activation_function", "relu");
    config.norm = NormKind::LayerNorm;
    config.placement = NormPlacement::Pre;
    config.tiedEmbeddings = c.boolean("tie_word_embeddings", true);
    config.qkvBias = config.outputBias = config.feedForwardBias = c.boolean("enable_bias", true);
    if (!c.boolean("do_layer_norm_before", true))
        c.fail("do_layer_norm_before", "false (post-norm, as in opt-350m) is not supported");
    if (c.sizeOr("word_embed_proj_dim", config.dModel) != config.dModel)
        c.fail("word_embed_proj_dim", "a width other than hidden_size " +
                                          std::to_string(config.dModel) +
                                          " (project_in / project_out) is not supported");
    if (!c.boolean("layer_norm_elementwise_affine", true))
        c.fail("layer_norm_elementwise_affine", "false is not supported");
    if (c.boolean("_remove_final_layer_norm", false))
        c.fail("_remove_final_layer_norm", "true is not supported");
}

TransformerWeights readOpt(const TensorReader& reader, const ModelConfig& config)
{
    // OPTForCausalLM writes "model.decoder..."; OPTModel "decoder...".
    const std::string p =
        reader.contains("decoder.embed_tokens.weight") ? "decoder." : "model.decoder.";
    const int d = config.dModel;
    const int ff = config.dFeedForward;
    const float eps = config.normEps;
    auto bias = [&config](const std::string& name) {
        return config.qkvBias ? name : std::string();
    };

    TransformerWeights w;
    w.config = config;
    w.tokenEmbedding = reader.matrix(p + "embed_tokens.weight", config.vocab, d);
    w.positionEmbedding =
        reader.matrix(p + "embed_positions.weight", config.maxPositions + config.positionOffset, d)
            .bottomRows(config.maxPositions);

    for (int l = 0; l < config.layers; ++l) {
        const std::string b = p + "layers." + std::to_string(l) + ".";
        TransformerLayer layer;
        layer.attentionNorm = reader.layerNorm(b + "self_attn_layer_norm", d, eps);
        layer.attention = readAttention(reader, config, l, b + "self_attn.",
                                        {"q_proj", "k_proj", "v_proj", "out_proj"}, config.qkvBias);

        layer.feedForwardNorm = reader.layerNorm(b + "final_layer_norm", d, eps);
        layer.feedForward.kind = FeedForwardKind::Plain;
        layer.feedForward.activation = config.activation;
        layer.feedForward.in = reader.linear(b + "fc1.weight", bias(b + "fc1.bias"), ff, d);
        layer.feedForward.out = reader.linear(b + "fc2.weight", bias(b + "fc2.bias"), d, ff);
        w.layers.push_back(std::move(layer));
        reader.layerDone(l + 1, config.layers);
    }
    w.finalNorm = reader.layerNorm(p + "final_layer_norm", d, eps);

    // The head is tied to embed_tokens; a checkpoint that stores lm_head.weight gets it used.
    readLmHead(reader, w, "lm_head.weight");
    return w;
}

} // namespace attn::core::families
