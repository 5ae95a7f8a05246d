#pragma once

#include <QJsonObject>

namespace attn::core {

class Trainer;

// A training run as --dump writes it under "training" (docs/DUMP_FORMAT.md):
//   {"task": "copy", "steps": 200, "learning_rate": 0.05, "loss": [first step .. last],
//    "attention_loss": "cross-entropy", "attention_weight": 1, "output_weight": 0,
//    "hard_gradient": "zero", "final": {"loss", "attention_loss", "output_loss", "accuracy"},
//    "notes": [...]}
// loss[k] is the loss at step k + 1, before its update. Non-finite numbers are written as the
// strings "inf", "-inf", "nan".
QJsonObject trainingToJson(const Trainer& trainer);

} // namespace attn::core
