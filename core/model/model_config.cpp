#include "core/model/model_config.h"

#include "core/enum_names.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/model/families/registry.h"
#include "core/regular_file.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::core {

using families::ConfigReader;
using families::jsonText;

namespace {

// config.json files are a few KB; anything far larger is not one.
constexpr qint64 kMaxConfigBytes = qint64(16) << 20;

// What the checkpoint predicts, from architectures[0] (transformers' class names).
Objective objectiveOf(const QString& architecture, const families::FamilyEntry& family, bool causal)
{
    if (architecture.isEmpty()) // old configs: the family's usual head; the loader drops it
        return family.maskedLmByDefault ? Objective::MaskedLm // when absent
                                        : Objective::CausalLm;
    if (architecture.endsWith("ForMaskedLM") || architecture == "BertForPreTraining")
        return Objective::MaskedLm;
    if (architecture.endsWith("LMHeadModel") || architecture.endsWith("ForCausalLM") ||
        architecture == "GPT2DoubleHeadsModel" ||
        architecture.endsWith("ForConditionalGeneration") || // BART: the decoder's next token
        architecture == "MarianMTModel")
        return causal ? Objective::CausalLm : Objective::MaskedLm; // BERT without is_decoder
    // GPT2Model, BertModel, LlamaModel and the task heads (*ForSequenceClassification, ...)
    // whose weights we do not use: the transformer alone, no prediction.
    return Objective::None;
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

constexpr EnumNames<NormKind, 2> kNormNames{
    {{NormKind::LayerNorm, "LayerNorm"}, {NormKind::RmsNorm, "RMSNorm"}}};
constexpr EnumNames<Activation, 4> kActivationNames{{{Activation::GeluTanh, "gelu (tanh)"},
                                                     {Activation::GeluErf, "gelu (erf)"},
                                                     {Activation::Silu, "silu"},
                                                     {Activation::Relu, "relu"}}};

} // namespace

std::string_view toString(ModelFamily family)
{
    return family ? std::string_view(family->modelType) : std::string_view("?");
}

std::string_view toString(NormKind kind)
{
    return enumName(kNormNames, kind, "?");
}

std::string_view toString(Activation activation)
{
    return enumName(kActivationNames, activation, "?");
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
    return layer + (c.sharedBlockNorm ? 1 : 2) * normWeights(c);
}

} // namespace

void ModelConfig::validate() const
{
    // The family's own key names, so that the message points into config.json.
    static constexpr families::ConfigKeys kDefaultKeys{"hidden_size", "num_attention_heads",
                                                       "num_hidden_layers", "intermediate_size",
                                                       "max_position_embeddings"};
    const families::ConfigKeys& keys = family ? family->keys : kDefaultKeys;
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
    } else if (positions == PositionKind::RelativeBias) { // T5's d_kv too
        positive("d_kv", dHead);
        positive("relative_attention_num_buckets", relativeBuckets);
        positive("relative_attention_max_distance", relativeMaxDistance);
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
    if (encoderDecoder() && (decoderStartToken < 0 || decoderStartToken >= vocab))
        fail("decoder_start_token_id", "expected a token id from 0 to " +
                                           std::to_string(vocab - 1) + ", got " +
                                           std::to_string(decoderStartToken));
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
        for (std::size_t i = 0; i < ropeInverseFrequencies.size(); ++i) {
            const float f = ropeInverseFrequencies[i];
            const bool turns = int(i) < rotaryDims / 2; // the rest are 0: they do not turn
            if (turns ? !(f > 0) || !std::isfinite(f) : f != 0.0f)
                fail("rope_theta", "the inverse frequencies must be positive and finite");
        }
    }
    if (parallelResidual && placement != NormPlacement::Pre)
        fail("use_parallel_residual", "a parallel block normalises its input (pre-norm)");
    if (slidingWindow && *slidingWindow < 1)
        fail("sliding_window", "must be a positive integer, got " + std::to_string(*slidingWindow));
}

