#include "core/model/model_config.h"

#include "core/enum_names.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/regular_file.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <cmath>
#include <limits>
#include <numbers>

namespace attn::core {

namespace {

// config.json files are a few KB; anything far larger is not one.
constexpr qint64 kMaxConfigBytes = qint64(16) << 20;

constexpr const char* kSupportedTypes = "gpt2, bert, distilbert, llama, mistral, qwen2";

std::string quoted(const QString& text)
{
    std::string result(1, '\''); // appended: GCC 12 warns (-Wrestrict) on "'" + std::string
    result.append(text.toStdString()).push_back('\'');
    return result;
}

std::string jsonText(const QJsonValue& value)
{
    if (value.isString())
        return quoted(value.toString());
    if (value.isNull())
        return "null";
    if (value.isBool())
        return value.toBool() ? "true" : "false";
    if (value.isDouble())
        return QByteArray::number(value.toDouble(), 'g', QLocale::FloatingPointShortest)
            .toStdString();
    return value.isArray() ? "an array" : "an object";
}

// Past any real model's size (Llama 3 405B: hidden 16384, intermediate 53248, vocabulary 128256),
// and well inside an int.
constexpr int kMaxSize = 1000000000;

// The largest value a size key may have, and how the message names that bound.
struct SizeLimit
{
    int most;
    const char* what; // after "more than the <most>"
    bool operator==(const SizeLimit&) const = default;
};
constexpr SizeLimit kAnySize{kMaxSize, ""};
// The explorer's own bounds (core/limits.h), for the keys that size a head or the residual stream.
constexpr SizeLimit kWidth{kMaxModelWidth, " this explorer supports"};
constexpr SizeLimit kHeadCount{kMaxHeads, " heads this explorer supports"};

// Typed access to config.json's keys; every error names the file and the key.
class ConfigReader
{
public:
    ConfigReader(const QJsonObject& object, const QString& file) : m_object(object), m_file(file) {}

    [[noreturn]] void fail(const QString& key, const std::string& what) const
    {
        throw Error(m_file.toStdString(), Error(key.toStdString(), what));
    }

    bool has(const QString& key) const
    {
        return m_object.contains(key) && !m_object.value(key).isNull();
    }

    QJsonValue value(const QString& key) const { return m_object.value(key); }

    // A positive integer that must be there (transformers' defaults are those of the original
    // small models, so a missing size more likely means a config of another kind), at most
    // `limit`: checked as it is read, so that nothing is sized by a value not yet checked.
    int size(const QString& key, const SizeLimit& limit = kAnySize) const
    {
        if (!has(key))
            fail(key, "missing (a positive integer is needed)");
        return checkedSize(key, limit);
    }

    int sizeOr(const QString& key, int fallback, const SizeLimit& limit = kAnySize) const
    {
        return has(key) ? checkedSize(key, limit) : fallback;
    }

    // A size derived from others where the key is null or absent (GPT-2's n_inner = 4 n_embd),
    // computed in 64 bits and checked as if it had been written.
    int sizeOrDerived(const QString& key, std::int64_t derived, const std::string& how,
                      const SizeLimit& limit = kAnySize) const
    {
        if (has(key))
            return checkedSize(key, limit);
        if (derived > limit.most)
            fail(key, "null means " + how + " = " + std::to_string(derived) + ", more than the " +
                          std::to_string(limit.most) + limit.what);
        return int(derived);
    }

    double number(const QString& key, double fallback) const
    {
        if (!has(key))
            return fallback;
        const QJsonValue v = value(key);
        if (!v.isDouble() || !std::isfinite(v.toDouble()))
            fail(key, "expected a number, got " + jsonText(v));
        return v.toDouble();
    }

    double positiveNumber(const QString& key, double fallback) const
    {
        const double v = number(key, fallback);
        if (!(v > 0))
            fail(key, "expected a positive number, got " + jsonText(value(key)));
        return v;
    }

    bool boolean(const QString& key, bool fallback) const
    {
        if (!has(key))
            return fallback;
        const QJsonValue v = value(key);
        if (!v.isBool())
            fail(key, "expected true or false, got " + jsonText(v));
        return v.toBool();
    }

