#pragma once

// The steps decoding and training share, with what backpropagation needs kept.

#include "core/seq2seq/seq2seq_model.h"

#include <vector>

namespace attn::core {

struct RnnCache
{
    RowVector input;           // x
    RnnState state;            // h and c before the step
    RowVector gates;           // after their nonlinearities: r | z | n, or i | f | g | o
    RowVector hiddenCandidate; // GRU: W_hn h + b_hn, the part r multiplies
    RowVector cell;            // LSTM: c' after the step
};

// One step of `cell`; fills `cache` when given.
RnnState rnnForward(Seq2SeqCell cell, const RnnLayer& layer, const RowVector& input,
                    const RnnState& state, RnnCache* cache);

// What the encoder gives the decoder.
struct Seq2SeqEncoding
{
    Matrix keys;                   // source length x K: the top layer's outputs
    Matrix projectedKeys;          // the part of the scores that is the same at every step
    std::vector<RnnState> initial; // the decoder's first state, one per layer
};

struct Seq2SeqEncoderCache
{
    std::vector<std::vector<RnnCache>> steps; // [layer * directions + direction][position]
    std::vector<Matrix> inputs;               // each layer's input, position x width
};

// EncoderRNN over `sourceIds` (ids already checked), from zero states.
Seq2SeqEncoding encodeSeq2Seq(const Seq2SeqModel& model, const std::vector<int>& sourceIds,
                              Seq2SeqEncoderCache* cache);

struct AttentionCache
{
    RowVector query;   // the decoder state scored with
    Matrix activation; // additive and concat: tanh(...) inside the score, one row per position
    RowVector scores;  // e
    RowVector soft;    // softmax(e)
    RowVector weights; // softmax(e), or hard attention's one-hot argmax
    RowVector context; // sum_j weights_j h_j
};

struct DecoderStepCache
{
    int inputId = 0;
    AttentionCache attention;
    std::vector<RnnCache> layers;
    RowVector combined; // Luong: [c; h]
    RowVector output;   // what `out` reads: the top state, or Luong's h~
    RowVector probabilities;
};

// One decoder step from `state` (one RnnState per layer) fed `token`: all but the choice of the
// next word. Fills `cache` when given.
Seq2SeqStep decoderStep(const Seq2SeqModel& model, const Seq2SeqEncoding& encoding, int token,
                        const std::vector<RnnState>& state, DecoderStepCache* cache);

RowVector logSoftmax(const RowVector& logits);

} // namespace attn::core
