// GPT-NeoX (GPTNeoXForCausalLM, GPTNeoXModel; EleutherAI's Pythia suite) in the hub's names:
// transformers' modeling_gpt_neox.py. Parallel attention and MLP, rotary positions on part of
// each head (Black et al. 2022, "GPT-NeoX-20B", section 2.1).
#include "core/model/families/families.h"
#include "core/model/families/registry.h"

namespace attn::core::families {

void readGptNeoXConfig(const ConfigReader& c, ModelConfig& config)
{
    readSizes(c, config);
    config.normEps = float(c.positiveNumber("layer_norm_eps", 1e-5));
    config.activation = parseActivation(c, "hidden_act", "gelu");
    config.norm = NormKind::LayerNorm;
    config.placement = NormPlacement::Pre;
    config.tiedEmbeddings = c.boolean("tie_word_embeddings", false);
    config.qkvBias = config.outputBias = c.boolean("attention_bias", true);
    config.feedForwardBias = true;
    config.parallelResidual = c.boolean("use_parallel_residual", true);
    // GPTNeoXAttention: rotary_ndims = int(head_size * rotary_pct); the base is rotary_emb_base
    // in older configs, rope_theta in newer ones.
    const double fraction = c.number("rotary_pct", 0.25);
    if (!(fraction > 0 && fraction <= 1))
        c.fail("rotary_pct",
               "expected a number above 0 and at most 1, got " + jsonText(c.value("rotary_pct")));
    const QString base = c.has("rope_theta") ? "rope_theta" : "rotary_emb_base";
    setRotary(c, config, int(config.dHead * fraction), c.positiveNumber(base, 10000.0),
              "rotary_pct");
}

TransformerWeights readGptNeoX(const TensorReader& reader, const ModelConfig& config)
{
    // GPTNeoXForCausalLM writes "gpt_neox.layers..." beside "embed_out.weight"; the bare model
    // no prefix.
    const std::string p = reader.contains("embed_in.weight") ? "" : "gpt_neox.";
    const int d = config.dModel;
    const int dh = config.dHead;
    const int ff = config.dFeedForward;
    const float eps = config.normEps;
    auto bias = [](bool present, const std::string& name) {
        return present ? name : std::string();
    };

    TransformerWeights w;
    w.config = config;
    w.tokenEmbedding = reader.matrix(p + "embed_in.weight", config.vocab, d);

    for (int l = 0; l < config.layers; ++l) {
        const std::string b = p + "layers." + std::to_string(l) + ".";
        TransformerLayer layer;
        layer.attentionNorm = reader.layerNorm(b + "input_layernorm", d, eps);
        // query_key_value's 3d outputs are head after head, each [q | k | v] of d_head (the
        // view to (heads, 3 d_head) in GPTNeoXAttention), unlike GPT-2's q | k | v.
        const std::string a = b + "attention.";
        const LinearWeights qkv =
            reader.linear(a + "query_key_value.weight",
                          bias(config.qkvBias, a + "query_key_value.bias"), 3 * d, d);
        AttentionProjections attention;
        Matrix* weights[3] = {&attention.wq, &attention.wk, &attention.wv};
        RowVector* biases[3] = {&attention.bq, &attention.bk, &attention.bv};
        for (int part = 0; part < 3; ++part) {
            weights[part]->resize(d, d);
            if (config.qkvBias)
                biases[part]->resize(d);
            for (int h = 0; h < config.heads; ++h) {
                const Eigen::Index from = Eigen::Index(3 * h + part) * dh;
                weights[part]->middleCols(Eigen::Index(h) * dh, dh) =
                    qkv.weight.middleCols(from, dh);
                if (config.qkvBias)
                    biases[part]->segment(Eigen::Index(h) * dh, dh) = qkv.bias.segment(from, dh);
            }
        }
        LinearWeights dense =
            reader.linear(a + "dense.weight", bias(config.outputBias, a + "dense.bias"), d, d);
        attention.wo = std::move(dense.weight);
        attention.bo = std::move(dense.bias);
        layer.attention = splitHeads(config, l, std::move(attention));

        layer.feedForwardNorm = reader.layerNorm(b + "post_attention_layernorm", d, eps);
        layer.feedForward.kind = FeedForwardKind::Plain;
        layer.feedForward.activation = config.activation;
        layer.feedForward.in =
            reader.linear(b + "mlp.dense_h_to_4h.weight", b + "mlp.dense_h_to_4h.bias", ff, d);
        layer.feedForward.out =
            reader.linear(b + "mlp.dense_4h_to_h.weight", b + "mlp.dense_4h_to_h.bias", d, ff);
        w.layers.push_back(std::move(layer));
        reader.layerDone(l + 1, config.layers);
    }
    w.finalNorm = reader.layerNorm(p + "final_layer_norm", d, eps);

    if (config.architecture.isEmpty() && !config.tiedEmbeddings &&
        !reader.contains("embed_out.weight"))
        w.config.objective = Objective::None;
    readLmHead(reader, w, "embed_out.weight");
    return w;
}

} // namespace attn::core::families
