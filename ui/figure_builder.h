#pragma once

#include "figure_spec.h"

#include "core/attention_result.h"
#include "core/mask.h"

#include <QFont>
#include <QPointF>
#include <QSize>
#include <QStringList>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QCPAxisRect;
class QCPColorScale;
class QCPMarginGroup;
class QCPLayoutGrid;

namespace attn::ui {

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
    };
    std::optional<Cell> cellAt(QPointF pixel) const;

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
    };

    void buildHead(const core::AttentionResult& result);
    void buildHeads(const core::AttentionResult& result);
    void buildPipeline(const core::AttentionResult& result);
    void buildDifference(const core::AttentionResult& result, const core::AttentionResult& compare);

    QCPLayoutGrid* addPanel(QCPLayoutGrid* parent, int row, int column, Panel panel);
    void addTitle(const QString& text);
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
};

} // namespace attn::ui
