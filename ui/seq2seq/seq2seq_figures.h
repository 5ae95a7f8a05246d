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

class QCustomPlot;

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

// A training's curves as both training views draw them: graph 0 the loss on the left axis,
// graph 1 the held-out accuracy (0 to 1, with dots) on the right one.
void setUpTrainingCurves(QCustomPlot& plot, const QString& lossName, const QString& lossAxis,
                         const QString& accuracyName, const QString& stepAxis);
// A step's loss, and its held-out accuracy where measured (>= 0), added to those curves; the
// loss axis follows from 0.
void addTrainingPoint(QCustomPlot& plot, int step, double loss, double accuracy);

} // namespace attn::ui
