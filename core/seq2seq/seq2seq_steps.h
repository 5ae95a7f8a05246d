#pragma once

// The steps decoding and training share, with what backpropagation needs kept.

#include "core/seq2seq/seq2seq_model.h"

namespace attn::core {

struct GruCache
{
    RowVector input, hidden;   // x and h
    RowVector r, z, n;         // the gates
    RowVector hiddenCandidate; // W_hn h + b_hn, the part r multiplies
};

// nn.GRU's step; fills `cache` when given.
RowVector gruForward(const GruLayer& layer, const RowVector& input, const RowVector& hidden,
                     GruCache* cache);

struct AttentionCache
{
    RowVector query;   // s
    Matrix activation; // tanh(W_a s + U_a h_j + b), one row per source position
    RowVector scores;  // e
    RowVector weights; // softmax(e)
    RowVector context; // sum_j weights_j h_j
};

// BahdanauAttention.forward over `keys` (the encoder's states) with `projectedKeys` = keys U_a + b.
void bahdanauForward(const Seq2SeqModel& model, const Matrix& keys, const Matrix& projectedKeys,
                     const RowVector& query, AttentionCache& cache);

RowVector logSoftmax(const RowVector& logits);

} // namespace attn::core
