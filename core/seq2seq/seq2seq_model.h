#pragma once

#include "core/matrix.h"

#include <QString>

#include <map>
#include <string>
#include <vector>

namespace attn::core {

// An RNN encoder-decoder with attention, in the layout of PyTorch's tutorial "NLP From Scratch:
// Translation with a Sequence to Sequence Network and Attention" (EncoderRNN, AttnDecoderRNN
// with BahdanauAttention, and DecoderRNN without attention). The folder format is described in
// docs/SEQ2SEQ_FORMAT.md.

enum class Seq2SeqAttention {
    None,     // the decoder sees only the encoder's final state (Cho et al. 2014)
    Bahdanau, // score = v^T tanh(W_a s + U_a h_j), Bahdanau, Cho & Bengio 2015, eq. (6) and A.1.2
};

// How a sentence becomes tokens: the tutorial's words, or every character as it is (for tasks
// such as dates, "27/11/26", where the tutorial's normalisation would drop the digits).
enum class Seq2SeqTokens { Words, Characters };

// The tutorial's Lang: word -> index, SOS = 0 and EOS = 1 among the words.
struct Seq2SeqVocabulary
{
    static constexpr int kSos = 0;
    static constexpr int kEos = 1;
    std::map<std::string, int> index;
    std::vector<std::string> words; // index -> word ("" where no word has that index)
};

// One nn.GRU layer (batch_first, unidirectional) in the row convention: x * inputWeights +
// inputBias gives the three gates' input parts side by side, r | z | n, as PyTorch stacks them.
struct GruLayer
{
    Matrix inputWeights;  // in x 3H  (weight_ih_l0 transposed)
    Matrix hiddenWeights; // H x 3H   (weight_hh_l0 transposed)
    RowVector inputBias;  // 3H
    RowVector hiddenBias; // 3H
};

struct Seq2SeqModel
{
    Seq2SeqAttention attention = Seq2SeqAttention::Bahdanau;
    Seq2SeqTokens tokens = Seq2SeqTokens::Words;
    int hiddenSize = 0;
    int maxLength = 0; // decoding stops after this many tokens without EOS
    Seq2SeqVocabulary source;
    Seq2SeqVocabulary target;

    Matrix encoderEmbedding; // V_src x H
    GruLayer encoderGru;     // H -> H
    Matrix decoderEmbedding; // V_tgt x H
    // Bahdanau attention: nn.Linear Wa, Ua (H -> H), Va (H -> 1), as H x H, H x H, H x 1.
    Matrix wa, ua, va;
    RowVector waBias, uaBias;
    float vaBias = 0.0f;
    GruLayer decoderGru; // [embedded; context] (2H) -> H with attention, H -> H without
    Matrix out;          // H x V_tgt
    RowVector outBias;   // V_tgt
};

// What one decoder step computed, for the views and the dump.
struct Seq2SeqStep
{
    int inputId = 0;     // the token fed in (SOS first, then the previous output)
    RowVector query;     // the decoder state the scores were taken with (H)
    RowVector scores;    // over the source positions (empty without attention)
    RowVector attention; // softmax of the scores
    RowVector context;   // the weighted sum of the encoder states (H)
    RowVector hidden;    // the decoder state after the step (H)
    RowVector logProbs;  // log_softmax over the target vocabulary
    int outputId = 0;    // the argmax
};

struct Seq2SeqDecoding
{
    std::vector<std::string> sourceWords; // normalised, EOS not included
    std::vector<int> sourceIds;           // EOS appended, as the tutorial's tensorFromSentence
    Matrix encoderStates;                 // source length x H: the keys and values
    std::vector<Seq2SeqStep> steps;
    std::vector<int> outputIds;  // EOS included when produced
    double logProbability = 0.0; // of the output ids, summed
};

// The tutorial's normalizeString: lower case, accents stripped (NFD, marks dropped), ".!?" set
// apart, every other run of non-letters a space; then split on spaces.
std::vector<std::string> normalizeSeq2SeqSource(const QString& text);

// The tokens of `text` as the model splits it: normalised words, or characters.
std::vector<std::string> seq2seqTokens(Seq2SeqTokens tokens, const QString& text);
// Target ids as text (EOS and what follows left out): words joined by spaces, characters as
// they are.
QString seq2seqTargetText(const Seq2SeqModel& model, const std::vector<int>& ids);

// Reads config.json, model.safetensors and the two vocabularies. Throws Error naming the file
// and the tensor, key or word that is wrong.
Seq2SeqModel loadSeq2SeqModel(const QString& folder);

// Greedy decoding of `text` until EOS or model.maxLength tokens. Throws Error naming a source
// word the vocabulary lacks.
Seq2SeqDecoding decodeGreedy(const Seq2SeqModel& model, const QString& text);
// The same from source ids (EOS must already be appended).
Seq2SeqDecoding decodeGreedyIds(const Seq2SeqModel& model, const std::vector<int>& sourceIds);

// Beam search of `width` hypotheses: each step keeps the `width` likeliest extensions (summed
// log-probabilities); a hypothesis ends at EOS, and the search when `width` have ended or at
// max_length. The result is the ended (or cut-off) hypothesis of the highest mean log-probability
// per token. Width 1 is greedy decoding.
Seq2SeqDecoding decodeBeam(const Seq2SeqModel& model, const QString& text, int width);
Seq2SeqDecoding decodeBeamIds(const Seq2SeqModel& model, const std::vector<int>& sourceIds,
                              int width);

// One step of nn.GRU: r, z, n gates in PyTorch's order; h' = (1 - z) * n + z * h.
RowVector gruStep(const GruLayer& layer, const RowVector& input, const RowVector& hidden);

} // namespace attn::core
