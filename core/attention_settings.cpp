#include "attention_settings.h"

#include <array>
#include <limits>

namespace attn::core {
namespace {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

constexpr NameTable<ScoreKind, 5> kScoreNames{{{ScoreKind::Dot, "dot"},
                                               {ScoreKind::ScaledDot, "scaled"},
                                               {ScoreKind::Additive, "additive"},
                                               {ScoreKind::Bilinear, "bilinear"},
                                               {ScoreKind::Cosine, "cosine"}}};
constexpr NameTable<Normalization, 5> kNormalizationNames{{{Normalization::Softmax, "softmax"},
                                                           {Normalization::Hard, "hard"},
                                                           {Normalization::Relu, "relu"},
                                                           {Normalization::Sparsemax, "sparsemax"},
                                                           {Normalization::None, "none"}}};
constexpr NameTable<MaskFill, 2> kFillNames{
    {{MaskFill::NegativeInfinity, "-inf"}, {MaskFill::MinusNineE15, "-9e15"}}};
constexpr NameTable<PoolMode, 2> kPoolNames{{{PoolMode::Mean, "mean"}, {PoolMode::Max, "max"}}};

template <typename Enum, std::size_t N>
std::string_view nameOf(const NameTable<Enum, N>& table, Enum value)
{
    for (const auto& [candidate, name] : table)
        if (candidate == value)
            return name;
    return "?";
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueOf(const NameTable<Enum, N>& table, std::string_view name)
{
    for (const auto& [value, candidate] : table)
        if (candidate == name)
            return value;
    return std::nullopt;
}

template <typename Enum, std::size_t N> std::string joinedNames(const NameTable<Enum, N>& table)
{
    std::string joined;
    for (const auto& entry : table) {
        if (!joined.empty())
            joined += '|';
        joined += entry.second;
    }
    return joined;
}

} // namespace

std::string_view toString(ScoreKind kind)
{
    return nameOf(kScoreNames, kind);
}
std::string_view toString(Normalization normalization)
{
    return nameOf(kNormalizationNames, normalization);
}
std::string_view toString(MaskFill fill)
{
    return nameOf(kFillNames, fill);
}
std::string_view toString(PoolMode mode)
{
    return nameOf(kPoolNames, mode);
}
std::optional<ScoreKind> parseScoreKind(std::string_view name)
{
    return valueOf(kScoreNames, name);
}
std::optional<Normalization> parseNormalization(std::string_view name)
{
    return valueOf(kNormalizationNames, name);
}
std::optional<MaskFill> parseMaskFill(std::string_view name)
{
    return valueOf(kFillNames, name);
}
std::string allNormalizationNames()
{
    return joinedNames(kNormalizationNames);
}

float maskFillValue(MaskFill fill)
{
    // -9e15 is seed 000's masked_fill constant; in float32 it is -8999999815811072.
    return fill == MaskFill::NegativeInfinity ? -std::numeric_limits<float>::infinity() : -9e15f;
}

} // namespace attn::core
