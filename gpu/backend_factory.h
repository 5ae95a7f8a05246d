#pragma once

#include "core/backend.h"
#include "core/backend_factory.h"
#include "physical_device.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::gpu {

// Environment variables read by the Vulkan backend:
//   ATTN_VK_LOADER=PATH         the Vulkan loader to open (default libvulkan.so.1); tests point
//                               it at a missing file to take the no-loader path for real
//   ATTN_VK_DEVICE=INDEX|NAME   the device, when no selector is given (as --vk-device)
//   ATTN_VK_VALIDATION=1        Khronos validation layer and a message counter (tests set it)
//   ATTN_VK_VARIANT=registers|shared   force the CPU-device or the GPU shader shapes
//   ATTN_VK_PIPELINE_CACHE=PATH|off    where the pipeline cache lives, or none
// and, for tests only:
//   ATTN_VK_FAULT=no-loader|instance|device|out-of-memory|device-lost   inject that fault
//   ATTN_VK_FORCE_STAGING=1     the discrete-GPU staging-buffer path on a shared-memory device
//   ATTN_VK_CHUNK_BYTES=N       small row chunks, so short inputs take the long-input path

// --backend auto|cpu|vulkan.
using core::BackendChoice;

std::optional<BackendChoice> parseBackendChoice(std::string_view name);
std::string_view toString(BackendChoice choice);

// What --backend auto computes on, decided from the Vulkan devices there are (`selector` as
// effectiveDeviceSelector gives it). The CPU backend where there is no device, and where the
// device Vulkan would use is a CPU implementation (lavapipe, on machines without a GPU): that
// is several times slower than the CPU backend on every case measured (docs/PERFORMANCE.md),
// for attention and for whole models, so the device type decides without a measurement.
// Vulkan on a GPU, and on any device a selector names. `reason` is one line for the status bar.
struct AutoBackendDecision
{
    BackendChoice backend = BackendChoice::Cpu;
    std::string reason;
};
AutoBackendDecision decideAutoBackend(const std::vector<DeviceInfo>& devices,
                                      const std::string& selector);

// The backend to compute with. Cpu: core::CpuBackend. Vulkan: a FallbackBackend around the
// Vulkan backend on the selected device (deviceSelector, else ATTN_VK_DEVICE, else the
// preferred device), which switches to the CPU if the device fails later. Auto: what
// decideAutoBackend says; where that is the CPU, *notice says why. When Vulkan cannot start at
// all (no loader, no device, instance or device creation failing) Auto and Vulkan give the CPU
// backend and set *notice to one line saying why, for the status bar and stderr.
// Throws core::Error when the selector names no existing device.
std::unique_ptr<core::Backend>
createBackend(BackendChoice choice, const std::string& deviceSelector, std::string* notice);

// Every Vulkan device for --list-devices; empty when Vulkan is unavailable.
std::vector<DeviceInfo> listDevices();

// createBackend, listDevices and the Vulkan headers' version, for the windows (app hands it
// to ui, which knows no Vulkan).
core::BackendFactory backendFactory();

// "0: llvmpipe (LLVM 15.0.6, 256 bits) [CPU] driver llvmpipe (Mesa 22.3.6 (LLVM 15.0.6)),
// Vulkan 1.3.230"
std::string describe(const DeviceInfo& device);

} // namespace attn::gpu
