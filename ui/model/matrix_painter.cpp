#include "ui/model/matrix_painter.h"

#include "core/token_display.h"
#include "ui/figures/legible_text.h"

#include <QFontMetricsF>
#include <QPaintDevice>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace attn::ui {

ColourTable::ColourTable(Colormap map) : m_map(map)
{
    for (int i = 0; i < 256; ++i)
        m_colours[std::size_t(i)] = colorAt(map, i / 255.0).rgb();
}

QRgb ColourTable::at(double t) const
{
    if (!(t > 0.0)) // NaN too
        return m_colours[0];
    return m_colours[std::size_t(std::min(255, int(t * 255.0 + 0.5)))];
}

namespace paint {

double unit(const QPainter& painter)
{
    const QPaintDevice* device = painter.device();
    return device ? device->logicalDpiX() / 96.0 : 1.0;
}

QFont scaled(const QFont& font, double scale, bool bold)
{
    QFont f = font;
    if (font.pointSizeF() > 0)
        f.setPointSizeF(font.pointSizeF() * scale);
    else
        f.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * scale))));
    f.setBold(bold);
    return f;
}

QImage cellImage(const core::Matrix& matrix, const ColourTable& colours, double low, double high,
                 const QColor& masked)
{
    QImage image(int(matrix.cols()), int(matrix.rows()), QImage::Format_RGB32);
    const double span = high > low ? high - low : 1.0;
    const QRgb grey = masked.rgb();
    for (int i = 0; i < image.height(); ++i) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(i));
        for (int j = 0; j < image.width(); ++j) {
            const float v = matrix(i, j);
            line[j] = std::isnan(v) ? grey : colours.at((double(v) - low) / span);
        }
    }
    return image;
}

void drawCells(QPainter& painter, const QRectF& rect, const core::Matrix& matrix,
               const ColourTable& colours, double low, double high, bool vector)
{
    if (matrix.size() == 0)
        return;
    constexpr qint64 kMaxVectorCells = 40000; // beyond this a PDF viewer crawls
    if (vector && qint64(matrix.size()) <= kMaxVectorCells) {
        const double w = rect.width() / double(matrix.cols());
        const double h = rect.height() / double(matrix.rows());
        const double span = high > low ? high - low : 1.0;
        painter.save();
        painter.setPen(Qt::NoPen);
        for (Eigen::Index i = 0; i < matrix.rows(); ++i)
            for (Eigen::Index j = 0; j < matrix.cols(); ++j) {
                const float v = matrix(i, j);
                painter.setBrush(std::isnan(v) ? QColor(0xd9, 0xd9, 0xd9)
                                               : QColor(colours.at((double(v) - low) / span)));
                // A hair wider than the cell, so that viewers leave no seams between cells.
                painter.drawRect(
                    QRectF(rect.left() + j * w, rect.top() + i * h, w * 1.02, h * 1.02));
            }
        painter.restore();
        return;
    }
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.drawImage(rect, cellImage(matrix, colours, low, high));
    painter.restore();
}

void drawColourBar(QPainter& painter, const QRectF& rect, const ColourTable& colours, double low,
                   double high, const QString& label, const QFont& font, const QColor& text)
{
    const QFontMetricsF fm(font, painter.device());
    const double u = unit(painter);
    const QRectF bar(
        rect.left(), rect.top() + fm.height() / 2, std::max(6.0 * u, rect.width() * 0.25),
        std::max(4.0, rect.height() - fm.height() - (label.isEmpty() ? 0 : fm.height() * 1.4)));
    QImage ramp(1, 256, QImage::Format_RGB32);
    for (int i = 0; i < 256; ++i)
        ramp.setPixel(0, i, colours.at(1.0 - i / 255.0));
    painter.save();
    painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
    painter.drawImage(bar, ramp);
    painter.setPen(QPen(text, 0.5 * u));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);
    painter.setFont(font);
    const auto number = [](double v) {
        return std::abs(v) >= 100 || (std::abs(v) < 0.01 && v != 0) ? QString::number(v, 'g', 2)
                                                                    : QString::number(v, 'f', 2);
    };
    const double x = bar.right() + 3 * u;
    painter.drawText(QRectF(x, bar.top() - fm.height() / 2, rect.right() - x, fm.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, number(high));
    painter.drawText(QRectF(x, bar.bottom() - fm.height() / 2, rect.right() - x, fm.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, number(low));
    if (!label.isEmpty())
        painter.drawText(QRectF(rect.left() - rect.width(), bar.bottom() + fm.height() * 0.6,
                                rect.width() * 3, fm.height() * 1.2),
                         Qt::AlignHCenter | Qt::AlignTop, label);
    painter.restore();
}

QString tokenLabel(const QString& text, int maxCharacters)
{
    QString shown = core::tokenDisplayText(text);
    if (shown.size() > maxCharacters)
        shown = shown.left(maxCharacters - 1) + QChar(0x2026);
    if (shown.startsWith(QLatin1Char(' ')) || shown.endsWith(QLatin1Char(' ')) || shown.isEmpty())
        shown = QChar(0x201c) + shown + QChar(0x201d);
    return shown;
}

} // namespace paint

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

