#pragma once

#include "ui/figures/figure_spec.h"
#include "ui/figures/heatmap_painter.h"

#include "core/model/model_result.h"

#include <QFont>
#include <QImage>
#include <QRectF>
#include <QStringList>
#include <optional>
#include <set>
#include <utility>
#include <vector>

class QPainter;
class QPaintDevice;

namespace attn::ui {

// What the grid marks besides the weights.
struct HeadGridOptions
{
    Colormap colormap = Colormap::Viridis;
    FigureStyle style;
    QString title;         // empty: none (the window's dock names it)
    bool colorBar = false; // exported figures carry one; the window's grid has no room
    // The window's selection, framed; exported figures leave it out (screen-only state).
    int selectedLayer = -1;
    int selectedHead = -1;
    int focusToken = -1;                    // the query row shown in every head; -1: all rows
    std::set<std::pair<int, int>> headsOff; // (layer, head) from 0
    std::set<std::pair<int, int>> edited;   // weights or the layer's settings changed
};

// BertViz's model view for every layer at once: one small heatmap of attention weights per
// head, layers down (layer 1 at the top), heads across, labelled "Layer N" and "Head N" as
// text. A painter, not QCustomPlot: 144 axis rects are too slow to rebuild on every
// intervention, and the same drawing serves the window and PNG, SVG and PDF export.
class HeadGridPainter
{
public:
    struct Geometry
    {
        int layers = 0;
        int heads = 0;
        QFont font;
        QRectF title;
        QRectF cells;               // the block of all thumbnails
        double pitch = 0.0;         // distance between thumbnails
        double side = 0.0;          // a thumbnail's side
        bool longHeadLabels = true; // "Head 12", else "12" under a "head" caption
        QRectF colorBar;            // empty: none
        // Token labels: queries left of each layer's first head, keys under the last layer's
        // heads, every `tokenStep`-th (1 where the rows are tall enough for the font).
        QStringList tokens;
        QStringList keyTokens; // cross-attention's keys (the source); empty: `tokens`
        QFont tokenFont;
        int tokenStep = 1;
        double queryLabelWidth = 0.0;
        double keyLabelHeight = 0.0;

        QRectF cellRect(int layer, int head) const;
        // The head under a point, and within it the query row and key column (T tokens).
        struct Hit
        {
            int layer = -1;
            int head = -1;
            int query = -1;
            int key = -1;
        };
        std::optional<Hit> hitAt(QPointF point, int tokens) const;
    };

    // `tokens`: the labels of the rows and columns of every head (empty: none).
    static Geometry layout(const QRectF& target, int layers, int heads, const QFont& font,
                           const HeadGridOptions& options, const QPaintDevice* device,
                           const QStringList& tokens = {});
    // The labels layout() takes for `result`'s tokens.
    static QStringList tokenLabels(const core::ModelResult& result);
    // The key labels of a grid of cross-attention heads (the source's); empty otherwise.
    static QStringList keyTokenLabels(const core::ModelResult& result);
    // `vector`: SVG and PDF (cells as rectangles where there are few enough).
    static void paint(QPainter& painter, const Geometry& geometry, const core::ModelResult& result,
                      const HeadGridOptions& options, bool vector);
    // The same with thumbnails made beforehand (the widget keeps them between repaints).
    static void paint(QPainter& painter, const Geometry& geometry, const core::ModelResult& result,
                      const HeadGridOptions& options, const std::vector<QImage>& thumbnails);
    // One head's weights as an image, T x T pixels; with a focus token the other rows are
    // washed out towards the background.
    static QImage thumbnail(const core::Matrix& weights, const ColourTable& colours, int focusToken,
                            const QColor& background);
    static std::vector<QImage> thumbnails(const core::ModelResult& result,
                                          const HeadGridOptions& options);
    // "Layer 3, head 5: “ cat” attends most to “The” (0.62)" for the hovered query.
    static QString describe(const core::ModelResult& result, int layer, int head, int query);
};

} // namespace attn::ui
