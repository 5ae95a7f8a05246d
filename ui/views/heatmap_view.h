#pragma once

#include "ui/figures/figure_builder.h"
#include "ui/figures/figure_spec.h"
#include "ui/widgets/deferred_call.h"

#include "core/attention_result.h"

#include <QWidget>
#include <memory>
#include <optional>

class QCustomPlot;
class QCPAxisRect;
class QCPColorMap;
class QCPItemRect;
class QLabel;
class QMouseEvent;
class QStackedLayout;
class QWheelEvent;
class QKeyEvent;
class QFocusEvent;

namespace attn::ui {

// A live figure of a result, drawn by FigureBuilder (the same code as exported files), with
// what a screen adds: wheel zoom and drag pan down to single cells (Head and Difference
// views), a tooltip that says how a weight was made, clicking a head in the grid, and
// painting custom mask cells.
class HeatmapView : public QWidget
{
    Q_OBJECT

public:
    explicit HeatmapView(QWidget* parent = nullptr);
    ~HeatmapView() override;

    void setSpec(const FigureSpec& spec);
    const FigureSpec& spec() const { return m_spec; }
    // Draws the figure (at once when visible, else when shown). `compare` is the
    // Difference view's second result.
    void setResult(std::shared_ptr<const core::AttentionResult> result,
                   std::shared_ptr<const core::AttentionResult> compare = nullptr);
    std::shared_ptr<const core::AttentionResult> result() const { return m_result; }
    // Shown instead of a figure (no result yet, or a view this result cannot show).
    void showMessage(const QString& text);
    QString message() const;

    // The figure's first colour map: the data on screen (tests read it).
    QCPColorMap* colorMap() const;
    QCustomPlot* plot() const { return m_plot; }
    std::optional<FigureBuilder::Cell> cellAt(QPointF pixel) const;
    // The tooltip text for a cell (what hovering shows).
    QString describeCell(const FigureBuilder::Cell& cell) const;
    // The selected head framed in the Heads grid; -1 for none.
    void setHighlightedHead(int head);
    int highlightedHead() const { return m_highlightHead; }
    // The panel the frame surrounds (null: no frame).
    QCPAxisRect* highlightedRect() const;

    // Left drag paints mask cells instead of panning.
    void setMaskPainting(bool on);
    // A rebuild is queued (a spec or size change): what is drawn is about to change.
    bool isRebuildPending() const { return m_rebuild.isPending(); }
    bool maskPainting() const { return m_maskPainting; }
    void resetZoom();
    // Zooms by `factor` (< 1 in) around the cell at the centre of the matrix.
    void zoomBy(double factor);
    // The plot's size in device pixels: the finest grid worth computing for it.
    QSize devicePixelSize() const;

    // The keyboard's cell cursor on the shown head's weights (the highlighted head's in the
    // Heads grid): arrow keys move it, Home/End go to the row's ends, Space paints or clears
    // that mask cell in the Head view; it shows what hovering shows and tells a screen reader
    // (the accessible description). Empty until a key moves it.
    std::optional<FigureBuilder::Cell> cursorCell() const;

    // How long the last figure took to build, in milliseconds.
    double lastBuildMilliseconds() const { return m_buildMs; }

signals:
    void headClicked(int head);
    // Painting custom mask cells: a stroke starts on a cell, may cross more, and ends.
    void maskPaintStarted(int row, int column);
    void maskPaintMoved(int row, int column);
    void maskPaintFinished();
    void figureBuilt();

protected:
    void showEvent(QShowEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    bool zoomable() const;
    void applyZoom();
    void zoomAt(QPointF pixel, double factor);
    void panBy(QPointF pixels);
    void relabel();
    void updateHighlight();
    int cursorHead() const;
    QSize cursorMatrixSize() const; // columns x rows of the cursor's panel; empty without one
    void updateCursor(bool announce);
    void onPress(QMouseEvent* event);
    void onMove(QMouseEvent* event);
    void onRelease(QMouseEvent* event);
    void onWheel(QWheelEvent* event);
    QSize matrixSize() const;

    QCustomPlot* m_plot = nullptr;
    QLabel* m_message = nullptr;
    QStackedLayout* m_stack = nullptr;
    FigureSpec m_spec;
    std::shared_ptr<const core::AttentionResult> m_result;
    std::shared_ptr<const core::AttentionResult> m_compare;
    std::unique_ptr<FigureBuilder> m_builder; // refers to m_result's matrices
    bool m_dirty = false;
    std::optional<std::pair<int, int>> m_cursor; // row, column
    QCPItemRect* m_cursorItem = nullptr;
    DeferredCall m_rebuild{this, [this] { rebuild(); }}; // coalesces rebuild requests
    QSize m_builtMatrix; // the single panel's size in cells when last built
    struct Zoom
    {
        double x0, x1, y0, y1; // visible cell coordinates (-0.5 .. n - 0.5)
    };
    std::optional<Zoom> m_zoom;
    int m_highlightHead = -1;
    QCPItemRect* m_highlight = nullptr;
    bool m_maskPainting = false;
    enum class Drag { None, Pan, Paint } m_drag = Drag::None;
    QPointF m_lastPos;
    std::pair<int, int> m_lastCell{-1, -1};
    double m_buildMs = 0.0;
};

} // namespace attn::ui
