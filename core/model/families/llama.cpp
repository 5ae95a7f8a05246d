// Llama, Mistral and Qwen2 (LlamaForCausalLM, MistralForCausalLM, Qwen2ForCausalLM and their
// bare *Model) in the hub's names: transformers' modeling_llama.py and its copies. The q and k
// projections are stored already permuted for the rotate-half rotary convention, so a head's
// rows are sliced as they are.
#include "core/model/families/families.h"
#include "core/model/families/registry.h"

namespace attn::core::families {

// The keys LlamaConfig, MistralConfig and Qwen2Config share (and GemmaConfig, which reads
// them with its own activation key and norm).
void readLlamaFamilyConfig(const ConfigReader& c, ModelConfig& config)
{
    readSizes(c, config, "num_key_value_heads");
    // Bounded before the rotary table below is sized by it.
    config.dHead = c.sizeOr("head_dim", config.dHead, kWidth);
    config.normEps = float(c.positiveNumber("rms_norm_eps", 1e-6));
    config.activation = parseActivation(c, "hidden_act", "silu");
    config.norm = NormKind::RmsNorm;
    config.placement = NormPlacement::Pre;
    config.feedForward = FeedForwardKind::Gated;
    config.tiedEmbeddings = c.boolean("tie_word_embeddings", false);
    const double theta = c.positiveNumber("rope_theta", 10000.0);
    const QString dimensionKey = c.has("head_dim") ? "head_dim" : "hidden_size";
    if (config.dHead % 2 != 0)
        c.fail(dimensionKey,
               "rotary positions need an even head dimension, got " + std::to_string(config.dHead));
    setRotary(c, config, config.dHead, theta, dimensionKey);
}

void readLlamaConfig(const ConfigReader& c, ModelConfig& config)
{
    readLlamaFamilyConfig(c, config);
    config.qkvBias = config.outputBias = c.boolean("attention_bias", false);
    config.feedForwardBias = c.boolean("mlp_bias", false);
}

void readMistralConfig(const ConfigReader& c, ModelConfig& config)
{
    readLlamaFamilyConfig(c, config);
    if (c.has("sliding_window"))
        config.slidingWindow = c.size("sliding_window");
}

void readQwen2Config(const ConfigReader& c, ModelConfig& config)
{
    readLlamaFamilyConfig(c, config);
    config.qkvBias = true; // Qwen2Attention: q/k/v with bias, o_proj without
    if (c.boolean("use_sliding_window", false)) {
        // Qwen2 windows only the layers from max_window_layers up (Qwen2Attention; the
        // config's default is 28).
        const QJsonValue first = c.value("max_window_layers");
        const int firstWindowed = first.isUndefined() || first.isNull() ? 28 : first.toInt(-1);
        if (firstWindowed < 0)
            c.fail("max_window_layers", "expected a non-negative integer, got " + jsonText(first));
        if (firstWindowed == 0)
            config.slidingWindow = c.size("sliding_window");
        else if (firstWindowed < config.layers)
            c.fail("use_sliding_window", "a window on only some layers (from max_window_layers " +
                                             std::to_string(firstWindowed) + " of " +
                                             std::to_string(config.layers) + ") is not supported");
    }
}

TransformerWeights readLlama(const TensorReader& reader, const ModelConfig& config)
{
    // *ForCausalLM writes "model.layers..." beside "lm_head.weight"; the bare model no prefix.
    const std::string p = reader.contains("embed_tokens.weight") ? "" : "model.";
    const int d = config.dModel;
    const int ff = config.dFeedForward;
    const int qWidth = config.heads * config.dHead;
    const int kvWidth = config.kvHeads * config.dHead;
    const float eps = config.normEps;
    auto bias = [](bool present, const std::string& name) {
        return present ? name : std::string();
    };

    TransformerWeights w;
    w.config = config;
    w.tokenEmbedding = reader.matrix(p + "embed_tokens.weight", config.vocab, d);

    for (int l = 0; l < config.layers; ++l) {
        const std::string b = p + "layers." + std::to_string(l) + ".";
        TransformerLayer layer;
        layer.attentionNorm = reader.rmsNorm(b + "input_layernorm.weight", d, eps);
        // nn.Linear: d_out x d_in in the file, transposed once here.
        AttentionProjections attention;
        const std::string a = b + "self_attn.";
        attention.wq = reader.linear(a + "q_proj.weight", qWidth, d);
        attention.wk = reader.linear(a + "k_proj.weight", kvWidth, d);
        attention.wv = reader.linear(a + "v_proj.weight", kvWidth, d);
        attention.wo = reader.linear(a + "o_proj.weight", d, qWidth);
        if (config.qkvBias) { // Qwen2 always; Llama with attention_bias
            attention.bq = reader.vector(a + "q_proj.bias", qWidth);
            attention.bk = reader.vector(a + "k_proj.bias", kvWidth);
            attention.bv = reader.vector(a + "v_proj.bias", kvWidth);
        }
        if (config.outputBias)
            attention.bo = reader.vector(a + "o_proj.bias", d);
        layer.attention = splitHeads(config, l, std::move(attention));

        layer.feedForwardNorm = reader.rmsNorm(b + "post_attention_layernorm.weight", d, eps);
        // SwiGLU: down(act(gate(x)) * up(x)).
        FeedForwardWeights& mlp = layer.feedForward;
        mlp.kind = FeedForwardKind::Gated;
        mlp.activation = config.activation;
        const std::string m = b + "mlp.";
        mlp.gate = reader.linear(m + "gate_proj.weight",
                                 bias(config.feedForwardBias, m + "gate_proj.bias"), ff, d);
        mlp.in = reader.linear(m + "up_proj.weight",
                               bias(config.feedForwardBias, m + "up_proj.bias"), ff, d);
        mlp.out = reader.linear(m + "down_proj.weight",
                                bias(config.feedForwardBias, m + "down_proj.bias"), d, ff);
        w.layers.push_back(std::move(layer));
        reader.layerDone(l + 1, config.layers);
    }
    w.finalNorm = reader.rmsNorm(p + "norm.weight", d, eps);

    // lm_head.weight unless tie_word_embeddings (SmolLM, Qwen2's small models); a config
    // without architectures predicts only where the checkpoint has a head to predict with.
    if (config.architecture.isEmpty() && !config.tiedEmbeddings &&
        !reader.contains("lm_head.weight"))
        w.config.objective = Objective::None;
    readLmHead(reader, w, "lm_head.weight");
    return w;
}

} // namespace attn::core::families
