#pragma once

#include "ui/presentation/presentation_theme.h"
#include "ui/presentation/slide.h"

#include "core/seq2seq/seq2seq_model.h"

#include <QSizeF>

namespace attn::ui {

// A lecture on one decoding of an encoder-decoder (Bahdanau et al. 2015; Luong et al. 2015):
// slide 0 the encoder (its hidden states h_j), then one slide per decoder step with its
// equations and the step's numbers put in: the scores over the source positions, their softmax,
// the context vector, what the decoder reads (or Luong's attentional state), and the next-word
// distribution with the word chosen.
int seq2seqSlideCount(const core::Seq2SeqDecoding& decoding);

// Lays out slide `index` (0 .. seq2seqSlideCount() - 1) as a page of `size` pixels. Panels are
// named "states" (the encoder), "scores", "weights", "context" (one column each, a row per
// source token) and "next" (bars of the likeliest five words); every cell's and bar's number is
// a Value text whose `panel` is the panel's index and `index` its row.
Slide buildSeq2SeqSlide(const core::Seq2SeqModel& model, const core::Seq2SeqDecoding& decoding,
                        int index, PresentationTheme theme, QSizeF size);

} // namespace attn::ui
