#pragma once

// attention-bench --seq2seq: the encoder-decoder of PyTorch's translation tutorial at its sizes
// (H = 128, batch 32, 10-token sentences, vocabularies of 4,345 and 2,803 words), trained and
// decoded greedily on this machine's CPU, against the same model in eager PyTorch
// (../shared/bench/torch_seq2seq.py), run in the same invocation.

#include <QString>

namespace attn::bench {

// Prints a Markdown table with the peer's numbers and the ratios, and writes
// {"seq2seq": {"train_ms_per_step", "decode_ms", ...}} (medians) to `jsonPath` when it is not
// empty. `torch`: run the peer. Returns the exit code.
int runSeq2SeqMode(bool torch, const QString& jsonPath);

} // namespace attn::bench
