#pragma once

// attention-bench --translate: an encoder-decoder checkpoint in t5-small's shape (random
// weights) decoding word by word as the Translate tab and `--generate` do, greedy and with 4
// beams, with the key/value cache (core/model/decoder_cache.h) and without it (each step a whole
// forward over the target so far, as before the cache), in one run on this machine's CPU, against
// the same decoding in eager PyTorch with its cache (tests/bench/torch_translate.py).

#include <QString>

namespace attn::bench {

// Prints a Markdown table and writes {"translate": [{"beams", "tokens", "cached_ms",
// "uncached_ms", "torch_ms"}]} (medians) to `jsonPath` when it is not empty. `quick`: one
// sample each; `torch`: run the peer. Returns the exit code.
int runTranslateMode(bool quick, bool torch, const QString& jsonPath);

} // namespace attn::bench
