#pragma once

#include "attention_result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <cstdint>

namespace attn::core {

// Every intermediate of a result, per head, with the tokens and the backend that computed
// it: the --dump format (docs/DUMP_FORMAT.md).
QJsonObject resultToJson(const AttentionResult& result);

// How many numbers resultToJson writes for `problem` computed with every intermediate kept,
// counted from its shape before anything is computed: checked against kMaxDumpNumbers.
std::int64_t resultDumpNumbers(const Problem& problem);

// The "heads" array of that format: per head Q, K, V (and the rotated Q and K where the
// problem has rotary positions), the scores when kept, weights and output.
QJsonArray headsToJson(const AttentionResult& result);
// Its "settings" object: score, normalisation, temperature, fill, scale and sizes.
QJsonObject settingsToJson(const Problem& problem);

} // namespace attn::core
