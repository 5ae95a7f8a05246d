#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace attn::gpu {

// SPIR-V of gpu/shaders/NAME.comp, compiled by glslc at build time and embedded by
// cmake/EmbedShaders.cmake (defined in the generated embedded_shaders.cpp). Empty when
// no such shader was built.
std::span<const std::uint32_t> embeddedShader(std::string_view name);

} // namespace attn::gpu