    QString string(const QString& key, const QString& fallback) const
    {
        if (!has(key))
            return fallback;
        const QJsonValue v = value(key);
        if (!v.isString())
            fail(key, "expected a string, got " + jsonText(v));
        return v.toString();
    }

    const QString& file() const { return m_file; }

private:
    int checkedSize(const QString& key, const SizeLimit& limit) const
    {
        const QJsonValue v = value(key);
        const double d = v.toDouble();
        if (!v.isDouble() || d != std::floor(d) || d < 1)
            fail(key, "expected a positive integer, got " + jsonText(v));
        if (d > limit.most)
            fail(key, limit == kAnySize
                          ? "must be at most " + std::to_string(kMaxSize) + ", got " + jsonText(v)
                          : QByteArray::number(d, 'f', 0).toStdString() + " is more than the " +
                                std::to_string(limit.most) + limit.what);
        return int(d);
    }

    QJsonObject m_object;
    QString m_file;
};

Activation parseActivation(const ConfigReader& config, const QString& key, const QString& fallback)
{
    const QString name = config.string(key, fallback);
    // transformers' ACT2FN: gelu_new, gelu_fast and gelu_pytorch_tanh are the same tanh
    // approximation; gelu and gelu_python the exact erf form.
    if (name == "gelu_new" || name == "gelu_pytorch_tanh" || name == "gelu_fast")
        return Activation::GeluTanh;
    if (name == "gelu" || name == "gelu_python")
        return Activation::GeluErf;
    if (name == "silu" || name == "swish")
        return Activation::Silu;
    if (name == "relu")
        return Activation::Relu;
    config.fail(key,
                quoted(name) + " is not supported (gelu, gelu_new, gelu_pytorch_tanh, relu, silu)");
}

// What the checkpoint predicts, from architectures[0] (transformers' class names).
Objective objectiveOf(const QString& architecture, ModelFamily family, bool bertIsDecoder)
{
    if (architecture.isEmpty()) // old configs: the family's usual head; the loader drops it
        return family == ModelFamily::Bert || family == ModelFamily::DistilBert // when absent
                   ? Objective::MaskedLm
                   : Objective::CausalLm;
    if (architecture.endsWith("ForMaskedLM") || architecture == "BertForPreTraining")
        return Objective::MaskedLm;
    if (architecture.endsWith("LMHeadModel") || architecture.endsWith("ForCausalLM") ||
        architecture == "GPT2DoubleHeadsModel")
        return family == ModelFamily::Bert && !bertIsDecoder ? Objective::MaskedLm
                                                             : Objective::CausalLm;
    // GPT2Model, BertModel, LlamaModel and the task heads (*ForSequenceClassification, ...)
    // whose weights we do not use: the transformer alone, no prediction.
    return Objective::None;
}

// theta^(-2i/d) for i < d/2 (Su et al. 2021, section 3.2.2; transformers'
// _compute_default_rope_parameters), in double; rounded to float once, after any scaling.
std::vector<double> defaultInverseFrequencies(double theta, int dHead)
{
    std::vector<double> frequencies(std::size_t(dHead / 2));
    for (int i = 0; i < dHead / 2; ++i)
        frequencies[std::size_t(i)] = 1.0 / std::pow(theta, double(2 * i) / double(dHead));
    return frequencies;
}

// rope_scaling (transformers' modeling_rope_utils.py, 4.44): "linear" divides every frequency
// by the factor; "llama3" divides the low frequencies, keeps the high ones and blends between
// (_compute_llama3_parameters). The others change attention by more than the frequencies.
void applyRopeScaling(const ConfigReader& config, std::vector<double>& frequencies)
{
    const QString key = "rope_scaling";
    if (!config.has(key))
        return;
    if (!config.value(key).isObject())
        config.fail(key, "expected an object or null, got " + jsonText(config.value(key)));
    const ConfigReader scaling(config.value(key).toObject(), config.file() + ": rope_scaling");
    // Newer configs say rope_type, older ones type.
    const QString type = scaling.string("rope_type", scaling.string("type", "default"));
    if (type == "default")
        return;
    if (type == "linear") {
        const double factor = scaling.positiveNumber("factor", 0.0);
        for (double& f : frequencies)
            f /= factor;
        return;
    }
    if (type == "llama3") {
        if (!scaling.has("factor") || !scaling.has("low_freq_factor") ||
            !scaling.has("high_freq_factor") || !scaling.has("original_max_position_embeddings"))
            config.fail(key, "llama3 needs factor, low_freq_factor, high_freq_factor and "
                             "original_max_position_embeddings");
        const double factor = scaling.positiveNumber("factor", 1.0);
        const double lowFreqFactor = scaling.positiveNumber("low_freq_factor", 1.0);
        const double highFreqFactor = scaling.positiveNumber("high_freq_factor", 4.0);
        const double oldContext = scaling.size("original_max_position_embeddings");
        if (!(highFreqFactor > lowFreqFactor))
            config.fail(key, "high_freq_factor must be larger than low_freq_factor");
        const double lowFreqWavelength = oldContext / lowFreqFactor;
        const double highFreqWavelength = oldContext / highFreqFactor;
        for (double& f : frequencies) {
            const double inverse = f;
            const double wavelength = 2 * std::numbers::pi / inverse;
            double scaled = inverse;
            if (wavelength > lowFreqWavelength) {
                scaled = inverse / factor;
            } else if (wavelength >= highFreqWavelength) { // medium: blend
                const double smooth =
                    (oldContext / wavelength - lowFreqFactor) / (highFreqFactor - lowFreqFactor);
                scaled = (1 - smooth) * inverse / factor + smooth * inverse;
            }
            f = scaled;
        }
        return;
    }
    config.fail(key, "type " + quoted(type) +
                         " is not supported (null, linear, llama3); dynamic, yarn and longrope "
                         "change attention beyond the rotary frequencies");
}

void readGpt2(const ConfigReader& c, ModelConfig& config)
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

void readBert(const ConfigReader& c, ModelConfig& config)
{
    config.dModel = c.size("hidden_size", kWidth);
    config.heads = c.size("num_attention_heads", kHeadCount);
    config.kvHeads = config.heads;
    config.layers = c.size("num_hidden_layers");
    config.vocab = c.size("vocab_size");
    config.maxPositions = c.size("max_position_embeddings");
    config.tokenTypes = c.sizeOr("type_vocab_size", 2);
    config.dHead = config.dModel / config.heads;
    config.dFeedForward = c.size("intermediate_size");
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
}

void readDistilBert(const ConfigReader& c, ModelConfig& config)
{
    config.dModel = c.size("dim", kWidth);
    config.heads = c.size("n_heads", kHeadCount);
    config.kvHeads = config.heads;
    config.layers = c.size("n_layers");
    config.vocab = c.size("vocab_size");
    config.maxPositions = c.size("max_position_embeddings");
    config.dHead = config.dModel / config.heads;
    config.dFeedForward = c.size("hidden_dim");
    config.normEps = 1e-12f; // nn.LayerNorm(eps=1e-12) in modeling_distilbert.py, not a config key
    config.activation = parseActivation(c, "activation", "gelu");
    config.norm = NormKind::LayerNorm;
    config.placement = NormPlacement::Post;
    config.positions = PositionKind::Learned; // sinusoidal tables are stored as the weight too
    config.tiedEmbeddings = c.boolean("tie_word_embeddings", true);
    config.qkvBias = config.outputBias = config.feedForwardBias = true;
}

// Llama, Mistral, Qwen2: the keys LlamaConfig, MistralConfig and Qwen2Config share.
void readLlama(const ConfigReader& c, ModelConfig& config)
{
    config.dModel = c.size("hidden_size", kWidth);
    config.heads = c.size("num_attention_heads", kHeadCount);
    config.kvHeads = c.sizeOr("num_key_value_heads", config.heads, kHeadCount);
    config.layers = c.size("num_hidden_layers");
    config.vocab = c.size("vocab_size");
    config.maxPositions = c.size("max_position_embeddings");
    // Bounded before the rotary table below is sized by it.
    config.dHead = c.sizeOr("head_dim", config.dModel / config.heads, kWidth);
    config.dFeedForward = c.size("intermediate_size");
    config.normEps = float(c.positiveNumber("rms_norm_eps", 1e-6));
    config.activation = parseActivation(c, "hidden_act", "silu");
    config.norm = NormKind::RmsNorm;
    config.placement = NormPlacement::Pre;
    config.positions = PositionKind::Rotary;
    config.feedForward = FeedForwardKind::Gated;
    config.tiedEmbeddings = c.boolean("tie_word_embeddings", false);
    config.ropeTheta = c.positiveNumber("rope_theta", 10000.0);
    if (config.dHead % 2 != 0)
        c.fail(c.has("head_dim") ? "head_dim" : "hidden_size",
               "rotary positions need an even head dimension, got " + std::to_string(config.dHead));
    std::vector<double> frequencies = defaultInverseFrequencies(config.ropeTheta, config.dHead);
    applyRopeScaling(c, frequencies);
    config.ropeInverseFrequencies.assign(frequencies.begin(), frequencies.end());

    switch (config.family) {
    case ModelFamily::Llama:
        config.qkvBias = config.outputBias = c.boolean("attention_bias", false);
        config.feedForwardBias = c.boolean("mlp_bias", false);
        break;
    case ModelFamily::Mistral:
        if (c.has("sliding_window"))
            config.slidingWindow = c.size("sliding_window");
        break;
    case ModelFamily::Qwen2:
        config.qkvBias = true; // Qwen2Attention: q/k/v with bias, o_proj without
        if (c.boolean("use_sliding_window", false)) {
            // Qwen2 windows only the layers from max_window_layers up (Qwen2Attention; the
            // config's default is 28).
            const QJsonValue first = c.value("max_window_layers");
            const int firstWindowed = first.isUndefined() || first.isNull() ? 28 : first.toInt(-1);
            if (firstWindowed < 0)
                c.fail("max_window_layers",
                       "expected a non-negative integer, got " + jsonText(first));
            if (firstWindowed == 0)
                config.slidingWindow = c.size("sliding_window");
            else if (firstWindowed < config.layers)
                c.fail("use_sliding_window",
                       "a window on only some layers (from max_window_layers " +
                           std::to_string(firstWindowed) + " of " + std::to_string(config.layers) +
                           ") is not supported");
        }
        break;
    default:
        break;
    }
}

ModelFamily requireFamily(const ConfigReader& c, const QString& modelType)
{
    const std::optional<ModelFamily> family = parseModelFamily(modelType.toStdString());
    if (!family)
        c.fail("model_type", quoted(modelType) + " is not supported (" + kSupportedTypes + ")");
    return *family;
}

QString dtypeOfTorchName(const QString& torchDtype)
{
    if (torchDtype == "float16")
        return "F16";
    if (torchDtype == "bfloat16")
        return "BF16";
    return "F32";
}

} // namespace

namespace {

constexpr EnumNames<ModelFamily, 6> kFamilyNames{{{ModelFamily::Gpt2, "gpt2"},
                                                  {ModelFamily::Bert, "bert"},
                                                  {ModelFamily::DistilBert, "distilbert"},
                                                  {ModelFamily::Llama, "llama"},
                                                  {ModelFamily::Mistral, "mistral"},
                                                  {ModelFamily::Qwen2, "qwen2"}}};
constexpr EnumNames<NormKind, 2> kNormNames{
    {{NormKind::LayerNorm, "LayerNorm"}, {NormKind::RmsNorm, "RMSNorm"}}};
constexpr EnumNames<Activation, 4> kActivationNames{{{Activation::GeluTanh, "gelu (tanh)"},
                                                     {Activation::GeluErf, "gelu (erf)"},
                                                     {Activation::Silu, "silu"},
                                                     {Activation::Relu, "relu"}}};

} // namespace

std::string_view toString(ModelFamily family)
{
    return enumName(kFamilyNames, family, "?");
}

std::string_view toString(NormKind kind)
{
    return enumName(kNormNames, kind, "?");
}

std::string_view toString(Activation activation)
{
    return enumName(kActivationNames, activation, "?");
}

std::optional<ModelFamily> parseModelFamily(std::string_view name)
{
    return enumFromName(kFamilyNames, name);
}

namespace {

// A norm's gain (and bias, for LayerNorm).
long long normWeights(const ModelConfig& c)
{
    return c.norm == NormKind::LayerNorm ? 2LL * c.dModel : c.dModel;
}

// One block's weights: attention, feed-forward, two norms.
long long weightsPerLayer(const ModelConfig& c)
{
    const long long d = c.dModel;
    const long long qWidth = (long long)(c.heads) * c.dHead;
    const long long kvWidth = (long long)(c.kvHeads) * c.dHead;
    long long layer = d * qWidth + 2 * d * kvWidth + qWidth * d; // W_q, W_k, W_v, W_o
    if (c.qkvBias)
        layer += qWidth + 2 * kvWidth;
    if (c.outputBias)
        layer += d;
    const long long ff = c.dFeedForward;
    layer += (c.feedForward == FeedForwardKind::Gated ? 3 : 2) * d * ff;
    if (c.feedForwardBias)
        layer += (c.feedForward == FeedForwardKind::Gated ? 2 * ff : ff) + d;
    return layer + 2 * normWeights(c);
}

} // namespace

void ModelConfig::validate() const
{
    // The family's own key names, so that the message points into config.json.
    struct Keys
    {
        const char* dModel;
        const char* heads;
        const char* layers;
        const char* feedForward;
        const char* positions;
    };
    const Keys keys =
        family == ModelFamily::Gpt2 ? Keys{"n_embd", "n_head", "n_layer", "n_inner", "n_positions"}
        : family == ModelFamily::DistilBert
            ? Keys{"dim", "n_heads", "n_layers", "hidden_dim", "max_position_embeddings"}
            : Keys{"hidden_size", "num_attention_heads", "num_hidden_layers", "intermediate_size",
                   "max_position_embeddings"};
    auto fail = [](const std::string& key, const std::string& what) { throw Error(key, what); };
    auto positive = [&](const char* key, long long value) {
        if (value < 1)
            fail(key, "must be a positive integer, got " + std::to_string(value));
    };
    positive(keys.dModel, dModel);
    positive(keys.heads, heads);
    positive(keys.layers, layers);
    positive(keys.feedForward, dFeedForward);
    positive(keys.positions, maxPositions);
    positive("vocab_size", vocab);
    positive("num_key_value_heads", kvHeads);
    if (positions == PositionKind::Rotary) { // head_dim may differ from d_model / heads
        positive("head_dim", dHead);
    } else {
        if (dModel % heads != 0)
            fail(keys.heads, std::to_string(heads) + " does not divide " + keys.dModel + " " +
                                 std::to_string(dModel));
        if (dHead * heads != dModel)
            fail(keys.heads, "d_head " + std::to_string(dHead) + " x " + std::to_string(heads) +
                                 " heads is not " + keys.dModel + " " + std::to_string(dModel));
    }
    if (heads % kvHeads != 0)
        fail("num_key_value_heads", std::to_string(kvHeads) + " does not divide " + keys.heads +
                                        " " + std::to_string(heads));
    auto atMost = [&](const char* key, int value, int most, const char* what) {
        if (value > most)
            fail(key, std::to_string(value) + " is more than the " + std::to_string(most) + what);
    };
    atMost(keys.dModel, dModel, kMaxModelWidth, " this explorer supports");
    // d_head exceeds d_model only where head_dim gives it.
    atMost("head_dim", dHead, kMaxModelWidth, " this explorer supports");
    atMost(keys.heads, heads, kMaxHeads, " heads this explorer supports");
    atMost("num_key_value_heads", kvHeads, kMaxHeads, " heads this explorer supports");
    // Within those bounds one layer has at most about 5e13 weights; only the layer count can
    // take the total past 64 bits.
    if (weightsPerLayer(*this) > std::numeric_limits<long long>::max() / layers)
        fail(keys.layers, std::to_string(layers) + " layers of " +
                              std::to_string(weightsPerLayer(*this)) +
                              " weights each are more than 2^63 weights");
    if (tokenTypes < 0)
        fail("type_vocab_size", "must not be negative");
    if (!(normEps > 0) || !std::isfinite(normEps))
        fail("layer_norm_eps", "must be a positive number");
    if (positions == PositionKind::Rotary) {
        if (dHead % 2 != 0)
            fail("head_dim",
                 "rotary positions need an even head dimension, got " + std::to_string(dHead));
        if (int(ropeInverseFrequencies.size()) != dHead / 2)
            fail("rope_theta", "expected " + std::to_string(dHead / 2) +
                                   " inverse frequencies, got " +
                                   std::to_string(ropeInverseFrequencies.size()));
        for (float f : ropeInverseFrequencies)
            if (!(f > 0) || !std::isfinite(f))
                fail("rope_theta", "the inverse frequencies must be positive and finite");
    }
    if (slidingWindow && *slidingWindow < 1)
        fail("sliding_window", "must be a positive integer, got " + std::to_string(*slidingWindow));
}

long long ModelConfig::parameterCount() const
{
    const long long d = dModel;
    const long long normSize = normWeights(*this);

    long long count = (long long)(vocab)*d;
    if (positions == PositionKind::Learned)
        count += (long long)(maxPositions)*d;
    count += (long long)(tokenTypes)*d;
    if (placement == NormPlacement::Post)
        count += normSize; // the embedding LayerNorm of BERT and DistilBERT

    count += weightsPerLayer(*this) * layers;

    if (placement == NormPlacement::Pre)
        count += normSize; // the final norm (ln_f, norm)
    if (objective == Objective::MaskedLm)
        count += d * d + d + normSize + vocab; // the transform, its norm and the decoder's bias
    if (objective != Objective::None && !tiedEmbeddings)
        count += (long long)(vocab)*d;
    return count;
}

ModelConfig parseModelConfig(const QByteArray& json, const QString& nameForMessages)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        throw Error(nameForMessages.toStdString() +
                    ": not valid JSON: " + error.errorString().toStdString() + " at offset " +
                    std::to_string(error.offset));
    if (!document.isObject())
        throw Error(nameForMessages.toStdString() + ": not a JSON object");
    const ConfigReader c(document.object(), nameForMessages);

