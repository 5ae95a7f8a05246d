#pragma once

#include <QString>

namespace attn::core {

// Random float32 checkpoints in the Hugging Face hub layout with the shapes of public models:
// what attention-bench times and what the model window's tests measure the live update on.
// Kept in the library they describe so the benchmark and the tests share one writer.
//
// "gpt2": 12 layers, d_model 768, 12 heads, MLP 3072, vocab 50257, 1024 positions, pre-norm.
// "bert": bert-base (vocab 30522, 512 positions, post-norm, the masked-LM head).
// "t5-small": 6 + 6 layers, d_model 512, 8 heads of 64, feed-forward 2048 (ReLU), vocab 32128,
// 32 relative position buckets; its end token is the last row, so decoding runs its length.
bool isRandomCheckpointShape(const QString& name);
// The shape's longest input (its learned positions). Throws Error for an unknown name.
int randomCheckpointPositions(const QString& name);

// Writes config.json, model.safetensors (the hub's tensor names, values uniform with the
// standard deviation 0.02 of the Hugging Face initialisers, LayerNorm gains 1) and a tokenizer
// (GPT-2's vocab.json and merges.txt, BERT's vocab.txt, T5's Unigram tokenizer.json) with one entry
// per id into `folder`. Throws Error for an unknown name or a folder that cannot be written.
void writeRandomCheckpoint(const QString& name, const QString& folder);

} // namespace attn::core
