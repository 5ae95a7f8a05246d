#pragma once

#include <cstdint>
#include <string>

namespace attn::core {

// The memory a model may still take, and what sets that bound, for the check made before its
// weights are read.
struct AvailableMemory
{
    std::int64_t bytes = -1; // -1: unknown (no /proc/meminfo), nothing is checked
    std::string limitedBy;   // "MemAvailable in /proc/meminfo", "ulimit -v", ...
};

// The least of: MemAvailable in /proc/meminfo (what the kernel can hand out without swapping:
// free memory and the page cache it can drop); memory.max less memory.current of the
// process's cgroup v2 and its parents (a container's limit, which /proc/meminfo does not
// show); the address-space limit (ulimit -v) less the address space in use; and
// ATTN_MEMORY_LIMIT_MIB where it is set (a budget of the user's; the tests use it to play a
// small machine). Throws Error for an ATTN_MEMORY_LIMIT_MIB that is not a whole number.
AvailableMemory availableMemory();

// What loading weights of `float32Bytes` (their size once converted) takes: the weights, an
// eighth more for what the loader builds beside them (each head's slices, the explorer's own
// per-head parameters) and 64 MiB for the tokenizer and a first forward pass.
std::int64_t memoryToLoad(std::int64_t float32Bytes);

// "3.9 GiB", "64.1 MiB": a size as the messages give it.
std::string memoryText(std::int64_t bytes);

} // namespace attn::core
