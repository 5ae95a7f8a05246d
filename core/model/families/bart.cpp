// BART (BartForConditionalGeneration, BartModel) in the hub's names: transformers'
// modeling_bart.py (Lewis et al. 2019). An encoder and a decoder sharing one token embedding,
// learned positions read from row 2 on, layernorm_embedding on each side, post-norm blocks,
// cross-attention in every decoder layer, final_logits_bias added to the tied head's logits.
// Marian (MarianMTModel, Helsinki-NLP/opus-mt-*; modeling_marian.py copies BART's modules) is
// the same but for static sinusoidal positions from 0, no layernorm_embedding and swish.
#include "core/model/families/families.h"

#include <cmath>

namespace attn::core::families {
namespace {

// BartAttention's four nn.Linear projections, each with its bias.
std::shared_ptr<const ModelWeights> attention(const TensorReader& reader, const ModelConfig& config,
                                              int layer, const std::string& a)
{
    return readAttention(reader, config, layer, a, {"q_proj", "k_proj", "v_proj", "out_proj"},
                         true);
}

// BartEncoderLayer, or BartDecoderLayer with its encoder_attn (`cross`).
TransformerLayer readLayer(const TensorReader& reader, const ModelConfig& config, int l,
                           const std::string& b, int ff, bool cross)
{
    const int d = config.dModel;
    const float eps = config.normEps;
    TransformerLayer layer;
    layer.attentionNorm = reader.layerNorm(b + "self_attn_layer_norm", d, eps);
    layer.attention = attention(reader, config, l, b + "self_attn.");
    if (cross) {
        layer.crossAttentionNorm = reader.layerNorm(b + "encoder_attn_layer_norm", d, eps);
        layer.crossAttention = attention(reader, config, l, b + "encoder_attn.");
    }
    layer.feedForwardNorm = reader.layerNorm(b + "final_layer_norm", d, eps);
    layer.feedForward.kind = FeedForwardKind::Plain;
    layer.feedForward.activation = config.activation;
    layer.feedForward.in = reader.linear(b + "fc1.weight", b + "fc1.bias", ff, d);
    layer.feedForward.out = reader.linear(b + "fc2.weight", b + "fc2.bias", d, ff);
    return layer;
}

// BartLearnedPositionalEmbedding: max_position_embeddings + 2 rows, position p in row p + 2.
Matrix positions(const TensorReader& reader, const ModelConfig& config, const std::string& name)
{
    return reader.matrix(name, config.maxPositions + config.positionOffset, config.dModel)
        .bottomRows(config.maxPositions);
}

// MarianSinusoidalPositionalEmbedding._init_weight: the angle p / 10000^(2 (j / 2) / d) in
// double; column j even gives sin into the first half (column j / 2), j odd cos into the
// second (column ceil(d / 2) + j / 2): halves, not interleaved (Vaswani et al. 2017 interleave).
// The model builds this table itself; a checkpoint may or may not store it, so it is not read.
Matrix sinusoidalPositions(int rows, int d)
{
    Matrix table(rows, d);
    const int half = (d + 1) / 2;
    for (int p = 0; p < rows; ++p) {
        for (int j = 0; j < d; ++j) {
            const double angle = double(p) / std::pow(10000.0, double(j - j % 2) / double(d));
            if (j % 2 == 0)
                table(p, j / 2) = float(std::sin(angle));
            else
                table(p, half + j / 2) = float(std::cos(angle));
        }
    }
    return table;
}

TransformerWeights readEncoderDecoder(const TensorReader& reader, const ModelConfig& config,
                                      bool sinusoidal);

} // namespace

void readBartConfig(const ConfigReader& c, ModelConfig& config)
{
    config.dModel = c.size("d_model", kWidth);
    config.heads = c.size("decoder_attention_heads", kHeadCount);
    config.kvHeads = config.heads;
    config.layers = c.size("decoder_layers");
    config.dFeedForward = c.size("decoder_ffn_dim");
    config.encoderLayers = c.size("encoder_layers");
    config.encoderHeads = c.size("encoder_attention_heads", kHeadCount);
    if (config.dModel % config.encoderHeads != 0)
        c.fail("encoder_attention_heads", std::to_string(config.encoderHeads) +
                                              " does not divide d_model " +
                                              std::to_string(config.dModel));
    config.encoderFeedForward = c.size("encoder_ffn_dim");
    config.vocab = c.size("vocab_size");
    config.maxPositions = c.size("max_position_embeddings");
    config.positionOffset = 2; // BartLearnedPositionalEmbedding's offset
    config.dHead = config.dModel / config.heads;
    config.normEps = 1e-5f; // nn.LayerNorm's default in modeling_bart.py, not a config key
    config.activation = parseActivation(c, "activation_function", "gelu");
    config.norm = NormKind::LayerNorm;
    config.placement = NormPlacement::Post;
    // BartScaledWordEmbedding: sqrt(d_model) with scale_embedding, else 1.
    config.embeddingScale =
        c.boolean("scale_embedding", false) ? std::sqrt(float(config.dModel)) : 1.0f;
    config.tiedEmbeddings = c.boolean("tie_word_embeddings", true);
    config.qkvBias = config.outputBias = config.feedForwardBias = true;
    config.causal = true; // the decoder's self-attention; the encoder's sees every position
    config.decoderStartToken = c.tokenId("decoder_start_token_id", 2);
    config.eosToken = c.tokenId("eos_token_id", 2);
    // mBART's pre-norm blocks and final norms are another family (model_type mbart).
    if (c.boolean("normalize_before", false))
        c.fail("normalize_before", "true (pre-norm, as in mBART) is not supported");
    if (c.boolean("add_final_layer_norm", false))
        c.fail("add_final_layer_norm", "true (as in mBART) is not supported");
}

void readMarianConfig(const ConfigReader& c, ModelConfig& config)
{
    readBartConfig(c, config);
    config.positionOffset = 0; // the static table starts at position 0
    // MarianConfig's defaults: the pad token starts the decoder, </s> (id 0) ends it.
    config.decoderStartToken =
        c.tokenId("decoder_start_token_id", c.tokenId("pad_token_id", config.vocab - 1));
    config.eosToken = c.tokenId("eos_token_id", 0);
    if (!c.boolean("share_encoder_decoder_embeddings", true))
        c.fail("share_encoder_decoder_embeddings",
               "false (separate decoder embeddings, decoder_vocab_size) is not supported");
    if (!c.boolean("static_position_embeddings", true))
        c.fail("static_position_embeddings", "false is not supported");
}

TransformerWeights readBart(const TensorReader& reader, const ModelConfig& config)
{
    return readEncoderDecoder(reader, config, false);
}

TransformerWeights readMarian(const TensorReader& reader, const ModelConfig& config)
{
    return readEncoderDecoder(reader, config, true);
}

namespace {

TransformerWeights readEncoderDecoder(const TensorReader& reader, const ModelConfig& config,
                                      bool sinusoidal)
{
    // BartForConditionalGeneration writes "model.shared..."; BartModel "shared...".
    const std::string p = reader.contains("shared.weight") ? "" : "model.";
    const int d = config.dModel;
    const float eps = config.normEps;
    ModelConfig encoder = config;
    encoder.heads = encoder.kvHeads = config.encoderHeads;
    encoder.dHead = d / config.encoderHeads;
    const int total = config.encoderLayers + config.layers;

    TransformerWeights w;
    w.config = config;
    // The shared table; safetensors keeps one name of tied tensors, not always "shared".
    std::string embedding = p + "shared.weight";
    for (const std::string& tied :
         {p + "decoder.embed_tokens.weight", p + "encoder.embed_tokens.weight"})
        if (!reader.contains(embedding) && reader.contains(tied))
            embedding = tied;
    w.tokenEmbedding = reader.matrix(embedding, config.vocab, d);

    if (sinusoidal) {
        w.encoderPositionEmbedding = sinusoidalPositions(config.maxPositions, d);
    } else {
        w.encoderPositionEmbedding =
            positions(reader, config, p + "encoder.embed_positions.weight");
        w.encoderEmbeddingNorm = reader.layerNorm(p + "encoder.layernorm_embedding", d, eps);
    }
    for (int l = 0; l < config.encoderLayers; ++l) {
        w.encoderLayers.push_back(readLayer(reader, encoder, l,
                                            p + "encoder.layers." + std::to_string(l) + ".",
                                            config.encoderFeedForward, false));
        reader.layerDone(l + 1, total);
    }

    if (sinusoidal) {
        w.positionEmbedding = w.encoderPositionEmbedding;
    } else {
        w.positionEmbedding = positions(reader, config, p + "decoder.embed_positions.weight");
        w.embeddingNorm = reader.layerNorm(p + "decoder.layernorm_embedding", d, eps);
    }
    for (int l = 0; l < config.layers; ++l) {
        w.layers.push_back(readLayer(reader, config, l,
                                     p + "decoder.layers." + std::to_string(l) + ".",
                                     config.dFeedForward, true));
        reader.layerDone(config.encoderLayers + l + 1, total);
    }

    if (w.config.objective != Objective::None) {
        readLmHead(reader, w, "lm_head.weight");
        w.lmBias = reader.matrix("final_logits_bias", 1, config.vocab).row(0);
    }
    return w;
}

} // namespace

} // namespace attn::core::families
