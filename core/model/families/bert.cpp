// BERT (BertForMaskedLM, BertModel) in the hub's names: transformers' modeling_bert.py.
#include "core/model/families/families.h"
#include "core/model/families/registry.h"

namespace attn::core::families {

void readBertConfig(const ConfigReader& c, ModelConfig& config)
{
    readSizes(c, config);
    config.tokenTypes = c.sizeOr("type_vocab_size", 2);
    config.normEps = float(c.positiveNumber("layer_norm_eps", 1e-12));
    config.activation = parseActivation(c, "hidden_act", "gelu");
    config.norm = NormKind::LayerNorm;
    config.placement = NormPlacement::Post;
    config.positions = PositionKind::Learned;
    config.tiedEmbeddings = c.boolean("tie_word_embeddings", true);
    config.qkvBias = config.outputBias = config.feedForwardBias = true;
    const QString positionType = c.string("position_embedding_type", "absolute");
    if (positionType != "absolute")
        c.fail("position_embedding_type", quoted(positionType) + " is not supported (absolute)");
    // A BERT with is_decoder (BertLMHeadModel) masks the future like GPT-2.
    config.causal = c.boolean("is_decoder", false);
}

TransformerWeights readBertEncoder(const TensorReader& reader, const ModelConfig& config,
                                   const std::string& p)
{
    const int d = config.dModel;
    const int ff = config.dFeedForward;
    const float eps = config.normEps;

    TransformerWeights w;
    w.config = config;
    w.tokenEmbedding = reader.matrix(p + "embeddings.word_embeddings.weight", config.vocab, d);
    // RoBERTa's table starts positionOffset rows before position 0.
    w.positionEmbedding = reader
                              .matrix(p + "embeddings.position_embeddings.weight",
                                      config.maxPositions + config.positionOffset, d)
                              .bottomRows(config.maxPositions);
    if (config.tokenTypes > 0)
        w.tokenTypeEmbedding =
            reader.matrix(p + "embeddings.token_type_embeddings.weight", config.tokenTypes, d);
    w.embeddingNorm = reader.layerNorm(p + "embeddings.LayerNorm", d, eps);

    for (int l = 0; l < config.layers; ++l) {
        const std::string b = p + "encoder.layer." + std::to_string(l) + ".";
        TransformerLayer layer;
        layer.attention =
            readAttention(reader, config, l, b + "attention.",
                          {"self.query", "self.key", "self.value", "output.dense"}, true);
        // Post-norm: LayerNorm(x + attention(x)), then LayerNorm(h + ffn(h)).
        layer.attentionNorm = reader.layerNorm(b + "attention.output.LayerNorm", d, eps);

        layer.feedForward.kind = FeedForwardKind::Plain;
        layer.feedForward.activation = config.activation;
        layer.feedForward.in =
            reader.linear(b + "intermediate.dense.weight", b + "intermediate.dense.bias", ff, d);
        layer.feedForward.out =
            reader.linear(b + "output.dense.weight", b + "output.dense.bias", d, ff);
        layer.feedForwardNorm = reader.layerNorm(b + "output.LayerNorm", d, eps);
        w.layers.push_back(std::move(layer));
        reader.layerDone(l + 1, config.layers);
    }
    return w;
}

TransformerWeights readBert(const TensorReader& reader, const ModelConfig& config)
{
    // BertForMaskedLM writes "bert.embeddings...", BertModel "embeddings...".
    const std::string p = reader.contains("embeddings.word_embeddings.weight") ? "" : "bert.";
    const int d = config.dModel;
    const float eps = config.normEps;
    TransformerWeights w = readBertEncoder(reader, config, p);

    // A config without architectures gets the MLM head only where the checkpoint has one.
    if (config.architecture.isEmpty() && !reader.contains("cls.predictions.transform.dense.weight"))
        w.config.objective = Objective::None;
    if (w.config.objective == Objective::None)
        return w; // the pooler and cls.seq_relationship (next-sentence head) are not used

    // BertPredictionHeadTransform: LayerNorm(act(x W + b)), then the decoder tied to the word
    // embeddings with its own bias.
    const std::string head = "cls.predictions.";
    w.headTransform.dense =
        reader.linear(head + "transform.dense.weight", head + "transform.dense.bias", d, d);
    w.headTransform.activation = config.activation;
    w.headTransform.norm = reader.layerNorm(head + "transform.LayerNorm", d, eps);
    // Older checkpoints store the bias only as the decoder's; a missing one is reported by
    // its usual name.
    const bool decoderBiasOnly =
        !reader.contains(head + "bias") && reader.contains(head + "decoder.bias");
    const std::string bias = decoderBiasOnly ? head + "decoder.bias" : head + "bias";
    w.lmBias = reader.vector(bias, config.vocab);
    readLmHead(reader, w, head + "decoder.weight");
    return w;
}

} // namespace attn::core::families
