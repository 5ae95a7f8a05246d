#include "core/allocator.h"

#include <cstdlib> // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attn::core {

void keepFreedMemoryForReuse()
{
#if defined(__GLIBC__)
    // mallopt(3). Setting either value also ends glibc's own adjustment of both.
    mallopt(M_MMAP_THRESHOLD, 32 << 20); // the largest glibc accepts on 64-bit systems
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

} // namespace attn::core
