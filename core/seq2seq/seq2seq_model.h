#pragma once

#include "core/matrix.h"

#include <QString>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::core {

// An RNN encoder-decoder with attention, in the layout of PyTorch's tutorial "NLP From Scratch:
// Translation with a Sequence to Sequence Network and Attention" (EncoderRNN, AttnDecoderRNN
// with BahdanauAttention, and DecoderRNN without attention). The folder format is described in
// docs/SEQ2SEQ_FORMAT.md.

enum class Seq2SeqAttention {
    None,     // the decoder sees only the encoder's final state (Cho et al. 2014)
    Bahdanau, // score = v^T tanh(W_a s + U_a h_j), Bahdanau, Cho & Bengio 2015, eq. (6) and A.1.2
    // Luong, Pham & Manning 2015, section 3.1: scored with the state after the step, and the
    // attentional state h~ = tanh(W_c [c; h]) (eq. 5) gives the next word.
    Dot,     // score = h^T h_j
    General, // score = h^T W_a h_j
    Concat,  // score = v_a^T tanh(W_a [h; h_j])
    // Bahdanau's scores, but the context is the one state of the highest score (argmax);
    // trained through the straight-through estimator (the softmax's gradient; Bengio, Leonard &
    // Courville 2013).
    Hard,
};

enum class Seq2SeqCell { Gru, Lstm };

// The names of config.json's "attention" (docs/SEQ2SEQ_FORMAT.md): "none", "bahdanau", "dot",
// "general", "concat", "hard".
std::optional<Seq2SeqAttention> parseSeq2SeqAttention(std::string_view name);
std::string_view seq2seqAttentionName(Seq2SeqAttention attention);

// Dot, general and concat: scored with the state after the step, the next word read from h~.
bool isLuongAttention(Seq2SeqAttention attention);

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

// One direction of one layer of nn.GRU or nn.LSTM (batch_first) in the row convention:
// x * inputWeights + inputBias gives the gates' input parts side by side as PyTorch stacks them,
// r | z | n for the GRU, i | f | g | o for the LSTM.
struct RnnLayer
{
    Matrix inputWeights;  // in x GH  (weight_ih_lK transposed; G = 3 or 4 gates)
    Matrix hiddenWeights; // H x GH   (weight_hh_lK transposed)
    RowVector inputBias;  // GH
    RowVector hiddenBias; // GH
};

// A layer's state: h, and the LSTM's cell c (empty for the GRU).
struct RnnState
{
    RowVector h;
    RowVector c;
};

struct Seq2SeqModel
{
    Seq2SeqCell cell = Seq2SeqCell::Gru;
    int layers = 1;
    bool bidirectional = false;
    Seq2SeqAttention attention = Seq2SeqAttention::Bahdanau;
    Seq2SeqTokens tokens = Seq2SeqTokens::Words;
    int hiddenSize = 0;
    int maxLength = 0; // decoding stops after this many tokens without EOS
    Seq2SeqVocabulary source;
    Seq2SeqVocabulary target;

    // The width of an encoder state h_j, the keys and values: 2H when bidirectional
    // ([forward; backward], Bahdanau et al. 2015, section 3.2), else H.
    int keyWidth() const { return bidirectional ? 2 * hiddenSize : hiddenSize; }

    Matrix encoderEmbedding; // V_src x H
    // layer l, direction d (1: reverse) at index l * directions + d, as PyTorch's _l{l}[_reverse]
    std::vector<RnnLayer> encoderLayers;
    // Bidirectional only: s_0 = tanh(W_s h_1_backward + b) for each layer (Bahdanau et al. 2015,
    // appendix A.2.2), nn.Linear H -> H held H x H.
    Matrix bridge;
    RowVector bridgeBias;
    Matrix decoderEmbedding; // V_tgt x H
    // The attention's nn.Linear weights, held in x out:
    //  Bahdanau, hard: Wa (H x H, bias), Ua (K x H, bias), Va (H x 1, bias)
    //  general: Wa (K x H, no bias), applied to the keys
    //  concat: Wa ((H + K) x H, no bias) over [h; h_j], Va (H x 1, no bias)
    Matrix wa, ua, va;
    RowVector waBias, uaBias;
    float vaBias = 0.0f;
    Matrix wc; // Luong: W_c of h~ = tanh(W_c [c; h]), (K + H) x H, no bias
    // layer l at index l; layer 0 reads [embedded; context] (Bahdanau, hard), relu(embedded)
    // (no attention) or embedded (Luong)
    std::vector<RnnLayer> decoderLayers;
    Matrix out;        // H x V_tgt
    RowVector outBias; // V_tgt
};

// What one decoder step computed, for the views and the dump.
struct Seq2SeqStep
{
    int inputId = 0;             // the token fed in (SOS first, then the previous output)
    RowVector query;             // the decoder state the scores were taken with (H)
    RowVector scores;            // over the source positions (empty without attention)
    RowVector attention;         // softmax of the scores
    RowVector context;           // the weighted sum of the encoder states (K)
    RowVector hidden;            // the decoder's top layer state after the step (H)
    RowVector attentional;       // Luong's h~ = tanh(W_c [c; h]) (H; empty for the others)
    std::vector<RnnState> state; // every layer's state after the step
    RowVector logProbs;          // log_softmax over the target vocabulary
    int outputId = 0;            // the argmax
};

struct Seq2SeqDecoding
{
    std::vector<std::string> sourceWords; // normalised, EOS not included
    std::vector<int> sourceIds;           // EOS appended, as the tutorial's tensorFromSentence
    Matrix encoderStates;                 // source length x K: the keys and values
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
RowVector gruStep(const RnnLayer& layer, const RowVector& input, const RowVector& hidden);

} // namespace attn::core
