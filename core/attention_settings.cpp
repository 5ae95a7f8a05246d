#include "attention_settings.h"

#include "enum_names.h"

#include <array>
#include <limits>

namespace attn::core {
namespace {

constexpr EnumNames<ScoreKind, 5> kScoreNames{{{ScoreKind::Dot, "dot"},
                                               {ScoreKind::ScaledDot, "scaled"},
                                               {ScoreKind::Additive, "additive"},
                                               {ScoreKind::Bilinear, "bilinear"},
                                               {ScoreKind::Cosine, "cosine"}}};
constexpr EnumNames<Normalization, 5> kNormalizationNames{{{Normalization::Softmax, "softmax"},
                                                           {Normalization::Hard, "hard"},
                                                           {Normalization::Relu, "relu"},
                                                           {Normalization::Sparsemax, "sparsemax"},
                                                           {Normalization::None, "none"}}};
constexpr EnumNames<MaskFill, 2> kFillNames{
    {{MaskFill::NegativeInfinity, "-inf"}, {MaskFill::MinusNineE15, "-9e15"}}};
constexpr EnumNames<PoolMode, 2> kPoolNames{{{PoolMode::Mean, "mean"}, {PoolMode::Max, "max"}}};

} // namespace

std::string_view toString(ScoreKind kind)
{
    return enumName(kScoreNames, kind, "?");
}
std::string_view toString(Normalization normalization)
{
    return enumName(kNormalizationNames, normalization, "?");
}
std::string_view toString(MaskFill fill)
{
    return enumName(kFillNames, fill, "?");
}
std::string_view toString(PoolMode mode)
{
    return enumName(kPoolNames, mode, "?");
}
std::optional<ScoreKind> parseScoreKind(std::string_view name)
{
    return enumFromName(kScoreNames, name);
}
std::optional<Normalization> parseNormalization(std::string_view name)
{
    return enumFromName(kNormalizationNames, name);
}
std::optional<MaskFill> parseMaskFill(std::string_view name)
{
    return enumFromName(kFillNames, name);
}
std::string allNormalizationNames()
{
    return joinedEnumNames(kNormalizationNames);
}

float maskFillValue(MaskFill fill)
{
    // -9e15 is seed 000's masked_fill constant; in float32 it is -8999999815811072.
    return fill == MaskFill::NegativeInfinity ? -std::numeric_limits<float>::infinity() : -9e15f;
}

} // namespace attn::core