long long ModelConfig::parameterCount() const
{
    const long long d = dModel;
    const long long normSize = normWeights(*this);

    if (encoderDecoder() && positions == PositionKind::RelativeBias) {
        // T5: the shared embedding, a relative bias table and a final norm per side, the
        // encoder's layers, the decoder's with cross-attention (no biases) and its norm, and
        // lm_head where untied.
        const long long inner = (long long)(heads)*dHead;
        long long total = (long long)(vocab)*d + 2LL * relativeBuckets * heads + 2 * normSize +
                          weightsPerLayer(*this) * (encoderLayers + layers) +
                          (4 * d * inner + normSize) * layers;
        if (!tiedEmbeddings)
            total += (long long)(vocab)*d;
        return total;
    }
    if (encoderDecoder()) {
        // BART: the shared token embedding, each side's positions and embedding norm, the
        // encoder's layers, the decoder's with cross-attention and its norm, final_logits_bias.
        ModelConfig encoder = *this;
        encoder.heads = encoder.kvHeads = encoderHeads;
        encoder.dHead = dModel / encoderHeads;
        encoder.dFeedForward = encoderFeedForward;
        const long long cross = 4 * d * d + (qkvBias ? 3 * d : 0) + (outputBias ? d : 0) + normSize;
        // BART's layernorm_embedding on each side; Marian (static positions) has none.
        const bool embeddingNorms = toString(family) != "marian";
        long long total = (long long)(vocab)*d + 2 * (maxPositions + positionOffset) * d +
                          (embeddingNorms ? 2 * normSize : 0) +
                          weightsPerLayer(encoder) * encoderLayers +
                          (weightsPerLayer(*this) + cross) * layers + vocab;
        if (!tiedEmbeddings)
            total += (long long)(vocab)*d;
        return total;
    }

    long long count = (long long)(vocab)*d;
    if (positions == PositionKind::Learned)
        count += (long long)(maxPositions + positionOffset) * d;
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
    if (objective == Objective::CausalLm && headBias)
        count += vocab;
    return count;
}

namespace {

// A token id the vocabulary has, from a JSON number.
int generationToken(const QJsonValue& value, const std::string& where, int vocab)
{
    const double id = value.toDouble(-1.0);
    if (!value.isDouble() || id != std::floor(id) || id < 0 || id >= vocab)
        throw Error(where, "expected a token id from 0 to " + std::to_string(vocab - 1) + ", got " +
                               jsonText(value));
    return int(id);
}

// Drops the end token from the banned ones, as NoBadWordsLogitsProcessor does.
void keepEndToken(ModelConfig& config)
{
    auto& banned = config.generation.bannedTokens;
    banned.erase(std::remove(banned.begin(), banned.end(), config.eosToken), banned.end());
}

} // namespace

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
        c.fail("model_type", "missing (one of " + families::supportedModelTypes() + " is needed)");
    config.modelType = c.string("model_type", {});
    config.family = families::findFamily(config.modelType.toStdString());
    if (!config.family)
        c.fail("model_type", families::quoted(config.modelType) + " is not supported (" +
                                 families::supportedModelTypes() + ")");
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

    config.family->readConfig(c, config);
    config.objective = objectiveOf(config.architecture, *config.family, config.causal);
    // The checkpoint's own dtype replaces this once its weights are opened.
    config.dtype = dtypeOfTorchName(c.string("torch_dtype", "float32"));

    try {
        config.validate();
    } catch (const Error& e) {
        throw Error(nameForMessages.toStdString(), e);
    }
    readGenerationKeys(document.object(), nameForMessages, config.vocab, config.generation);
    keepEndToken(config);
    return config;
}

