#pragma once

#include "cpu_backend.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace attn::core {

// Which backend a user asks for: --backend auto|cpu|vulkan, the model window's Compute menu.
enum class BackendChoice { Auto, Cpu, Vulkan };

// The backends a program offers, handed to whoever makes backends without knowing them (the
// windows): gpu::backendFactory() offers the Vulkan backend's, as core::Backend is implemented
// there. Default-constructed, it offers the CPU backend only, with no devices.
struct BackendFactory
{
    // A Vulkan device, as Help > About describes the one computing.
    struct Device
    {
        std::string name; // as Backend::deviceName() gives it
        std::string apiVersion;
        std::string driverName;
        std::string driverInfo;
    };

    using Create = std::function<std::unique_ptr<Backend>(
        BackendChoice choice, const std::string& deviceSelector, std::string* notice)>;

    // The backend `choice` asks for on the device `deviceSelector` names (empty: the default).
    // Where it is not the one asked for, *notice says why in one line. Throws Error when the
    // selector names no device.
    Create create = [](BackendChoice, const std::string&,
                       std::string*) -> std::unique_ptr<Backend> {
        return std::make_unique<CpuBackend>();
    };
    // Every Vulkan device; empty where there is none.
    std::function<std::vector<Device>()> devices = [] { return std::vector<Device>(); };
    // The Vulkan headers the backends were built with ("1.3.239"); empty without Vulkan.
    std::string vulkanHeaders;
};

} // namespace attn::core
