#pragma once

#include "matrix.h"

#include <functional>

namespace attn::core {

// Runs job(index, thread) for every index in [0, count) on the calling thread and one helper
// thread per further core (OMP_NUM_THREADS or the core count); thread < parallelThreads().
// Jobs are taken from a counter; every thread multiplies with Eigen serially. The first
// exception a job throws is rethrown here once the batch has stopped.
void parallelFor(int count, const std::function<void(int index, int thread)>& job);
int parallelThreads();

// The same on the calling thread alone (thread 0), Eigen kept serial as in every job: for work
// smaller than a hand-off to the helpers costs.
void serialFor(int count, const std::function<void(int index, int thread)>& job);

} // namespace attn::core
