#include "fault_injection.h"

#include "core/enum_names.h"

#include <cstdlib>
#include <string_view>

namespace attn::gpu {
namespace {

constexpr core::EnumNames<Fault, 6> kFaultNames{{{Fault::None, "none"},
                                                 {Fault::NoLoader, "no-loader"},
                                                 {Fault::Instance, "instance"},
                                                 {Fault::Device, "device"},
                                                 {Fault::OutOfMemory, "out-of-memory"},
                                                 {Fault::DeviceLost, "device-lost"}}};

} // namespace

Fault injectedFault()
{
    const char* value = std::getenv("ATTN_VK_FAULT");
    if (!value)
        return Fault::None;
    return core::enumFromName(kFaultNames, std::string_view(value)).value_or(Fault::None);
}

std::string toString(Fault fault)
{
    return std::string(core::enumName(kFaultNames, fault, "none"));
}

} // namespace attn::gpu
