#pragma once

// attention-bench --tokenizer DIR: encoding speed of one Hugging Face tokenizer folder on the
// seeds' text (the five teaching notes, the cat-and-mouse sentence in twelve languages among them),
// repeated to about 1 MB. It measures the tokenizer's own parts (the pre-tokenizer's pattern, the
// normalizer, the model), so a change of regex engine or Unicode tables can be weighed.

#include <QString>

namespace attn::bench {

// Prints MB/s and tokens/s (medians) and writes {"tokenizer": {"folder", "bytes", "tokens",
// "encode_ms", "mb_per_s"}} to `jsonPath` when it is not empty. Returns the exit code.
int runTokenizerMode(const QString& folder, const QString& textPath, const QString& jsonPath);

} // namespace attn::bench
