// OPT (OPTForCausalLM, OPTModel) in the hub's names: transformers' modeling_opt.py (Zhang et
// al. 2022). Learned positions read from row 2 on, ReLU, pre-norm blocks.
#include "core/model/families/families.h"

namespace attn::core::families {

void readOptConfig(const ConfigReader& c, ModelConfig& config)
{
    config.dModel = c.size("hidden_size", kWidth);
    config.heads = c.size("num_attention_heads", kHeadCount);
    config.kvHeads = config.heads;
    config.layers = c.size("num_hidden_layers");
    config.vocab = c.size("vocab_size");
    config.maxPositions = c.size("max_position_embeddings");
    config.positionOffset = 2; // OPTLearnedPositionalEmbedding: position p reads row p + 2
    config.dHead = config.dModel / config.heads;
    config.dFeedForward = c.size("ffn_dim");
    config.normEps = 1e-5f; // nn.LayerNorm's default in modeling_opt.py, not a config key
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
        const std::string a = b + "self_attn.";
        AttentionProjections attention;
        LinearWeights q = reader.linear(a + "q_proj.weight", bias(a + "q_proj.bias"), d, d);
        LinearWeights k = reader.linear(a + "k_proj.weight", bias(a + "k_proj.bias"), d, d);
        LinearWeights v = reader.linear(a + "v_proj.weight", bias(a + "v_proj.bias"), d, d);
        LinearWeights o = reader.linear(a + "out_proj.weight", bias(a + "out_proj.bias"), d, d);
        attention.wq = std::move(q.weight);
        attention.bq = std::move(q.bias);
        attention.wk = std::move(k.weight);
        attention.bk = std::move(k.bias);
        attention.wv = std::move(v.weight);
        attention.bv = std::move(v.bias);
        attention.wo = std::move(o.weight);
        attention.bo = std::move(o.bias);
        layer.attention = splitHeads(config, l, std::move(attention));

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
    if (w.config.objective != Objective::None &&
        (!config.tiedEmbeddings || reader.contains("lm_head.weight")))
        w.lmHead = reader.matrix("lm_head.weight", config.vocab, d);
    return w;
}

} // namespace attn::core::families