void readGenerationKeys(const QJsonObject& object, const QString& nameForMessages, int vocab,
                        CheckpointGeneration& generation)
{
    const std::string file = nameForMessages.toStdString();
    auto has = [&](const char* key) {
        return object.contains(QLatin1String(key)) && !object.value(QLatin1String(key)).isNull();
    };
    if (has("bad_words_ids")) {
        const std::string key = file + ": bad_words_ids";
        const QJsonValue value = object.value(QStringLiteral("bad_words_ids"));
        const QJsonArray entries = value.toArray();
        if (!value.isArray())
            throw Error(key, "expected a list of lists of token ids, got " + jsonText(value));
        if (entries.isEmpty())
            throw Error(key, "an empty list; a list of lists of token ids is needed");
        CheckpointGeneration read = generation;
        read.bannedTokens.clear();
        read.unappliedBadWords = 0;
        for (qsizetype i = 0; i < entries.size(); ++i) {
            const std::string where = key + "[" + std::to_string(i) + "]";
            const QJsonArray ids = entries.at(i).toArray();
            if (!entries.at(i).isArray() || ids.isEmpty())
                throw Error(where, "expected a non-empty list of token ids, got " +
                                       jsonText(entries.at(i)));
            for (qsizetype j = 0; j < ids.size(); ++j)
                generationToken(ids.at(j), where + "[" + std::to_string(j) + "]", vocab);
            if (ids.size() == 1)
                read.bannedTokens.push_back(ids.at(0).toInt());
            else
                ++read.unappliedBadWords;
        }
        generation = std::move(read);
    }
    if (has("forced_eos_token_id")) {
        const std::string key = file + ": forced_eos_token_id";
        const QJsonValue value = object.value(QStringLiteral("forced_eos_token_id"));
        std::vector<int> ids;
        if (value.isArray()) {
            const QJsonArray list = value.toArray();
            for (qsizetype i = 0; i < list.size(); ++i)
                ids.push_back(
                    generationToken(list.at(i), key + "[" + std::to_string(i) + "]", vocab));
        } else {
            ids.push_back(generationToken(value, key, vocab));
        }
        generation.forcedEos = std::move(ids);
    }
    if (has("eos_token_id")) {
        const QJsonValue value = object.value(QStringLiteral("eos_token_id"));
        std::vector<int> ids;
        if (value.isDouble())
            ids.push_back(value.toInt());
        for (const QJsonValue id : value.toArray())
            if (id.isDouble())
                ids.push_back(id.toInt());
        if (!ids.empty())
            generation.endTokens = std::move(ids);
    }
    if (has("max_length")) {
        const QJsonValue value = object.value(QStringLiteral("max_length"));
        const double length = value.toDouble(-1.0);
        if (!value.isDouble() || length != std::floor(length) || length < 1 || length > 1e6)
            throw Error(file + ": max_length",
                        "expected a whole number of tokens from 1 to 1000000, got " +
                            jsonText(value));
        generation.maxLength = int(length);
    }
}

ModelConfig readModelConfig(const QString& folder)
{
    const QString path = QDir(folder).filePath("config.json");
    if (!QFileInfo::exists(path))
        throw Error(path.toStdString() + ": missing; a Hugging Face model folder has config.json "
                                         "beside its weights");
    ModelConfig config = parseModelConfig(readRegularFile(path, kMaxConfigBytes), "config.json");
    const QString generationPath = QDir(folder).filePath("generation_config.json");
    if (QFileInfo::exists(generationPath)) {
        const QByteArray json = readRegularFile(generationPath, kMaxConfigBytes);
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(json, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject())
            throw Error("generation_config.json",
                        error.error != QJsonParseError::NoError
                            ? "not valid JSON: " + error.errorString().toStdString() +
                                  " at offset " + std::to_string(error.offset)
                            : std::string("not a JSON object"));
        const QJsonObject object = document.object();
        readGenerationKeys(object, QStringLiteral("generation_config.json"), config.vocab,
                           config.generation);
        // generate() takes the decoder start token from the generation config when it has one.
        const QJsonValue start = object.value(QStringLiteral("decoder_start_token_id"));
        if (config.encoderDecoder() && !start.isUndefined() && !start.isNull())
            config.decoderStartToken = generationToken(
                start, "generation_config.json: decoder_start_token_id", config.vocab);
        keepEndToken(config);
    }
    return config;
}

} // namespace attn::core
