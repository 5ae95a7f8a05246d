#pragma once

#include "core/random.h"
#include "core/seq2seq/output_heads.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::core {

// The built-in tasks of the two output heads, on the English side of the english-french
// grammar (drawGrammarSentence):
//  tagging: each word's part of speech (DET, ADJ, NOUN, VERB, CCONJ);
//  classification: is the sentence happy, sad or neither: "happy" or "sad" anywhere among its
//  up to 30 words (sentences with both are not drawn), so the label needs the whole sentence;
//  the three classes in equal numbers.
std::optional<OutputHeadKind> parseOutputHeadTask(std::string_view name); // "tagging", ...
std::string_view outputHeadTaskName(OutputHeadKind kind);

struct LabelledSentence
{
    QString text;
    std::vector<int> labels; // one per word, or one
};

struct OutputHeadTaskData
{
    OutputHeadKind kind = OutputHeadKind::Tagging;
    std::vector<std::string> alphabet; // every word a sentence can hold
    std::vector<std::string> labels;   // the classes' names
    std::vector<LabelledSentence> training;
    std::vector<LabelledSentence> heldOut; // none of them among the training sentences
};

OutputHeadTaskData makeOutputHeadTask(OutputHeadKind kind, int trainingCount, int heldOutCount,
                                      std::uint64_t seed);

struct OutputHeadSettings
{
    SentencePooling pooling = SentencePooling::Mean;
    Seq2SeqCell cell = Seq2SeqCell::Gru;
    bool bidirectional = false;
    int hiddenSize = 16;
    int batchSize = 16;
    double learningRate = 0.01; // Adam's alpha
    double clipNorm = 5.0;
    std::uint64_t seed = 1;
};

// Trains a fresh encoder and head on a task's sentences with Adam, minibatches drawn at random
// with the seed, the gradient's global norm clipped; one thread, so a seed gives one model.
class OutputHeadTrainer
{
public:
    OutputHeadTrainer(OutputHeadTaskData data, const OutputHeadSettings& settings);

    // One minibatch; returns its loss per label (the mean negative log-likelihood).
    double step();
    // The share of held-out labels predicted right: words when tagging, sentences otherwise.
    double heldOutAccuracy() const;

    const OutputHeadModel& model() const { return m_model; }
    const std::vector<double>& losses() const { return m_losses; }
    const OutputHeadTaskData& data() const { return m_data; }

private:
    OutputHeadTaskData m_data;
    OutputHeadSettings m_settings;
    OutputHeadModel m_model;
    OutputHeadModel m_gradients;
    std::vector<OutputHeadExample> m_examples, m_heldOut;
    ClippedAdam m_adam;
    std::vector<double> m_losses;
    Random m_random;
};

// The share of `examples`' labels `model` predicts (0 for none).
double outputHeadAccuracy(const OutputHeadModel& model,
                          const std::vector<OutputHeadExample>& examples);

} // namespace attn::core
