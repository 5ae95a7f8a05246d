#pragma once

#include "scene.h"

#include <string_view>

// What scene_json.cpp (reading) and scene_to_json.cpp (writing) share; not public API.
namespace attn::core::scene_json_detail {

constexpr const char* kFormatName = "attention-explorer-scene";

// The tokenizer's names in the scene format (defined in scene_json.cpp).
std::string_view modeName(TokenizerMode mode);
std::string_view specialName(SpecialTokens special);

} // namespace attn::core::scene_json_detail
