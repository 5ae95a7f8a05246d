#pragma once

#include "ui/figures/colormap.h"

#include "core/attention_settings.h"

#include <QColor>
#include <QString>
#include <optional>

namespace attn::ui {

enum class FigureView {
    Head,       // one head's weights, queries as rows and keys as columns
    Heads,      // every head's weights in a grid, one colour scale
    Pipeline,   // X, Q, K, V, scores, masked scores, weights and output of one head
    Difference, // one head's weights minus the same head's under another setting
    Lines,      // one head's weights as lines from each query to the keys (buildLinesFigure)
};

// How attention weights become colours. Fixed: 0 to 1 in every figure, so figures, heads
// and presentation steps can be compared cell by cell; Data: 0 to the largest weight shown
// (more contrast, no comparison). The colour bar always says which.
enum class WeightScale { Fixed, Data };

// "fixed", "data" (the command line's and the scene file's words).
std::optional<WeightScale> parseWeightScale(const QString& name);
QString weightScaleName(WeightScale scale);

// Colours and line weights of a figure. The defaults are the light figures of the window
// and of exported files; presentation themes (dark, high contrast, print) set others.
struct FigureStyle
{
    QColor background = Qt::white;
    QColor text = QColor(0x20, 0x20, 0x20); // titles, labels, colour-bar text
    QColor mutedText =
        QColor(0x9a, 0x9a, 0x9a);        // secondary text: a presentation's header and notes
    QColor masked = QColor(kMaskedCell); // masked cells
    bool hatchMasked = false;            // also hatch them (greyscale, where grey is data)
    QColor placeholder = QColor(0xf2, 0xf2, 0xf2); // quiet fills: a presentation's token chips
    QColor accent = QColor(0xd5, 0x5e, 0x00);      // what a presentation's pointer or keys chose
    Colormap signedColormap = Colormap::Diverging; // X, Q, K, V, scores
    double lineScale = 1.0;                        // frames and outlines (2 for projectors)
};

// What a figure shows and how; sizes are in pixels of the target, so that text set in
// points comes out the same physical size at any DPI.
struct FigureSpec
{
    FigureView view = FigureView::Head;
    int head = 0; // Head, Pipeline, Difference: which head; -1 = the mean of the enabled heads
    Colormap colormap = Colormap::Viridis;
    WeightScale weightScale = WeightScale::Fixed;
    QString title; // empty: "Head 1 · scaled dot product · softmax"
    // Difference: what the compared result changed ("causal mask off"); empty: the title
    // names its settings.
    QString compareLabel;
    bool colorBar = true;
    bool showValues = true; // numbers in cells, where a cell is large enough to hold them
    // False: thumbnails (the window's All heads dock) name no tokens and no axes; the large
    // view beside them does. Their few thinned labels crowded the panels.
    bool showTokenLabels = true;
    // Head, Heads, Difference: weights drawn with queries in columns, as seed 001 writes
    // A = K^T Q ("the sum of each column must be 1"). Tooltips and clicks still name the
    // query and the key.
    bool transposed = false;
    int precision = 2;
    double fontPoints = 10.0;
    double dpi = 96.0;
    FigureStyle style;

    double pixelsPerPoint() const { return dpi / 72.0; }
};

// "head:N" (N counted from 1, as people say "head 1"), "heads", "pipeline", "difference:N".
bool parseFigureView(const QString& text, FigureView& view, int& headIndex);
QString figureViewName(FigureView view, int headIndex);

// Names as a figure title or a tooltip writes them: "scaled dot product", "hard (argmax)".
QString scoreDisplayName(core::ScoreKind kind);
QString normalizationDisplayName(core::Normalization normalization);

} // namespace attn::ui
