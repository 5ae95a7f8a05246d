#include "fault_injection.h"

#include <cstdlib>
#include <string_view>

namespace attn::gpu {

Fault injectedFault()
{
    const char* value = std::getenv("ATTN_VK_FAULT");
    if (!value)
        return Fault::None;
    const std::string_view name(value);
    for (Fault fault :
         {Fault::NoLoader, Fault::Instance, Fault::Device, Fault::OutOfMemory, Fault::DeviceLost})
        if (name == toString(fault))
            return fault;
    return Fault::None;
}

std::string toString(Fault fault)
{
    switch (fault) {
    case Fault::None:
        return "none";
    case Fault::NoLoader:
        return "no-loader";
    case Fault::Instance:
        return "instance";
    case Fault::Device:
        return "device";
    case Fault::OutOfMemory:
        return "out-of-memory";
    case Fault::DeviceLost:
        return "device-lost";
    }
    return "none";
}

} // namespace attn::gpu
