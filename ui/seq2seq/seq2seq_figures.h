#pragma once

#include "ui/figures/figure_export.h"
#include "ui/model/matrix_painter.h"

#include "core/seq2seq/seq2seq_model.h"

#include <QByteArray>
#include <QSize>
#include <QStringList>
#include <optional>
#include <string_view>
#include <vector>

namespace attn::ui {

// The figures of a decoding, on screen and in files (paintMatrixPanels draws both).
enum class Seq2SeqFigure {
    Alignment, // target words x source words: each step's attention (Bahdanau et al. 2015, Fig. 3)
    HiddenStates, // the encoder's states (the keys) and the decoder's, one row per position
};

std::optional<Seq2SeqFigure> parseSeq2SeqFigure(std::string_view name); // "alignment", "states"

// The source tokens with EOS, and the target tokens decoded up to `steps`.
QStringList seq2seqSourceLabels(const core::Seq2SeqDecoding& decoding);
QStringList seq2seqTargetLabels(const core::Seq2SeqModel& model,
                                const core::Seq2SeqDecoding& decoding, int steps);

// The first `steps` steps (all when -1); `current` is framed.
std::vector<MatrixPanel> seq2seqPanels(Seq2SeqFigure figure, const core::Seq2SeqModel& model,
                                       const core::Seq2SeqDecoding& decoding, int steps = -1,
                                       int current = -1);

// A file of the figure (PNG, SVG or PDF; see paintedFigureBytes). Throws core::Error when the
// model has no attention to align with.
QByteArray seq2seqFigureBytes(Seq2SeqFigure figure, const core::Seq2SeqModel& model,
                              const core::Seq2SeqDecoding& decoding, QSize size, double dpi,
                              FigureFormat format);

} // namespace attn::ui
