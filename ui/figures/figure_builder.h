#pragma once

#include "ui/figures/figure_spec.h"
#include "ui/figures/heatmap_panel.h"

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
class QCPColorScale;
class QCPItemRect;
class QCPMarginGroup;
class QCPLayoutGrid;

namespace attn::ui {

// Axis labels: one per row or column of `block` tokens (a pooled cell is labelled by its
// first token), long tokens cut with an ellipsis.
QStringList tokenLabels(const std::vector<core::Token>& tokens, int block);

// How attention weights become colours (FigureSpec::weightScale, long inputs, the
// normalization): the map, its range, linear or logarithmic, and what the colour bar says.
// Figures and presentation slides colour weights through this one function.
struct WeightColours
{
    Colormap map = Colormap::Viridis;
    double low = 0.0;
    double high = 1.0;
    bool log = false;
    QString label; // "attention weight · fixed scale 0 to 1"

    // Where `value` falls on the map, 0 to 1.
    double position(double value) const;
};
// More keys than this and weights near 1/T would be one colour on a linear scale.
inline constexpr int kLogScaleKeys = 256;
WeightColours weightColours(const core::AttentionResult& result,
                            const std::vector<const core::Matrix*>& weights, WeightScale scale,
                            Colormap map, Colormap signedMap);

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
        int head = 0;   // the head the panel shows
        QString matrix; // "weights", "Q", "scores", ...
        int row = 0;    // in the displayed matrix (a pooled grid cell when pooled)
        int column = 0;
        int panel = -1; // which panel, in layout order (-1: the first with that matrix and head)
        bool transposed = false; // drawn with queries in columns (FigureSpec::transposed)

        // The cell in the result's matrix: (query, key) of attention panels, however drawn.
        int resultRow() const { return transposed ? column : row; }
        int resultColumn() const { return transposed ? row : column; }
    };
    std::optional<Cell> cellAt(QPointF pixel) const;

    // The axis rect of the first panel named `matrix` ("Q", "weights", ...) of `head`;
    // null when the figure has none.
    QCPAxisRect* panelRect(const QString& matrix, int head) const;

    // A one-line description of the settings: "scaled dot product · softmax · causal".
    static QString settingsSummary(const core::Problem& problem);

    // True when numbers in cells were asked for and some panel's cells are too small to hold
    // them at kMinimumLegiblePoints (those panels have none; panels of thousands of cells
    // never have numbers and do not count): the export dialog and the command line say so.
    bool valuesLeftOut() const { return m_valuesLeftOut; }

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
        int rowStep = 1;
        int columnStep = 1;
        bool log = false; // a logarithmic colour scale (long inputs' weights)
        QString rowAxis;  // the axis names: "queries", "keys (source)"; empty: none
        QString columnAxis;
        bool transposed = false; // `matrix` is the result's transpose (orient)

        // The figure kit's options for these cells; NaN cells in `masked`.
        HeatmapPanel heatmap(const QColor& masked) const
        {
            return {QString(), columnAxis, rowAxis, rowLabels, columnLabels,
                    map,       low,        high,    log,       masked};
        }

        bool isMasked(const core::Mask* mask, int row, int column) const
        {
            return mask && (transposed ? mask->isMasked(column, row) : mask->isMasked(row, column));
        }
    };

    // `matrix` of the spec's head with the result's tokens on both axes: queries down, keys
    // across.
    Panel tokenPanel(const core::AttentionResult& result, const core::Matrix& matrix,
                     const QString& name) const;
    // With FigureSpec::transposed, a weights panel shows the transpose: queries in columns.
    void orient(Panel& panel);

    void buildHead(const core::AttentionResult& result);
    void buildHeads(const core::AttentionResult& result);
    void buildPipeline(const core::AttentionResult& result);
    void buildDifference(const core::AttentionResult& result, const core::AttentionResult& compare,
                         QSize size);
    const core::HeadResult& pipelineHead(const core::AttentionResult& result) const;
    void compose(const core::AttentionResult& result, QSize size,
                 const core::AttentionResult* compare);
    std::optional<QFont> valueFont(const Panel& panel) const;

    QCPLayoutGrid* addPanel(QCPLayoutGrid* parent, int row, int column, Panel panel);
    void addTitle(const QString& text, double width);
    // The grid beside the panels that holds a shared colour bar; null when there is none.
    QCPLayoutGrid* sideHost();
    // Null when the figure has no colour bars.
    QCPColorScale* addColorScale(QCPLayoutGrid* host, Colormap map, double low, double high,
                                 const QString& label, bool log = false);
    void addColorScale(QCPLayoutGrid* host, const WeightColours& colours);
    WeightColours weightColours(const std::vector<const core::Matrix*>& weights) const;
    void setWeightColours(Panel& panel, const WeightColours& colours) const;
    // The names of a heatmap's axes, in the figure itself: queries (target) down the side,
    // keys (source) along the bottom; pooled, how many tokens a row or column holds.
    QString queryAxisName() const;
    QString keyAxisName() const;
    bool fitLabels(); // true when a label step or turn changed
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
    bool m_valuesLeftOut = false;
};

} // namespace attn::ui
