#pragma once

#include "core/random.h"
#include "core/seq2seq/seq2seq_training.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

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
    // "the black cat ate the mouse" -> "le chat noir a mange la souris": a small grammar with
    // the adjective after the noun and agreeing in gender, and the compound past; one to four
    // clauses joined by "and", 5 to 30 words.
    EnglishFrench,
};

std::optional<Seq2SeqTask> parseSeq2SeqTask(std::string_view name); // "dates", ...

// One sentence of the english-french task's grammar, each English word with its part of speech
// in the tags of Universal Dependencies (DET, ADJ, NOUN, VERB, CCONJ).
struct GrammarSentence
{
    QStringList english, french, partsOfSpeech;
};
GrammarSentence drawGrammarSentence(Random& random);

// SOS, EOS, then the alphabet's tokens, as the trainer makes its vocabularies.
Seq2SeqVocabulary seq2seqVocabulary(const std::vector<std::string>& alphabet);
// PyTorch's initialisation of every tensor seq2seqParameters lists: nn.Embedding N(0, 1),
// nn.Linear and nn.GRU uniform within 1/sqrt(fan_in).
void initialiseSeq2SeqWeights(Seq2SeqModel& model, Random& random);

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

// The filters of the tutorial's prepareData: both sentences fewer than `maxWords` words after
// normalising (its MAX_LENGTH, 10), and optionally the English one (the first column) starting
// with one of its eng_prefixes ("i am ", "he is", "you re ", ...).
struct Seq2SeqPairsFilter
{
    int maxWords = 10;
    bool englishPrefixes = false;
};

// A file in the format of the tutorial's eng-fra.txt: one pair a line, the source sentence, a
// tab, the target sentence (further tab-separated columns, such as an attribution, ignored);
// both normalised into words as the tutorial's normalizeString. The pairs the filter keeps are
// shuffled with `seed`; `heldOutCount` of them (at most a tenth) are held out. Throws Error
// naming the file and the line of a malformed pair (no tab, a side without words), or when the
// filter keeps none.
Seq2SeqTaskData readSeq2SeqPairs(const QString& path, const Seq2SeqPairsFilter& filter,
                                 int heldOutCount, std::uint64_t seed);

// Exact matches by source length in tokens (EOS not counted), as Bahdanau et al. 2015, Fig. 2
// plots translation quality by sentence length.
struct Seq2SeqLengthAccuracy
{
    int length = 0;
    int pairs = 0;
    int exact = 0; // decoded greedily to the target exactly, EOS included
    // The target's tokens (EOS included) and those the greedy decoding has at the same
    // position: partial credit where a long sentence is rarely exact.
    int tokens = 0;
    int rightTokens = 0;
};

// One entry per source length that `pairs` hold, shortest first.
std::vector<Seq2SeqLengthAccuracy> seq2seqAccuracyByLength(const Seq2SeqModel& model,
                                                           const std::vector<Seq2SeqPair>& pairs);
// The share of exact matches over all lengths (0 for none).
double seq2seqExactShare(const std::vector<Seq2SeqLengthAccuracy>& byLength);
// The share of target tokens decoded right at their position over all lengths (0 for none).
double seq2seqTokenShare(const std::vector<Seq2SeqLengthAccuracy>& byLength);

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
    // Curriculum learning (Bengio et al. 2009): for this many steps a batch is drawn only from
    // the pairs whose source is at most a length that grows step by step from the shortest
    // pair's to the longest's; then from all (0: from all from the start).
    int curriculumSteps = 0;
    std::uint64_t seed = 1;
};

// What a built-in task trains with from the window and the command line (a variant's choices
// aside): settings and steps measured to reach the task's accuracy in under a minute here
// (docs/SEQ2SEQ_FORMAT.md, "Training").
struct Seq2SeqTaskDefaults
{
    Seq2SeqTrainingSettings settings;
    int steps = 300;
};
Seq2SeqTaskDefaults seq2seqTaskDefaults(Seq2SeqTask task);

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
    // The same by source length.
    std::vector<Seq2SeqLengthAccuracy> heldOutAccuracyByLength() const;

    const Seq2SeqModel& model() const { return m_model; }
    const std::vector<double>& losses() const { return m_losses; }
    // The training pairs (indices into data().training) the last step drew.
    const std::vector<int>& lastBatch() const { return m_batch; }
    const Seq2SeqTaskData& data() const { return m_data; }

private:
    Seq2SeqTaskData m_data;
    Seq2SeqTrainingSettings m_settings;
    Seq2SeqModel m_model;
    std::vector<Seq2SeqExample> m_examples;
    std::vector<int> m_byLength; // the examples' indices, shortest source first (the curriculum)
    std::vector<Seq2SeqModel> m_gradientGroups; // made once: a step only zeroes them
    ClippedAdam m_adam;
    std::vector<double> m_losses;
    std::vector<int> m_batch;
    Random m_random;
};

// The files of the folder of docs/SEQ2SEQ_FORMAT.md (config.json, model.safetensors, the two
// vocabularies), as paths in `folder` and their bytes, for a writer of several files at once.
std::vector<std::pair<QString, QByteArray>> seq2seqModelFiles(const Seq2SeqModel& model,
                                                              const QString& folder);
// Those files written, every one in full before any is put in place (the folder is made if
// missing). Throws Error naming the path.
void saveSeq2SeqModel(const Seq2SeqModel& model, const QString& folder);

} // namespace attn::core
