#pragma once

#include "attention_result.h"

#include <QJsonObject>

namespace attn::core {

// Every intermediate of a result, per head, with the tokens and the backend that computed
// it: the --dump format (docs/DUMP_FORMAT.md).
QJsonObject resultToJson(const AttentionResult& result);

} // namespace attn::core
