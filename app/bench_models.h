#pragma once

// attention-bench's model cases: whole transformers with random weights in the
// shapes of public checkpoints, opened with core::loadModel and run by core::runModel, against
// eager PyTorch (../shared/bench/torch_transformer.py).

#include "app/bench_timing.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <map>
#include <utility>
#include <vector>

namespace attn::core {
class Backend;
}

namespace attn::bench {

// "gpt2" (12 layers, d_model 768, 12 heads, MLP 3072, vocab 50257, 1024 positions, pre-norm)
// and "bert" (bert-base: vocab 30522, 512 positions, post-norm, the masked-LM head).
bool isBenchModel(const QString& name);

// Writes a random float32 checkpoint with `name`'s shapes into `folder` in the hub layout:
// config.json, model.safetensors (the hub's tensor names) and a tokenizer (GPT-2's vocab.json
// and merges.txt, BERT's vocab.txt) with one entry per id. Throws core::Error.
void writeRandomCheckpoint(const QString& name, const QString& folder);

// One phase of a model case, each in a process of its own so that its peak resident memory
// (VmHWM, reset after loading) is its own: "full", the forward at T tokens with every attention
// map and the logits of every position (the peer's work); "predicted", the same with the logits
// where the explorer predicts; "intervention", one head of layer 7 edited and the layers from 7
// up recomputed on the unedited forward. runModelCase also takes "append" (--append): one token
// appended to T - 1 cached ones (core/model/kv_cache.h), and the whole forward it saves.
QStringList modelPhases();
QJsonObject runModelCase(const QString& folder, const QString& name, core::Backend& backend, int t,
                         const QString& phase, const Budget& budget);

// The torch peer run as its docstring says: median milliseconds per (model, T). Sizes a model
// cannot take (BERT's 512 positions) are left out.
using PeerTimes = std::map<std::pair<QString, int>, double>;
// With `append`, the peer's --append mode (one token after T - 1 cached).
PeerTimes runTorchPeer(const QStringList& models, const std::vector<int>& sizes,
                       bool append = false);
bool torchAvailable(QString* why);

void printModelTables(const std::vector<QJsonObject>& cases, const PeerTimes& torch);
void printAppendTable(const std::vector<QJsonObject>& cases, const PeerTimes& torch);

} // namespace attn::bench
