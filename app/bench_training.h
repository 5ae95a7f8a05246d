#pragma once

// attention-bench --training: steps per second of core::Trainer at the sizes the
// window trains (T <= 16, d_model <= 64), every score function, on this machine's CPU.

#include <QJsonArray>
#include <QString>

namespace attn::bench {

// Prints a Markdown table of steps per second (wall clock, and per CPU-second of this
// process, which a busy machine does not lower) and returns the measurements. `quick`: fewer
// steps per case.
QJsonArray runTrainingBenchmark(bool quick);

// attention-bench --training: the table above, and {"training": [...]} written to `jsonPath`
// when it is not empty. Returns the exit code.
int runTrainingMode(bool quick, const QString& jsonPath);

} // namespace attn::bench
