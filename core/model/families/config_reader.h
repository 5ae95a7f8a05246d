#pragma once

// Private to the loader: config.json as the family files read it (families/registry.h).

#include "core/error.h"
#include "core/limits.h"
#include "core/model/model_config.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

namespace attn::core::families {

// 'text', quoted for a message.
std::string quoted(const QString& text);
// A JSON value as a message shows it: 'text', 12, true, null, "an array".
std::string jsonText(const QJsonValue& value);

// Past any real model's size (Llama 3 405B: hidden 16384, intermediate 53248, vocabulary 128256),
// and well inside an int.
inline constexpr int kMaxSize = 1000000000;

// The largest value a size key may have, and how the message names that bound.
struct SizeLimit
{
    int most;
    const char* what; // after "more than the <most>"
    bool operator==(const SizeLimit&) const = default;
};
inline constexpr SizeLimit kAnySize{kMaxSize, ""};
// The explorer's own bounds (core/limits.h), for the keys that size a head or the residual stream.
inline constexpr SizeLimit kWidth{kMaxModelWidth, " this explorer supports"};
inline constexpr SizeLimit kHeadCount{kMaxHeads, " heads this explorer supports"};

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

    // A token id that may be 0 (unlike a size), `fallback` when the key is null or absent.
    int tokenId(const QString& key, int fallback) const
    {
        if (!has(key))
            return fallback;
        const QJsonValue v = value(key);
        const double id = v.toDouble(-1);
        if (!v.isDouble() || id != std::floor(id) || id < 0 || id > kMaxSize)
            fail(key, "expected a token id (an integer from 0), got " + jsonText(v));
        return int(id);
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

// An activation by its name in transformers' ACT2FN; nullopt for a name not supported.
std::optional<Activation> activationNamed(const QString& name);
// An activation key's value (transformers' ACT2FN names); throws naming the key.
Activation parseActivation(const ConfigReader& config, const QString& key, const QString& fallback);

// Rotary positions on the first `rotaryDims` of each head's d_head dimensions (all of them, or
// GPT-NeoX's rotary_pct / Phi's partial_rotary_factor of them): config.ropeInverseFrequencies
// gets d_head / 2 values, theta^(-2i/rotaryDims) for i < rotaryDims / 2, adjusted by
// rope_scaling where the config has one, then 0 for the dimensions that do not turn (splitHeads
// moves those to the end of each half). `key` names the key that set rotaryDims.
void setRotary(const ConfigReader& config, ModelConfig& model, int rotaryDims, double theta,
               const QString& key);

} // namespace attn::core::families
