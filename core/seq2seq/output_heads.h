#pragma once

#include "core/seq2seq/seq2seq_training.h"

#include <QString>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::core {

// The two output types besides sequence to sequence (seed 001, "Output Types"): the encoder of
// the translation tutorial read by a classifier at every position (type 1: one label a word, as
// part-of-speech tagging), or by one classifier over the whole sentence (type 2: one label a
// sentence, as sentiment analysis).
enum class OutputHeadKind { Tagging, Classification };

// What the sentence classifier reads of the encoder's states h_1..h_n.
enum class SentencePooling {
    Mean,  // (1/n) sum_j h_j
    First, // h_1: BERT's [CLS] position (Devlin et al. 2019), here a word's state
    Last,  // h_n
};

std::optional<SentencePooling> parseSentencePooling(std::string_view name); // "mean", ...

struct OutputHeadModel
{
    // Only the encoder's tensors are used (the embedding and the recurrent layers; attention
    // none, the decoder's tensors unused). No EOS is appended: a word is a position.
    Seq2SeqModel encoder;
    OutputHeadKind kind = OutputHeadKind::Tagging;
    SentencePooling pooling = SentencePooling::Mean; // classification only
    Matrix weights;                                  // K x C, nn.Linear's weight transposed
    RowVector bias;                                  // C
    std::vector<std::string> labels;                 // the C classes' names
};

// The trainable tensors: the encoder's (named as in docs/SEQ2SEQ_FORMAT.md) and the head's,
// "head.weight" and "head.bias".
std::vector<Seq2SeqParameter> outputHeadParameters(OutputHeadModel& model);
OutputHeadModel zeroOutputHeadLike(const OutputHeadModel& model);

// `text` split into words as the tutorial normalises it, as ids. Throws Error naming a word the
// vocabulary lacks, or an empty sentence.
std::vector<int> outputHeadIds(const OutputHeadModel& model, const QString& text);

struct OutputHeadResult
{
    Matrix states;           // words x K: the encoder's top states, what the head reads
    RowVector pooled;        // classification: the one vector the classifier reads (K)
    Matrix probabilities;    // softmax of the logits: words x C (tagging), 1 x C
    std::vector<int> labels; // the argmax of each row
};

OutputHeadResult runOutputHead(const OutputHeadModel& model, const std::vector<int>& ids);

// A sentence as ids with its labels: one per word (tagging) or one (classification).
struct OutputHeadExample
{
    std::vector<int> ids;
    std::vector<int> labels;
};

// The negative log-likelihood of the labels (summed over the positions when tagging); adds
// d loss / d weights, scaled by `scale`, into `gradients` and returns the loss.
double accumulateOutputHeadGradients(const OutputHeadModel& model, const OutputHeadExample& example,
                                     float scale, OutputHeadModel& gradients);

} // namespace attn::core