// Each cell's number at `font`, or smaller down to smallestLegiblePoints; none where even
// that does not fit a cell.
void drawCellValues(QPainter& painter, const QRectF& cells, const MatrixPanel& panel,
                    const ColourTable& colours, const QFont& font)
{
    const core::Matrix& m = panel.matrix;
    const bool given = panel.cellText.size() == m.size();
    const auto text = [&](Eigen::Index k) {
        if (given)
            return panel.cellText[qsizetype(k)];
        const QString number = QString::number(double(m.data()[k]), 'f', panel.valueDecimals);
        if (number.toDouble() == 0.0) // -0.004 shows as 0.00, not as a negative zero
            return number.startsWith(QLatin1Char('-')) ? number.mid(1) : number;
        return number.startsWith(QLatin1Char('-')) ? QChar(0x2212) + number.mid(1)
                                                   : number; // a real minus
    };
    double widest = 0.0;
    QFontMetricsF fm(font, painter.device());
    for (Eigen::Index k = 0; k < m.size(); ++k)
        widest = std::max(widest, fm.horizontalAdvance(text(k)));
    const double side = cells.width() / double(m.cols());
    const double scale =
        std::min(1.0, std::min(side * 0.9 / std::max(widest, 1e-6), side * 0.85 / fm.height()));
    QFont shrunk = paint::scaled(font, scale);
    if (font.pointSizeF() > 0 && shrunk.pointSizeF() < smallestLegiblePoints(font.pointSizeF()))
        return;
    painter.save();
    painter.setFont(shrunk);
    const double span = panel.high > panel.low ? panel.high - panel.low : 1.0;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            const float v = m(i, j);
            if (!std::isfinite(v))
                continue;
            painter.setPen(textColorOn(QColor(colours.at((double(v) - panel.low) / span))));
            painter.drawText(QRectF(cells.left() + j * side, cells.top() + i * side, side, side),
                             Qt::AlignCenter, text(i * m.cols() + j));
        }
    painter.restore();
}

// Every `step`-th label, so that labels never overlap at `pitch` device units per cell.
int labelStep(double pitch, double labelHeight)
{
    return pitch >= labelHeight * 0.95 ? 1
                                       : int(std::ceil(labelHeight * 0.95 / std::max(pitch, 1e-6)));
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
        const int rowStep = labelStep(side, fmSmall.height());
        for (int i = 0; i < rows && i < panel.rowLabels.size(); i += rowStep)
            painter.drawText(QRectF(cells.left() - rowLabelWidth, cells.top() + i * side,
                                    rowLabelWidth - 3 * u, side),
                             Qt::AlignRight | Qt::AlignVCenter, panel.rowLabels[i]);
        const int columnStep = labelStep(side, fmSmall.height());
        for (int j = 0; j < cols && j < panel.columnLabels.size(); j += columnStep) {
            painter.save();
            painter.translate(cells.left() + (j + 0.5) * side, cells.bottom() + 3 * u);
            painter.rotate(-90);
            painter.drawText(QRectF(-columnLabelHeight, -side / 2, columnLabelHeight, side),
                             Qt::AlignRight | Qt::AlignVCenter, panel.columnLabels[j]);
            painter.restore();
        }
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
