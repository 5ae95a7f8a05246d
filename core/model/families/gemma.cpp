// Gemma (GemmaForCausalLM, GemmaModel) in the hub's names: transformers' modeling_gemma.py.
// Llama's tensors and blocks with GeGLU, embeddings scaled by sqrt(d_model), RMSNorm gains
// stored as w for 1 + w, and head_dim apart from d_model / heads (Gemma Team 2024, section 2).
#include "core/model/families/families.h"

#include <cmath>

namespace attn::core::families {

void readGemmaConfig(const ConfigReader& c, ModelConfig& config)
{
    readLlamaFamilyConfig(c, config);
    // Gemma's MLP is GELU with the tanh approximation (its reference code, gemma_pytorch:
    // F.gelu(gate, approximate="tanh")). Its configs name it in hidden_activation, which
    // transformers 4 reads (gelu_pytorch_tanh where null); hidden_act says "gelu", which
    // transformers 5 builds as exact GELU (1e-4 apart in logits on the tiny checkpoint).
    config.activation = parseActivation(c, "hidden_activation", "gelu_pytorch_tanh");
    config.tiedEmbeddings = c.boolean("tie_word_embeddings", true);
    config.qkvBias = config.outputBias = c.boolean("attention_bias", false);
    // GemmaModel: hidden_size ** 0.5, rounded to the hidden states' dtype.
    config.embeddingScale = float(std::sqrt(double(config.dModel)));
}

TransformerWeights readGemma(const TensorReader& reader, const ModelConfig& config)
{
    TransformerWeights w = readLlama(reader, config);
    // GemmaRMSNorm multiplies by (1 + w), in float32 as here.
    auto plusOne = [](NormWeights& norm) { norm.gain.array() += 1.0f; };
    for (TransformerLayer& layer : w.layers) {
        plusOne(layer.attentionNorm);
        plusOne(layer.feedForwardNorm);
    }
    plusOne(w.finalNorm);
    return w;
}

} // namespace attn::core::families
