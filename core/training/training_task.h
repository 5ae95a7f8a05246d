#pragma once

#include "core/training/attention_layer.h"

#include <QString>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::core {

struct Scene;

// The small tasks a single-layer scene can be trained on. Each is defined on the
// scene's own sentence(s), so the heatmaps of the scene sharpen as the loss falls:
//
//   copy            query i attends to key i (attend to self). Target output: X_kv row i.
//   previous-token  query i attends to key i - 1 (a causal shift); row 0 has no previous
//                   token and is left out of the loss. Trained under the causal mask.
//   reverse         query i attends to key T - 1 - i. Trained without the causal mask.
//   translation     cross-attention: each target word attends to the source word the
//                   scene's own weights align it with (the argmax of its first enabled head:
//                   seed 001's French/English example hand-sets these weights), learned
//                   from fresh weights. Target output: the aligned source word's X_kv row.
//   key-value       seed 004's stored key-value pairs: every key word stores a value vector
//                   (a seeded N(0, 1) vector per word, d_model wide); each query whose word
//                   is among the keys attends to the keys of its word (cross-entropy) and
//                   outputs the value stored under it (MSE). Both parts count: from the
//                   output alone W_v W_O can fit the values behind a scrambled attention
//                   (it can permute them), so where a head looks is not determined by its
//                   output (try lambda_a = 0). Beside the scene's sentence the task uses
//                   examples with the same words shuffled (positions stay by index), so the
//                   lookup follows the word, not its place.
//
// Default losses (Trainer may override the weights lambda_a, lambda_o):
//   copy, previous-token, reverse, translation: lambda_a = 1, lambda_o = 0
//   key-value:                                  lambda_a = 1, lambda_o = 1
enum class TrainingTask { Copy, PreviousToken, Reverse, Translation, KeyValue };

std::string_view toString(TrainingTask task); // "copy", "previous-token", ...
std::optional<TrainingTask> parseTrainingTask(std::string_view name);
std::string allTrainingTaskNames();      // "copy|previous-token|..."
QString describeTask(TrainingTask task); // one sentence, for a tooltip

// One training sequence: the layer's inputs and what it should produce.
struct TrainingExample
{
    LayerInputs inputs;
    std::vector<QString> queryTokens;
    std::vector<QString> keyTokens;
    MatrixD targetWeights;         // Tq x Tk: a distribution on every counted row
    MatrixD targetOutput;          // Tq x d_model
    std::vector<bool> countedRows; // the query rows the losses average over
};

struct TrainingData
{
    TrainingTask task = TrainingTask::Copy;
    std::vector<TrainingExample> examples;
    double attentionWeight = 1.0; // the task's default lambda_a
    double outputWeight = 0.0;    // the task's default lambda_o
    // Why the loss may not reach 0, one line each ("queries 2 and 6 ("the") have the same
    // input without positions: ...").
    std::vector<QString> notes;
};

struct TaskOptions
{
    std::uint64_t valueSeed = 1; // key-value: the stored values' seed and the shuffles'
    int shuffledExamples = 3;    // key-value: examples beside the scene's own, words shuffled
    // translation: the key each query aligns with (-1: left out), instead of the argmax of
    // the scene's weights. Its size must be the number of query tokens.
    std::vector<int> alignment;
};

// The scene as the task trains it: previous-token turns the causal mask on, reverse and
// key-value turn it off; everything else is kept.
Scene sceneForTask(const Scene& scene, TrainingTask task);

// The task's data on sceneForTask(scene, task). Throws Error when the task cannot be posed
// there: translation without a source sentence, a target on a masked key ("reverse: query 0
// would attend to key 6, which the mask hides"), no counted row at all.
TrainingData makeTrainingData(const Scene& scene, TrainingTask task,
                              const TaskOptions& options = {});

} // namespace attn::core
