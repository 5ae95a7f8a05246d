#pragma once

namespace attn::core {

// Asks the C library's allocator to keep freed memory for the next compute instead of handing
// it back to the system at once. By default glibc maps blocks larger than 128 KiB to 32 MiB on
// their own and returns the top of its heap once 128 KiB to 64 MiB of it is free (it adjusts
// both as it goes), so every forward of a model paid again for the pages of the last one: a
// GPT-2-shaped forward took 18,000 page faults at T = 128 and 124,000 at T = 512 (72 and
// 485 MiB of pages the kernel zeroes), a tenth of its time. With this, blocks of up to 32 MiB come
// from the heap, and up to 1 GiB of free heap stays with the process; larger blocks (logits over a
// whole vocabulary, a 16,384-token scene's matrices) are still mapped and unmapped on their
// own. Peak memory is unchanged: the kept memory is what the next compute uses. Call once at
// start, before threads allocate. Does nothing where the C library is not glibc.
void keepFreedMemoryForReuse();

} // namespace attn::core
