#pragma once

#include <string>

namespace attn::gpu {

// Test-only fault injection: ATTN_VK_FAULT=no-loader|instance|device|out-of-memory|device-lost
// makes the matching Vulkan step fail as the real fault would, so tests can prove the fallback
// to the CPU. Read at each injection point, so a test may set and clear it between steps.
// no-loader fails where a failed dlopen of the loader does (vulkan_functions.cpp); for the real
// failure, ATTN_VK_LOADER=/missing/libvulkan.so.1 (backend_factory.h lists the variables).
enum class Fault { None, NoLoader, Instance, Device, OutOfMemory, DeviceLost };

Fault injectedFault();

// "no-loader" etc.; "none".
std::string toString(Fault fault);

} // namespace attn::gpu
