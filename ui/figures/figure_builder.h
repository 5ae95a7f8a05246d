#pragma once

#include "ui/figures/figure_spec.h"

#include "core/attention_result.h"
#include "core/mask.h"

#include <QFont>
#include <QPen>
#include <QPointF>
#include <QRectF>
#include <QSize>
#include <QStringList>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPAxisRect;
class QCPColorGradient;
class QCPColorScale;
class QCPItemRect;
class QCPMarginGroup;
class QCPLayoutGrid;

namespace attn::ui {

// Axis labels: one per row or column of `block` tokens (a pooled cell is labelled by its
// first token), long tokens cut with an ellipsis.
QStringList tokenLabels(const std::vector<core::Token>& tokens, int block);

// Fills a QCustomPlot with the figure of a result: the same code draws the window's views
// and every exported file, so what is exported is what was seen. A view never computes
// attention; it only shows a result's matrices.
class FigureBuilder
{
public:
    FigureBuilder(QCustomPlot& plot, const FigureSpec& spec);

    // Lays the figure out for a target of `size` pixels (the plot is re-laid out there).
    // `compare`, when given, is the same input under another setting: the Difference view
    // shows result minus compare.
    void build(const core::AttentionResult& result, QSize size,
               const core::AttentionResult* compare = nullptr);

    // The matrix cell under a pixel of the plot, for tooltips and click-to-mask.
    struct Cell
    {
        int head = 0;    // the head the panel shows
        QString matrix;  // "weights", "Q", "scores", ...
        int row = 0;     // in the displayed matrix (a pooled grid cell when pooled)
        int column = 0;
        int panel = -1;  // which panel, in layout order (-1: the first with that matrix and head)
    };
    std::optional<Cell> cellAt(QPointF pixel) const;

    // Frames where a cell comes from. A score or weight: its query row and key column in
    // its own panel, the same cell in the other score and weight panels of its head, and
    // q_i and k_j (rows of Q and K) where the figure shows them. Any other cell: its row,
    // the vector it belongs to. nullopt clears. The caller replots.
    void highlightCell(const std::optional<Cell>& cell);
    // The frames highlightCell drew (a halo under each line, so they read on any colour).
    const std::vector<QCPItemRect*>& highlightFrames() const { return m_highlightFrames; }
    // The frames around what a presentation step creates.
    const std::vector<QCPItemRect*>& stepFrames() const { return m_stepFrames; }
    // The axis rect of the first panel named `matrix` ("Q", "weights", ...) of `head`;
    // null when the figure has none. Panels a presentation has not reached yet count too.
    QCPAxisRect* panelRect(const QString& matrix, int head) const;
    // The names of the panels that show numbers (a presentation fills only those of the
    // steps reached), in layout order.
    QStringList filledPanels() const;

    // A one-line description of the settings: "scaled dot product · softmax · causal".
    static QString settingsSummary(const core::Problem& problem);

private:
    // One matrix drawn as cells, with its labels and colour range.
    struct Panel
    {
        const core::Matrix* matrix = nullptr;
        QStringList rowLabels; // empty: no labels on that axis
        QStringList columnLabels;
        QString title;
        QString name; // "weights", "Q", ... (what cellAt reports)
        int head = 0;
        Colormap map = Colormap::Viridis;
        double low = 0.0;
        double high = 1.0;
        bool masked = false; // grey out the cells the problem's mask masks (T x T panels)
        QCPAxisRect* rect = nullptr;
        int labelStep = 1; // every n-th label is shown when they cannot all fit
        bool filled = true;  // false: a presentation step not reached yet (an empty block)
        bool framed = false; // created by the presentation's current step
        int group = 0;       // presentation: panels of one group share a row
        bool ownRowLabels = false; // presentation: labelled wherever it stands (K, V of cross-attention)
    };
    // A presentation row of panels, and the cells fitCells gives it.
    struct RowFit
    {
        int cells = 0;        // rows of its tallest matrix
        int columns = 0;      // columns of its matrices, strips apart
        int stripColumns = 0;
        int chromeX = 0;      // labels and margins beside the cells
        int chromeY = 0;      // title, labels and margins above and below them
        int panels = 0;
        double cell = 0.0;    // the square cells' side
        double stripCellWidth = 0.0;
    };
    static constexpr int kPresentationGroups = 6; // E P X | Q K V | scores | αV | heads | concat, output
    inline static const std::vector<int> kConceptualRows{0, 2, 3}; // inputs, scores, outputs

    void buildHead(const core::AttentionResult& result);
    void buildHeads(const core::AttentionResult& result);
    void buildPipeline(const core::AttentionResult& result, int width);
    void buildDifference(const core::AttentionResult& result, const core::AttentionResult& compare);
    const core::HeadResult& pipelineHead(const core::AttentionResult& result) const;
    void compose(const core::AttentionResult& result, QSize size, const core::AttentionResult* compare);
    void buildPresentation(const core::AttentionResult& result);
    void fitCells(std::vector<RowFit>& rows) const;
    std::vector<int> bestRowStarts() const;
    static bool isStrip(const Panel& panel);
    static double cellWidth(const Panel& panel, const RowFit& row);
    void layoutPresentation();
    void addStepFrames();
    QCPItemRect* addFrame(const Panel& panel, QRectF cells, double padPixels, const QPen& pen);
    QCPColorGradient gradient(Colormap map) const;
    bool presentation() const { return m_spec.view == FigureView::Pipeline && m_spec.presentationStep > 0; }
    // A step's frame: its line width, its distance from the cells, and the room titles and
    // labels keep clear of it.
    double frameWidth() const;
    double framePad() const;
    double frameClearance() const;
    std::optional<QFont> valueFont(const Panel& panel) const;

    QCPLayoutGrid* addPanel(QCPLayoutGrid* parent, int row, int column, Panel panel);
    void addTitle(const QString& text);
    // The grid beside the panels that holds a shared colour bar; null when there is none.
    QCPLayoutGrid* sideHost();
    void addColorScale(QCPLayoutGrid* host, Colormap map, double low, double high, const QString& label);
    void fitLabels();
    void centreSquareCells();
    void addCellValues();
    double cellPixels(const Panel& panel) const;
    const core::Matrix& keep(core::Matrix matrix);
    const core::Matrix& headWeights(const core::AttentionResult& result, int head);
    QFont font(double points, bool bold = false) const;
    QString headName(int head) const;

    QCustomPlot& m_plot;
    FigureSpec m_spec;
    const core::AttentionResult* m_result = nullptr;
    std::unique_ptr<core::Mask> m_mask;
    QCPLayoutGrid* m_body = nullptr;    // the panels and the colour bar, under the title
    QCPLayoutGrid* m_content = nullptr; // the panels
    std::vector<Panel> m_panels;
    std::deque<core::Matrix> m_owned; // derived matrices (head mean, difference) panels show
    bool m_squareCells = true;
    std::vector<QCPLayoutGrid*> m_presentationRows; // one grid per row of panels
    std::vector<int> m_rowStarts = kConceptualRows;  // the groups that begin a row
    std::vector<QCPItemRect*> m_stepFrames;
    std::vector<QCPItemRect*> m_highlightFrames;
};

} // namespace attn::ui
