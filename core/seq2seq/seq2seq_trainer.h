#pragma once

#include "core/random.h"
#include "core/seq2seq/seq2seq_training.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace attn::core {

// The built-in tasks a sequence-to-sequence model learns in under a minute.
enum class Seq2SeqTask {
    Dates,   // "27 nov 2026", "november 27, 2026", "27/11/26", "27.11.2026" -> "2026-11-27"
    Reverse, // "c a f b" -> "b f a c"
    Copy,    // "c a f b" -> "c a f b"
    Sort,    // "c a f b" -> "a b c f"
};

std::optional<Seq2SeqTask> parseSeq2SeqTask(std::string_view name); // "dates", ...

struct Seq2SeqPair
{
    QString source;
    QString target;
};

struct Seq2SeqTaskData
{
    Seq2SeqTokens tokens = Seq2SeqTokens::Words;
    std::vector<Seq2SeqPair> training;
    std::vector<Seq2SeqPair> heldOut; // none of them among the training pairs
    std::vector<std::string> sourceAlphabet, targetAlphabet; // every token a pair can hold
};

// `trainingCount` + `heldOutCount` distinct pairs drawn with `seed`.
Seq2SeqTaskData makeSeq2SeqTask(Seq2SeqTask task, int trainingCount, int heldOutCount,
                                std::uint64_t seed);

struct Seq2SeqTrainingSettings
{
    Seq2SeqAttention attention = Seq2SeqAttention::Bahdanau;
    Seq2SeqCell cell = Seq2SeqCell::Gru;
    int layers = 1;
    bool bidirectional = false;
    int hiddenSize = 64;
    int batchSize = 32;
    double learningRate = 0.005; // Adam's alpha
    double teacherForcing = 1.0; // the share of steps fed the target's word, not the argmax
    double clipNorm = 5.0;       // the gradient's norm is cut to this (0: never)
    std::uint64_t seed = 1;
};

// Trains a fresh model, in the tutorial's architecture, on a task's pairs with Adam (Kingma &
// Ba 2015, Algorithm 1), minibatches drawn at random, the gradient's global norm clipped.
// Deterministic for a seed on any number of cores: a batch's pairs are split into a fixed
// number of groups whose gradients are added in a fixed order.
class Seq2SeqTrainer
{
public:
    Seq2SeqTrainer(Seq2SeqTaskData data, const Seq2SeqTrainingSettings& settings);

    // One minibatch; returns its loss per target token (the mean negative log-likelihood).
    double step();
    // The share of held-out pairs that greedy decoding translates exactly.
    double heldOutAccuracy() const;

    const Seq2SeqModel& model() const { return m_model; }
    const std::vector<double>& losses() const { return m_losses; }
    const Seq2SeqTaskData& data() const { return m_data; }

private:
    Seq2SeqTaskData m_data;
    Seq2SeqTrainingSettings m_settings;
    Seq2SeqModel m_model;
    std::vector<Seq2SeqExample> m_examples;
    std::vector<Seq2SeqModel> m_gradientGroups; // made once: a step only zeroes them
    std::vector<std::vector<float>> m_firstMoments, m_secondMoments;
    std::vector<double> m_losses;
    Random m_random;
    int m_steps = 0;
};

// The files of the folder of docs/SEQ2SEQ_FORMAT.md (config.json, model.safetensors, the two
// vocabularies), as paths in `folder` and their bytes, for a writer of several files at once.
std::vector<std::pair<QString, QByteArray>> seq2seqModelFiles(const Seq2SeqModel& model,
                                                              const QString& folder);
// Those files written, every one in full before any is put in place (the folder is made if
// missing). Throws Error naming the path.
void saveSeq2SeqModel(const Seq2SeqModel& model, const QString& folder);

} // namespace attn::core
