#include "ui/figures/figure_builder.h"

#include "ui/figures/figure_builder_p.h"
#include "ui/figures/heatmap_panel.h"
#include "ui/figures/legible_text.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>

// Labels and numbers fitted to the cells, once the layout has sized them; hits on cells.
namespace attn::ui {

using core::Matrix;

using figure_detail::formatValue;
using figure_detail::kMaxValueCells;
using figure_detail::kMaxValueScale;
using figure_detail::kValueToCell;
using figure_detail::maxAbs;

QCPAxisRect* FigureBuilder::panelRect(const QString& matrix, int head) const
{
    for (const Panel& panel : m_panels)
        if (panel.name == matrix && panel.head == head)
            return panel.rect;
    return nullptr;
}

double FigureBuilder::cellPixels(const Panel& panel) const
{
    const QRect r = panel.rect->rect();
    return std::min(double(r.width()) / double(panel.matrix->cols()),
                    double(r.height()) / double(panel.matrix->rows()));
}

bool FigureBuilder::fitLabels()
{
    bool changed = false;
    // Square cells end up the size of the smallest panel's, whatever the rect's aspect:
    // thin the labels for that size, or a wide rect leaves its row labels overlapping.
    double square = std::numeric_limits<double>::max();
    if (m_squareCells)
        for (const Panel& panel : m_panels)
            square = std::min(square, cellPixels(panel));
    for (Panel& panel : m_panels) {
        const QRect r = panel.rect->rect();
        const double rowPixels =
            std::min(square, double(r.height()) / double(panel.matrix->rows()));
        const double cell =
            std::min(square, double(r.width()) / double(panel.matrix->cols())); // a column's width
        QCPAxis* x = panel.rect->axis(QCPAxis::atBottom);
        QCPAxis* y = panel.rect->axis(QCPAxis::atLeft);
        // Rows or columns too narrow for a line of text: a smaller font, down to the legible
        // minimum, where that names every token (a grid of heads was labelled every other
        // token); else the labels are thinned at the size they have. Only ever smaller, so
        // the passes settle.
        const double pitch = std::min(panel.rowLabels.isEmpty() ? rowPixels * 2 : rowPixels,
                                      panel.columnLabels.isEmpty() ? cell * 2 : cell);
        QFont tickFont = x->tickLabelFont();
        if (QFontMetricsF(tickFont).height() * 1.05 > pitch && tickFont.pixelSize() > 0) {
            const double ppp = m_spec.pixelsPerPoint();
            const int smallest =
                int(std::ceil(smallestLegiblePoints(tickFont.pixelSize() / ppp) * ppp));
            QFont smaller = tickFont;
            for (int pixels = tickFont.pixelSize() - 1; pixels >= smallest; --pixels) {
                smaller.setPixelSize(pixels);
                if (QFontMetricsF(smaller).height() * 1.05 <= pitch) {
                    tickFont = smaller;
                    x->setTickLabelFont(tickFont);
                    y->setTickLabelFont(tickFont);
                    changed = true;
                    break;
                }
            }
        }
        const QFontMetricsF metrics(tickFont);
        const double line = metrics.height();
        // Rows: one line of text per shown label.
        const int rowStep = std::max(1, int(std::ceil(line * 1.05 / std::max(rowPixels, 1e-3))));
        setTickLabels(y, panel.rowLabels, rowStep);
        double widest = 0.0;
        for (const QString& label : panel.columnLabels)
            widest = std::max(widest, metrics.horizontalAdvance(label));
        int columnStep = 1;
        double rotation = 0.0;
        if (widest + line * 0.5 > cell) {
            // Upright text no longer fits: turn it, and thin it if even that is too dense.
            rotation = cell >= line * 1.6 ? -45 : -90;
            columnStep = std::max(1, int(std::ceil(line * 1.05 / std::max(cell, 1e-3))));
        }
        changed = changed || rotation != x->tickLabelRotation() || rowStep != panel.rowStep ||
                  columnStep != panel.columnStep;
        x->setTickLabelRotation(rotation);
        setTickLabels(x, panel.columnLabels, columnStep);
        panel.rowStep = rowStep;
        panel.columnStep = columnStep;
        panel.labelStep = std::max(rowStep, columnStep);
    }
    return changed;
}

void FigureBuilder::centreSquareCells()
{
    if (m_panels.empty())
        return;
    if (!m_squareCells) // panels of different shapes fill their boxes: rows stay tall enough for
                        // labels
        return;
    // Same-shaped panels in a grid: one cell size for all; the space left over goes to the
    // outer margins, so the figure is centred and the colour bar stays beside the matrix.
    double cell = std::numeric_limits<double>::max();
    for (const Panel& panel : m_panels)
        cell = std::min(cell, cellPixels(panel));
    if (!(cell > 0))
        return;
    const int gridColumns = m_content->columnCount();
    const int gridRows = m_content->rowCount();
    const QRect r = m_panels.front().rect->rect();
    const double spareX =
        (r.width() - cell * double(m_panels.front().matrix->cols())) * gridColumns;
    const double spareY = (r.height() - cell * double(m_panels.front().matrix->rows())) * gridRows;
    const int left = int(std::floor(std::max(0.0, spareX) / 2));
    const int top = int(std::floor(std::max(0.0, spareY) / 2));
    m_body->setMargins(QMargins(left, top, left, top));
}

std::optional<QFont> FigureBuilder::valueFont(const Panel& panel) const
{
    const Matrix& m = *panel.matrix;
    if (m.size() > kMaxValueCells)
        return std::nullopt;
    const double cell = cellPixels(panel);
    // The widest number shown: a minus sign only where the matrix has negative cells (it is
    // as wide as two digits, and weights have none).
    double lowest = 0.0;
    for (Eigen::Index k = 0; k < m.size(); ++k)
        if (std::isfinite(m.data()[k]))
            lowest = std::min(lowest, double(m.data()[k]));
    const double largest = maxAbs(m, nullptr);
    const QString widest =
        formatValue(lowest < 0 ? -std::max(largest, -lowest) : largest, m_spec.precision);
    // Numbers grow with the cell (a quarter of its height, up to kMaxValueScale times the
    // figure's size), then shrink to fit, down to the smallest size a printed figure can be read
    // at.
    const double basePoints = m_spec.fontPoints * 0.85;
    double points = std::clamp(cell * kValueToCell / m_spec.pixelsPerPoint(), basePoints,
                               basePoints * kMaxValueScale);
    const double room = 1.1;
    const QFontMetricsF metrics(font(points));
    points *= std::min(
        {1.0, cell / (metrics.horizontalAdvance(widest) * room), cell / (metrics.height() * 1.2)});
    if (points < smallestLegiblePoints(basePoints))
        return std::nullopt;
    return font(points);
}

void FigureBuilder::addCellValues()
{
    std::vector<std::optional<QFont>> fonts;
    for (const Panel& panel : m_panels) {
        fonts.push_back(valueFont(panel));
        m_valuesLeftOut =
            m_valuesLeftOut || (!fonts.back() && panel.matrix->size() <= kMaxValueCells);
    }
    for (std::size_t p = 0; p < m_panels.size(); ++p) {
        const Panel& panel = m_panels[p];
        if (!fonts[p])
            continue;
        const Matrix& m = *panel.matrix;
        const core::Mask* mask = panel.masked ? m_mask.get() : nullptr;
        const HeatmapPanel heatmap = panel.heatmap(QColor());
        for (int i = 0; i < int(m.rows()); ++i)
            for (int j = 0; j < int(m.cols()); ++j) {
                const double value = double(m(i, j));
                if (panel.isMasked(mask, i, j) || !std::isfinite(value))
                    continue;
                addCellNumber(m_plot, panel.rect, i, j, formatValue(value, m_spec.precision),
                              *fonts[p], panel.map, heatmap.position(value));
            }
    }
}

std::optional<FigureBuilder::Cell> FigureBuilder::cellAt(QPointF pixel) const
{
    for (const Panel& panel : m_panels) {
        if (!panel.rect->rect().contains(pixel.toPoint()))
            continue;
        const int column =
            int(std::lround(panel.rect->axis(QCPAxis::atBottom)->pixelToCoord(pixel.x())));
        const int row =
            int(std::lround(panel.rect->axis(QCPAxis::atLeft)->pixelToCoord(pixel.y())));
        if (row < 0 || column < 0 || row >= panel.matrix->rows() || column >= panel.matrix->cols())
            return std::nullopt;
        return Cell{panel.head,      panel.name, row, column, int(&panel - m_panels.data()),
                    panel.transposed};
    }
    return std::nullopt;
}

} // namespace attn::ui
