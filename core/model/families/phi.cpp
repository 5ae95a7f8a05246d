// Phi (PhiForCausalLM, PhiModel: phi-1, phi-1.5, phi-2) in the hub's names: transformers'
// modeling_phi.py. One LayerNorm per block feeds attention and the MLP side by side; rotary
// positions on part of each head; the head has a bias.
#include "core/model/families/families.h"
#include "core/model/families/registry.h"

namespace attn::core::families {

void readPhiConfig(const ConfigReader& c, ModelConfig& config)
{
    readSizes(c, config, "num_key_value_heads");
    config.normEps = float(c.positiveNumber("layer_norm_eps", 1e-5));
    config.activation = parseActivation(c, "hidden_act", "gelu_new");
    config.norm = NormKind::LayerNorm;
    config.placement = NormPlacement::Pre;
    config.tiedEmbeddings = c.boolean("tie_word_embeddings", false);
    config.qkvBias = config.outputBias = config.feedForwardBias = config.headBias = true;
    config.parallelResidual = config.sharedBlockNorm = true;
    if (c.boolean("qk_layernorm", false))
        c.fail("qk_layernorm", "true (a LayerNorm on each head's q and k) is not supported");
    // PhiAttention: rotary_ndims = int(partial_rotary_factor * head_dim).
    const double fraction = c.number("partial_rotary_factor", 0.5);
    if (!(fraction > 0 && fraction <= 1))
        c.fail("partial_rotary_factor", "expected a number above 0 and at most 1, got " +
                                            jsonText(c.value("partial_rotary_factor")));
    setRotary(c, config, int(fraction * config.dHead), c.positiveNumber("rope_theta", 10000.0),
              "partial_rotary_factor");
}

TransformerWeights readPhi(const TensorReader& reader, const ModelConfig& config)
{
    // PhiForCausalLM writes "model.layers..." beside "lm_head.weight"; PhiModel no prefix.
    const std::string p = reader.contains("embed_tokens.weight") ? "" : "model.";
    const int d = config.dModel;
    const int ff = config.dFeedForward;
    const float eps = config.normEps;

    TransformerWeights w;
    w.config = config;
    w.tokenEmbedding = reader.matrix(p + "embed_tokens.weight", config.vocab, d);

    for (int l = 0; l < config.layers; ++l) {
        const std::string b = p + "layers." + std::to_string(l) + ".";
        TransformerLayer layer;
        layer.attentionNorm = reader.layerNorm(b + "input_layernorm", d, eps);
        layer.attention = readAttention(reader, config, l, b + "self_attn.",
                                        {"q_proj", "k_proj", "v_proj", "dense"}, true);

        // No feedForwardNorm: the MLP reads the attention's normalised input (sharedBlockNorm).
        layer.feedForward.kind = FeedForwardKind::Plain;
        layer.feedForward.activation = config.activation;
        layer.feedForward.in = reader.linear(b + "mlp.fc1.weight", b + "mlp.fc1.bias", ff, d);
        layer.feedForward.out = reader.linear(b + "mlp.fc2.weight", b + "mlp.fc2.bias", d, ff);
        w.layers.push_back(std::move(layer));
        reader.layerDone(l + 1, config.layers);
    }
    w.finalNorm = reader.layerNorm(p + "final_layernorm", d, eps);

    if (config.architecture.isEmpty() && !reader.contains("lm_head.weight"))
        w.config.objective = Objective::None;
    if (w.config.objective == Objective::None)
        return w;
    // PhiForCausalLM: lm_head = nn.Linear(hidden_size, vocab_size, bias=True).
    w.lmHead = reader.matrix("lm_head.weight", config.vocab, d);
    w.lmBias = reader.vector("lm_head.bias", config.vocab);
    return w;
}

} // namespace attn::core::families
