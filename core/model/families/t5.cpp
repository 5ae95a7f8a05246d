// T5 (T5ForConditionalGeneration, T5Model) in the hub's names: transformers' modeling_t5.py
// (Raffel et al. 2020). An encoder and a decoder sharing one token embedding and no position
// embedding: each stack's first layer holds a table of learned biases per head and bucket of
// the distance j - i, added to the self-attention scores of every layer of the stack. Pre-norm
// blocks with T5's layer norm (RMS, no bias, no mean subtracted), no biases anywhere, scores
// not divided by sqrt(d_kv), a final norm per stack. t5-small and its kin (v1.0): ReLU
// feed-forward (DenseReluDense.wi, wo), the head tied to the embedding and its input scaled by
// d_model^-0.5; T5 v1.1 and flan-t5: gated GELU (wi_0, wi_1), an untied lm_head.
#include "core/model/families/families.h"

#include <QStringList>

#include <cmath>

namespace attn::core::families {
namespace {

// T5Attention's q, k, v and o: nn.Linear without bias, inner width heads x d_kv.
std::shared_ptr<const ModelWeights> attention(const TensorReader& reader, const ModelConfig& config,
                                              int layer, const std::string& a)
{
    return readAttention(reader, config, layer, a, {"q", "k", "v", "o"}, false);
}

// T5DenseActDense (wi, wo) or T5DenseGatedActDense (act(x wi_0) * (x wi_1), then wo).
FeedForwardWeights feedForward(const TensorReader& reader, const ModelConfig& config,
                               const std::string& b)
{
    const int d = config.dModel;
    const int ff = config.dFeedForward;
    FeedForwardWeights f;
    f.kind = config.feedForward;
    f.activation = config.activation;
    if (f.kind == FeedForwardKind::Gated) {
        f.gate.weight = reader.linear(b + "wi_0.weight", ff, d);
        f.in.weight = reader.linear(b + "wi_1.weight", ff, d);
    } else {
        f.in.weight = reader.linear(b + "wi.weight", ff, d);
    }
    f.out.weight = reader.linear(b + "wo.weight", d, ff);
    return f;
}

// T5Block: layer.0 self-attention, layer.1 cross-attention (decoder), then the feed-forward,
// each with its layer_norm before it.
TransformerLayer readLayer(const TensorReader& reader, const ModelConfig& config, int l,
                           const std::string& b, bool decoder)
{
    const int d = config.dModel;
    const float eps = config.normEps;
    TransformerLayer layer;
    layer.attentionNorm = reader.rmsNorm(b + "layer.0.layer_norm.weight", d, eps);
    layer.attention = attention(reader, config, l, b + "layer.0.SelfAttention.");
    if (decoder) {
        layer.crossAttentionNorm = reader.rmsNorm(b + "layer.1.layer_norm.weight", d, eps);
        layer.crossAttention = attention(reader, config, l, b + "layer.1.EncDecAttention.");
    }
    const std::string f = decoder ? "layer.2." : "layer.1.";
    layer.feedForwardNorm = reader.rmsNorm(b + f + "layer_norm.weight", d, eps);
    layer.feedForward = feedForward(reader, config, b + f + "DenseReluDense.");
    return layer;
}

} // namespace

void readT5Config(const ConfigReader& c, ModelConfig& config)
{
    config.dModel = c.size("d_model", kWidth);
    config.heads = c.size("num_heads", kHeadCount);
    config.kvHeads = config.encoderHeads = config.heads;
    config.dHead = c.size("d_kv", kWidth); // not d_model / num_heads in flan-t5-small
    config.encoderLayers = c.size("num_layers");
    config.layers = c.sizeOr("num_decoder_layers", config.encoderLayers);
    config.dFeedForward = config.encoderFeedForward = c.size("d_ff");
    config.vocab = c.size("vocab_size");
    // Relative positions have no table to run out of; n_positions is the length T5 was
    // trained for.
    config.maxPositions = c.sizeOr("n_positions", 512);
    config.positions = PositionKind::RelativeBias;
    config.relativeBuckets = c.sizeOr("relative_attention_num_buckets", 32);
    config.relativeMaxDistance = c.sizeOr("relative_attention_max_distance", 128);
    // The encoder's half of the buckets per direction needs an exact range of at least 1, and
    // the logarithmic buckets a maximum distance past the decoder's exact range.
    if (config.relativeBuckets < 4)
        c.fail("relative_attention_num_buckets",
               "must be at least 4, got " + std::to_string(config.relativeBuckets));
    if (config.relativeMaxDistance <= config.relativeBuckets / 2)
        c.fail("relative_attention_max_distance",
               "must be more than half of relative_attention_num_buckets (" +
                   std::to_string(config.relativeBuckets / 2) + "), got " +
                   std::to_string(config.relativeMaxDistance));
    config.normEps = float(c.positiveNumber("layer_norm_epsilon", 1e-6));
    config.norm = NormKind::RmsNorm;
    config.placement = NormPlacement::Pre;
    // T5Config: "ACT" or "gated-ACT"; "gated-gelu" means gelu_new (the tanh form).
    const QString proj = c.string("feed_forward_proj", "relu");
    const QStringList parts = proj.split(QLatin1Char('-'));
    const bool gated = parts.size() == 2 && parts[0] == QLatin1String("gated");
    const std::optional<Activation> activation =
        proj == QLatin1String("gated-gelu") ? Activation::GeluTanh : activationNamed(parts.back());
    if ((parts.size() != 1 && !gated) || !activation)
        c.fail("feed_forward_proj",
               quoted(proj) + " is not supported (relu, gated-gelu, gelu, gelu_new, silu, or "
                              "gated- with one of these)");
    config.activation = *activation;
    config.feedForward = gated ? FeedForwardKind::Gated : FeedForwardKind::Plain;
    config.scaledScores = false;
    config.tiedEmbeddings = c.boolean("tie_word_embeddings", true);
    config.headInputScale = config.tiedEmbeddings ? 1.0f / std::sqrt(float(config.dModel)) : 1.0f;
    config.qkvBias = config.outputBias = config.feedForwardBias = false;
    config.causal = true; // the decoder's self-attention; the encoder's sees every position
    // T5Config's defaults: the pad token (0) starts the decoder, </s> (1) ends it.
    config.decoderStartToken = c.tokenId("decoder_start_token_id", c.tokenId("pad_token_id", 0));
    config.eosToken = c.tokenId("eos_token_id", 1);
}

TransformerWeights readT5(const TensorReader& reader, const ModelConfig& config)
{
    const int d = config.dModel;
    const float eps = config.normEps;
    const int total = config.encoderLayers + config.layers;
    TransformerWeights w;
    w.config = config;
    // The shared table; safetensors keeps one name of tied tensors, not always "shared".
    std::string embedding = "shared.weight";
    for (const char* tied : {"encoder.embed_tokens.weight", "decoder.embed_tokens.weight"})
        if (!reader.contains(embedding) && reader.contains(tied))
            embedding = tied;
    w.tokenEmbedding = reader.matrix(embedding, config.vocab, d);

    // Only block 0 of each stack has a table (has_relative_attention_bias); old t5-small files
    // also hold one for block 0's EncDecAttention, which transformers ignores, as here.
    const std::string table = "block.0.layer.0.SelfAttention.relative_attention_bias.weight";
    w.encoderRelativeBias = reader.matrix("encoder." + table, config.relativeBuckets, config.heads);
    for (int l = 0; l < config.encoderLayers; ++l) {
        w.encoderLayers.push_back(
            readLayer(reader, config, l, "encoder.block." + std::to_string(l) + ".", false));
        reader.layerDone(l + 1, total);
    }
    w.encoderFinalNorm = reader.rmsNorm("encoder.final_layer_norm.weight", d, eps);

    w.relativeBias = reader.matrix("decoder." + table, config.relativeBuckets, config.heads);
    for (int l = 0; l < config.layers; ++l) {
        w.layers.push_back(
            readLayer(reader, config, l, "decoder.block." + std::to_string(l) + ".", true));
        reader.layerDone(config.encoderLayers + l + 1, total);
    }
    w.finalNorm = reader.rmsNorm("decoder.final_layer_norm.weight", d, eps);

    readLmHead(reader, w, "lm_head.weight");
    return w;
}

} // namespace attn::core::families
