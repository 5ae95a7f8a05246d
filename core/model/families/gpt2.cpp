// GPT-2 (GPT2LMHeadModel, GPT2Model) in the hub's names: transformers' modeling_gpt2.py.
#include "core/model/families/families.h"

namespace attn::core::families {

void readGpt2Config(const ConfigReader& c, ModelConfig& config)
{
    config.dModel = c.size("n_embd", kWidth);
    config.heads = c.size("n_head", kHeadCount);
    config.kvHeads = config.heads;
    config.layers = c.size("n_layer");
    config.vocab = c.size("vocab_size");
    // n_ctx is the older name of n_positions (the hub's gpt2 config has both).
    config.maxPositions = c.has("n_positions") ? c.size("n_positions") : c.size("n_ctx");
    config.dHead = config.dModel / config.heads;
    config.dFeedForward =
        c.sizeOrDerived("n_inner", 4 * std::int64_t(config.dModel), "4 x n_embd"); // GPT2MLP
    config.normEps = float(c.positiveNumber("layer_norm_epsilon", 1e-5));
    config.activation = parseActivation(c, "activation_function", "gelu_new");
    config.norm = NormKind::LayerNorm;
    config.placement = NormPlacement::Pre;
    config.positions = PositionKind::Learned;
    config.tiedEmbeddings = c.boolean("tie_word_embeddings", true);
    config.qkvBias = config.outputBias = config.feedForwardBias = true;
    // Options that change the attention arithmetic itself, off in every released GPT-2.
    if (!c.boolean("scale_attn_weights", true))
        c.fail("scale_attn_weights", "false (no 1/sqrt(d_head) scaling) is not supported");
    if (c.boolean("scale_attn_by_inverse_layer_idx", false))
        c.fail("scale_attn_by_inverse_layer_idx", "true is not supported");
}

TransformerWeights readGpt2(const TensorReader& reader, const ModelConfig& config)
{
    // GPT2LMHeadModel.save_pretrained writes "transformer.h.0..."; GPT2Model and the hub's own
    // gpt2 repository have no prefix.
    const std::string p = reader.contains("wte.weight") ? "" : "transformer.";
    const int d = config.dModel;
    const float eps = config.normEps;

    TransformerWeights w;
    w.config = config;
    w.tokenEmbedding = reader.matrix(p + "wte.weight", config.vocab, d);
    w.positionEmbedding = reader.matrix(p + "wpe.weight", config.maxPositions, d);

    for (int l = 0; l < config.layers; ++l) {
        const std::string h = p + "h." + std::to_string(l) + ".";
        TransformerLayer layer;
        layer.attentionNorm = reader.layerNorm(h + "ln_1", d, eps);
        // Conv1D stores d_in x d_out, the row convention already; c_attn is q | k | v side by
        // side, each d wide, head after head within each.
        const Matrix qkv = reader.matrix(h + "attn.c_attn.weight", d, 3 * d);
        const RowVector qkvBias = reader.vector(h + "attn.c_attn.bias", 3 * d);
        AttentionProjections attention;
        attention.wq = qkv.middleCols(0, d);
        attention.wk = qkv.middleCols(d, d);
        attention.wv = qkv.middleCols(2 * d, d);
        attention.bq = qkvBias.segment(0, d);
        attention.bk = qkvBias.segment(d, d);
        attention.bv = qkvBias.segment(2 * d, d);
        attention.wo = reader.matrix(h + "attn.c_proj.weight", d, d);
        attention.bo = reader.vector(h + "attn.c_proj.bias", d);
        layer.attention = splitHeads(config, l, std::move(attention));

        layer.feedForwardNorm = reader.layerNorm(h + "ln_2", d, eps);
        FeedForwardWeights& ff = layer.feedForward;
        ff.kind = FeedForwardKind::Plain;
        ff.activation = config.activation;
        ff.in.weight = reader.matrix(h + "mlp.c_fc.weight", d, config.dFeedForward);
        ff.in.bias = reader.vector(h + "mlp.c_fc.bias", config.dFeedForward);
        ff.out.weight = reader.matrix(h + "mlp.c_proj.weight", config.dFeedForward, d);
        ff.out.bias = reader.vector(h + "mlp.c_proj.bias", d);
        w.layers.push_back(std::move(layer));
        reader.layerDone(l + 1, config.layers);
    }
    w.finalNorm = reader.layerNorm(p + "ln_f", d, eps);

    // The LM head is tied to wte and not stored; a checkpoint that stores it anyway gets it used.
    if (config.objective != Objective::None && reader.contains("lm_head.weight"))
        w.lmHead = reader.matrix("lm_head.weight", config.vocab, d);
    return w;
}

} // namespace attn::core::families
