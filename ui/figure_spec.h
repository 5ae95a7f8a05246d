#pragma once

#include "colormap.h"

#include "core/attention_settings.h"

#include <QString>

namespace attn::ui {

enum class FigureView {
    Head,     // one head's weights, queries as rows and keys as columns
    Heads,    // every head's weights in a grid, one colour scale
    Pipeline, // X, Q, K, V, scores, masked scores, weights and output of one head
    Difference, // one head's weights minus the same head's under another setting
};

// What a figure shows and how; sizes are in pixels of the target, so that text set in
// points comes out the same physical size at any DPI.
struct FigureSpec
{
    FigureView view = FigureView::Head;
    int head = 0; // Head, Pipeline, Difference: which head; -1 = the mean of the enabled heads
    Colormap colormap = Colormap::Viridis;
    QString title;          // empty: "Head 1 · scaled dot product · softmax"
    bool colorBar = true;
    bool showValues = true; // numbers in cells, where a cell is large enough to hold them
    int precision = 2;
    double fontPoints = 10.0;
    double dpi = 96.0;

    double pixelsPerPoint() const { return dpi / 72.0; }
};

// "head:N" (N counted from 1, as people say "head 1"), "heads", "pipeline", "difference:N".
bool parseFigureView(const QString& text, FigureView& view, int& headIndex);
QString figureViewName(FigureView view, int headIndex);

// Names as a figure title or a tooltip writes them: "scaled dot product", "hard (argmax)".
QString scoreDisplayName(core::ScoreKind kind);
QString normalizationDisplayName(core::Normalization normalization);

} // namespace attn::ui
