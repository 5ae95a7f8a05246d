#include "ui/model/matrix_painter.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace attn::ui {

std::optional<MatrixPanelsGeometry::Hit> MatrixPanelsGeometry::hitAt(QPointF point) const
{
    for (std::size_t p = 0; p < cells.size(); ++p) {
        const QRectF& r = cells[p];
        if (!r.contains(point) || rows[p] <= 0 || columns[p] <= 0)
            continue;
        const int row = std::min(rows[p] - 1, int((point.y() - r.top()) / r.height() * rows[p]));
        const int column =
            std::min(columns[p] - 1, int((point.x() - r.left()) / r.width() * columns[p]));
        return Hit{int(p), row, column};
    }
    return std::nullopt;
}

namespace {

// Each cell's number (or its given text) where the cells hold it legibly.
void drawCellValues(QPainter& painter, const QRectF& cells, const MatrixPanel& panel,
                    const ColourTable& colours, const QFont& font)
{
    const core::Matrix& m = panel.matrix;
    const bool given = panel.cellText.size() == m.size();
    const auto text = [&](int i, int j) {
        const Eigen::Index k = Eigen::Index(i) * m.cols() + j;
        if (given)
            return panel.cellText[qsizetype(k)];
        const QString number = QString::number(double(m.data()[k]), 'f', panel.valueDecimals);
        if (number.toDouble() == 0.0) // -0.004 shows as 0.00, not as a negative zero
            return number.startsWith(QLatin1Char('-')) ? number.mid(1) : number;
        return number.startsWith(QLatin1Char('-')) ? QChar(0x2212) + number.mid(1)
                                                   : number; // a real minus
    };
    const auto background = [&](int i, int j) {
        const float v = m(i, j);
        return std::isfinite(v) ? QColor(colours.at(double(v), panel.low, panel.high)) : QColor();
    };
    paint::drawCellText(painter, cells, int(m.rows()), int(m.cols()), text, background, font);
}

} // namespace

