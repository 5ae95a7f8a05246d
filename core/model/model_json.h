#pragma once

#include "core/model/model_result.h"

#include <QJsonObject>
#include <cstdint>

namespace attn::core {

// A model run in the --dump format (docs/DUMP_FORMAT.md, "Real models"): the model, the token
// ids and texts, every layer's heads as a single-layer dump writes them (weights always the
// full T x T), the logits at the predicted positions and the top predictions.
QJsonObject modelResultToJson(const ModelResult& result);

// How many numbers that dump holds, counted before it is built, so that a dump too large to
// write is refused with a message instead of exhausting memory.
std::int64_t modelDumpNumbers(const ModelResult& result);

} // namespace attn::core
