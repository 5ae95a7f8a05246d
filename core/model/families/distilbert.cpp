// DistilBERT (DistilBertForMaskedLM, DistilBertModel) in the hub's names: transformers'
// modeling_distilbert.py.
#include "core/model/families/families.h"
#include "core/model/families/registry.h"

namespace attn::core::families {

void readDistilBertConfig(const ConfigReader& c, ModelConfig& config)
{
    readSizes(c, config);
    config.normEps = 1e-12f; // nn.LayerNorm(eps=1e-12) in modeling_distilbert.py, not a config key
    config.activation = parseActivation(c, "activation", "gelu");
    config.norm = NormKind::LayerNorm;
    config.placement = NormPlacement::Post;
    config.positions = PositionKind::Learned; // sinusoidal tables are stored as the weight too
    config.tiedEmbeddings = c.boolean("tie_word_embeddings", true);
    config.qkvBias = config.outputBias = config.feedForwardBias = true;
    config.causal = false;
}

TransformerWeights readDistilBert(const TensorReader& reader, const ModelConfig& config)
{
    // DistilBertForMaskedLM writes "distilbert.embeddings..." and its head without a prefix;
    // DistilBertModel has no prefix at all.
    const std::string p = reader.contains("embeddings.word_embeddings.weight") ? "" : "distilbert.";
    const int d = config.dModel;
    const int ff = config.dFeedForward;
    const float eps = config.normEps;

    TransformerWeights w;
    w.config = config;
    w.tokenEmbedding = reader.matrix(p + "embeddings.word_embeddings.weight", config.vocab, d);
    w.positionEmbedding =
        reader.matrix(p + "embeddings.position_embeddings.weight", config.maxPositions, d);
    w.embeddingNorm = reader.layerNorm(p + "embeddings.LayerNorm", d, eps);

    for (int l = 0; l < config.layers; ++l) {
        const std::string b = p + "transformer.layer." + std::to_string(l) + ".";
        TransformerLayer layer;
        layer.attention = readAttention(reader, config, l, b + "attention.",
                                        {"q_lin", "k_lin", "v_lin", "out_lin"}, true);
        layer.attentionNorm = reader.layerNorm(b + "sa_layer_norm", d, eps); // post-norm

        layer.feedForward.kind = FeedForwardKind::Plain;
        layer.feedForward.activation = config.activation;
        layer.feedForward.in = reader.linear(b + "ffn.lin1.weight", b + "ffn.lin1.bias", ff, d);
        layer.feedForward.out = reader.linear(b + "ffn.lin2.weight", b + "ffn.lin2.bias", d, ff);
        layer.feedForwardNorm = reader.layerNorm(b + "output_layer_norm", d, eps);
        w.layers.push_back(std::move(layer));
        reader.layerDone(l + 1, config.layers);
    }

    if (config.architecture.isEmpty() && !reader.contains("vocab_transform.weight"))
        w.config.objective = Objective::None;
    if (w.config.objective == Objective::None)
        return w;

    // DistilBertForMaskedLM: vocab_layer_norm(act(vocab_transform(x))), then vocab_projector
    // tied to the word embeddings, with its own bias.
    w.headTransform.dense = reader.linear("vocab_transform.weight", "vocab_transform.bias", d, d);
    w.headTransform.activation = config.activation;
    w.headTransform.norm = reader.layerNorm("vocab_layer_norm", d, eps);
    w.lmBias = reader.vector("vocab_projector.bias", config.vocab);
    readLmHead(reader, w, "vocab_projector.weight");
    return w;
}

} // namespace attn::core::families