    ModelConfig config;
    if (!c.has("model_type"))
        c.fail("model_type", std::string("missing (one of ") + kSupportedTypes + " is needed)");
    config.modelType = c.string("model_type", {});
    config.family = requireFamily(c, config.modelType);
    if (c.has("architectures")) {
        const QJsonValue architectures = c.value("architectures");
        if (!architectures.isArray())
            c.fail("architectures",
                   "expected an array of class names, got " + jsonText(architectures));
        const QJsonArray names = architectures.toArray();
        if (!names.isEmpty() && !names.at(0).isString())
            c.fail("architectures",
                   "expected an array of class names, got " + jsonText(names.at(0)) + " first");
        config.architecture = names.isEmpty() ? QString() : names.at(0).toString();
    }

    switch (config.family) {
    case ModelFamily::Gpt2:
        readGpt2(c, config);
        break;
    case ModelFamily::Bert:
        readBert(c, config);
        break;
    case ModelFamily::DistilBert:
        readDistilBert(c, config);
        break;
    case ModelFamily::Llama:
    case ModelFamily::Mistral:
    case ModelFamily::Qwen2:
        readLlama(c, config);
        break;
    }

    const bool encoder =
        config.family == ModelFamily::Bert || config.family == ModelFamily::DistilBert;
    // A BERT with is_decoder (BertLMHeadModel) masks the future like GPT-2.
    const bool bertIsDecoder = config.family == ModelFamily::Bert && c.boolean("is_decoder", false);
    config.causal = !encoder || bertIsDecoder;
    config.objective = objectiveOf(config.architecture, config.family, bertIsDecoder);
    // The checkpoint's own dtype replaces this once its weights are opened.
    config.dtype = dtypeOfTorchName(c.string("torch_dtype", "float32"));

    try {
        config.validate();
    } catch (const Error& e) {
        throw Error(nameForMessages.toStdString(), e);
    }
    return config;
}

ModelConfig readModelConfig(const QString& folder)
{
    const QString path = QDir(folder).filePath("config.json");
    if (!QFileInfo::exists(path))
        throw Error(path.toStdString() + ": missing; a Hugging Face model folder has config.json "
                                         "beside its weights");
    return parseModelConfig(readRegularFile(path, kMaxConfigBytes), "config.json");
}

} // namespace attn::core
