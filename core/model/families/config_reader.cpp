#include "core/model/families/config_reader.h"

#include <QByteArray>
#include <QLocale>

#include <cmath>
#include <numbers>
#include <vector>

namespace attn::core::families {

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
    if (value.isDouble()) {
        // A whole number as written in a config (2000000000, not 2e+09), up to 2^53 where
        // every integer is a double.
        const double number = value.toDouble();
        const bool whole = number == std::floor(number) && std::abs(number) <= 9007199254740992.0;
        return QByteArray::number(number, whole ? 'f' : 'g',
                                  whole ? 0 : QLocale::FloatingPointShortest)
            .toStdString();
    }
    return value.isArray() ? "an array" : "an object";
}

std::optional<Activation> activationNamed(const QString& name)
{
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
    return std::nullopt;
}

Activation parseActivation(const ConfigReader& config, const QString& key, const QString& fallback)
{
    const QString name = config.string(key, fallback);
    if (const std::optional<Activation> activation = activationNamed(name))
        return *activation;
    config.fail(key,
                quoted(name) + " is not supported (gelu, gelu_new, gelu_pytorch_tanh, relu, silu)");
}

namespace {

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

} // namespace

void setRotary(const ConfigReader& config, ModelConfig& model, int rotaryDims, double theta,
               const QString& key)
{
    if (rotaryDims < 2 || rotaryDims % 2 != 0 || rotaryDims > model.dHead)
        config.fail(key, "rotary positions need an even number of dimensions from 2 to d_head " +
                             std::to_string(model.dHead) + ", got " + std::to_string(rotaryDims));
    model.positions = PositionKind::Rotary;
    model.ropeTheta = theta;
    model.rotaryDims = rotaryDims;
    std::vector<double> frequencies = defaultInverseFrequencies(theta, rotaryDims);
    applyRopeScaling(config, frequencies);
    model.ropeInverseFrequencies.assign(frequencies.begin(), frequencies.end());
    model.ropeInverseFrequencies.resize(std::size_t(model.dHead / 2), 0.0f);
}

} // namespace attn::core::families