MatrixPanelsGeometry paintMatrixPanels(QPainter& painter, const QRectF& target,
                                       const std::vector<MatrixPanel>& panels, const QString& title,
                                       const QFont& font, const FigureStyle& style, bool vector)
{
    MatrixPanelsGeometry geometry;
    painter.save();
    const double u = paint::unit(painter);
    const QFont titleFont = paint::scaled(font, 1.25, true);
    const QFont panelFont = paint::scaled(font, 1.05, true);
    const QFont small = paint::scaled(font, 0.9);
    const QFontMetricsF fm(font, painter.device());
    const QFontMetricsF fmSmall(small, painter.device());
    QRectF area = target.adjusted(8 * u, 6 * u, -8 * u, -6 * u);
    painter.setPen(style.text);
    if (!title.isEmpty()) {
        const QFontMetricsF ft(titleFont, painter.device());
        painter.setFont(titleFont);
        painter.drawText(QRectF(area.left(), area.top(), area.width(), ft.height() * 1.3),
                         Qt::AlignCenter, ft.elidedText(title, Qt::ElideRight, area.width()));
        area.setTop(area.top() + ft.height() * 1.6);
    }
    const int n = int(panels.size());
    const double gap = 18 * u;
    // Side by side in a wide area, one above the other in a tall one (the window's view tab):
    // whichever leaves the cells the larger side (for square panels, the panels).
    Eigen::Index maxRows = 1, maxCols = 1;
    for (const MatrixPanel& panel : panels) {
        maxRows = std::max(maxRows, panel.matrix.rows());
        maxCols = std::max(maxCols, panel.matrix.cols());
    }
    const auto cellSide = [&](double width, double height) {
        return std::min(width / double(maxCols), height / double(maxRows));
    };
    const double acrossSide = n ? cellSide((area.width() - gap * (n - 1)) / n, area.height()) : 0;
    const double downSide = n ? cellSide(area.width(), (area.height() - gap * (n - 1)) / n) : 0;
    const bool stacked = downSide > acrossSide;
    const double panelWidth = stacked ? area.width() : n ? (area.width() - gap * (n - 1)) / n : 0;
    const double panelHeight = stacked && n ? (area.height() - gap * (n - 1)) / n : area.height();
    for (int p = 0; p < n; ++p) {
        const MatrixPanel& panel = panels[std::size_t(p)];
        const QRectF box =
            stacked
                ? QRectF(area.left(), area.top() + p * (panelHeight + gap), panelWidth, panelHeight)
                : QRectF(area.left() + p * (panelWidth + gap), area.top(), panelWidth, panelHeight);
        const int rows = int(panel.matrix.rows());
        const int cols = int(panel.matrix.cols());
        geometry.rows.push_back(rows);
        geometry.columns.push_back(cols);

        const QFontMetricsF fp(panelFont, painter.device());
        QRectF inner = box.adjusted(0, fp.height() * 1.5, 0, 0);

        auto widest = [&](const QStringList& labels) {
            double w = 0;
            for (const QString& l : labels)
                w = std::max(w, fmSmall.horizontalAdvance(l));
            return w;
        };
        const double axisBand = fmSmall.height() * 1.2;
        const double rowLabelWidth = std::min(widest(panel.rowLabels) + 4 * u, inner.width() * 0.3);
        const double columnLabelHeight =
            std::min(widest(panel.columnLabels) + 4 * u, inner.height() * 0.3);
        // The label under the bar is centred on it: at least as wide as the label, it stays
        // inside the panel instead of running past the figure's edge.
        const double barWidth =
            std::max(10 * u + fmSmall.horizontalAdvance(QStringLiteral("-0.00")) + 6 * u,
                     fmSmall.horizontalAdvance(panel.scaleLabel) + 2 * u);
        const QRectF room(inner.left() + (panel.rowAxis.isEmpty() ? 0 : axisBand) + rowLabelWidth,
                          inner.top(),
                          inner.width() - rowLabelWidth - barWidth - 10 * u -
                              (panel.rowAxis.isEmpty() ? 0 : axisBand),
                          inner.height() - columnLabelHeight -
                              (panel.columnAxis.isEmpty() ? 0 : axisBand) - fmSmall.height() * 2.2);
        const bool fits = rows > 0 && cols > 0 && room.width() > 4 && room.height() > 4;
        const double side = fits ? std::min(room.width() / cols, room.height() / rows) : 0.0;
        // Square cells leave room on one side: centred, so that a wide export is not drawn
        // in its top part only.
        const double shift = fits ? (room.height() - side * rows) / 2 : 0.0;
        const QRectF cells(room.left() + (room.width() - side * cols) / 2, room.top() + shift,
                           side * cols, side * rows);
        geometry.cells.push_back(cells);
        painter.setFont(panelFont);
        painter.setPen(style.text);
        painter.drawText(QRectF(box.left(), box.top() + shift, box.width(), fp.height() * 1.2),
                         Qt::AlignCenter, fp.elidedText(panel.title, Qt::ElideRight, box.width()));
        if (!fits) {
            geometry.cells.back() = QRectF();
            continue;
        }

        const ColourTable colours(panel.map);
        paint::drawCells(painter, cells, panel.matrix, colours, panel.low, panel.high, vector);
        if (panel.valueDecimals >= 0 || !panel.cellText.isEmpty())
            drawCellValues(painter, cells, panel, colours, small);
        painter.setPen(QPen(style.text, 0.5 * u));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(cells);
        if (panel.highlightRow >= 0 && panel.highlightRow < rows) {
            painter.setPen(QPen(style.accent, 2 * u));
            painter.drawRect(
                QRectF(cells.left(), cells.top() + panel.highlightRow * side, cells.width(), side));
        }
        if (panel.highlightColumn >= 0 && panel.highlightColumn < cols) {
            painter.setPen(QPen(style.accent, 2 * u));
            painter.drawRect(QRectF(cells.left() + panel.highlightColumn * side, cells.top(), side,
                                    cells.height()));
        }

        painter.setFont(small);
        painter.setPen(style.text);
        const int step = paint::labelStep(side, fmSmall.height());
        paint::drawRowLabels(painter, cells, panel.rowLabels, rows, rowLabelWidth, 3 * u, step);
        paint::drawColumnLabels(painter, cells, panel.columnLabels, cols, columnLabelHeight, 3 * u,
                                0.0, step);
        if (!panel.columnAxis.isEmpty())
            painter.drawText(QRectF(cells.left(), cells.bottom() + columnLabelHeight + 3 * u,
                                    cells.width(), axisBand),
                             Qt::AlignCenter, panel.columnAxis);
        if (!panel.rowAxis.isEmpty()) {
            painter.save();
            painter.translate(cells.left() - rowLabelWidth - axisBand, cells.center().y());
            painter.rotate(-90);
            painter.drawText(QRectF(-cells.height() / 2, 0, cells.height(), axisBand),
                             Qt::AlignCenter, panel.rowAxis);
            painter.restore();
        }
        const QRectF bar(cells.right() + 10 * u, cells.top(), barWidth,
                         std::max(cells.height(), fm.height() * 5));
        paint::drawColourBar(painter, bar, colours, panel.low, panel.high, panel.scaleLabel, small,
                             style.text);
    }
    painter.restore();
    return geometry;
}

} // namespace attn::ui
