#pragma once

#include "ui/figures/figure_export.h"
#include "ui/figures/figure_spec.h"

#include "core/seq2seq/output_heads.h"
#include "core/seq2seq/seq2seq_model.h"

#include <QByteArray>
#include <QFont>
#include <QRectF>
#include <QSize>
#include <QStringList>
#include <optional>

class QPainter;

namespace attn::ui {

// The three output types of seed 001 side by side over one sentence: which of the encoder's
// outputs each reads. Tagging: every position's state through the classifier, a tag under each
// word. Classification: the states pooled (their mean, or the first or last) into one vector,
// one label. Sequence to sequence: the decoder's steps, as many as it decides, each reading the
// states through its attention.
enum class OutputType { Seq2Seq, Tagging, Classification };

struct OutputTypesFigure
{
    QStringList words; // the sentence as the encoders read it
    OutputType chosen = OutputType::Tagging;

    std::optional<core::OutputHeadResult> tagging;
    QStringList tagNames;
    std::optional<core::OutputHeadResult> classification;
    core::SentencePooling pooling = core::SentencePooling::Mean;
    QStringList classNames;
    std::optional<core::Seq2SeqDecoding> decoding;
    QStringList targetWords; // the decoder's output words, EOS included when produced
    QString notes[3];        // why a panel is empty, by OutputType
};

// Paints the figure into `target` (the three panels in the order tagging, classification,
// sequence to sequence; the chosen one framed).
void paintOutputTypes(QPainter& painter, const QRectF& target, const OutputTypesFigure& figure,
                      const QFont& font, const FigureStyle& style);

// A size that fits the figure's rows at `dpi` with text set at `fontPoints`.
QSize outputTypesFigureSize(const OutputTypesFigure& figure, double dpi, double fontPoints = 10.0);

// A file of the figure (PNG, SVG or PDF; see paintedFigureBytes).
QByteArray outputTypesFigureBytes(const OutputTypesFigure& figure, QSize size, double dpi,
                                  FigureFormat format);

} // namespace attn::ui
