#include "ui/figures/heatmap_painter.h"

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

QRgb ColourTable::at(double value, double low, double high) const
{
    return at((value - low) / (high > low ? high - low : 1.0));
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
    const QRgb grey = masked.rgb();
    for (int i = 0; i < image.height(); ++i) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(i));
        for (int j = 0; j < image.width(); ++j) {
            const float v = matrix(i, j);
            line[j] = std::isnan(v) ? grey : colours.at(double(v), low, high);
        }
    }
    return image;
}

void drawCellImage(QPainter& painter, const QRectF& rect, const QImage& cells, bool rectangles)
{
    if (cells.isNull())
        return;
    painter.save();
    if (rectangles) {
        const double w = rect.width() / cells.width();
        const double h = rect.height() / cells.height();
        painter.setPen(Qt::NoPen);
        for (int i = 0; i < cells.height(); ++i)
            for (int j = 0; j < cells.width(); ++j) {
                painter.setBrush(QColor(cells.pixel(j, i)));
                // A hair wider than the cell, so that viewers leave no seams between cells.
                painter.drawRect(
                    QRectF(rect.left() + j * w, rect.top() + i * h, w * 1.02, h * 1.02));
            }
    } else {
        painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
        painter.drawImage(rect, cells);
    }
    painter.restore();
}

void drawCells(QPainter& painter, const QRectF& rect, const core::Matrix& matrix,
               const ColourTable& colours, double low, double high, bool vector)
{
    constexpr qint64 kMaxVectorCells = 40000; // beyond this a PDF viewer crawls
    drawCellImage(painter, rect, cellImage(matrix, colours, low, high),
                  vector && qint64(matrix.size()) <= kMaxVectorCells);
}

void drawCellRow(QPainter& painter, const QRectF& rect, const core::RowVector& values, Colormap map,
                 double low, double high, double overlap)
{
    if (values.size() == 0)
        return;
    const double w = rect.width() / double(values.size());
    const double span = high > low ? high - low : 1.0;
    for (Eigen::Index i = 0; i < values.size(); ++i)
        fillCell(painter,
                 QRectF(rect.left() + double(i) * w, rect.top(), w + overlap, rect.height()),
                 colorAt(map, std::clamp((double(values(i)) - low) / span, 0.0, 1.0)));
}

void fillCell(QPainter& painter, const QRectF& rect, const QColor& fill, bool hatched)
{
    painter.fillRect(rect, fill);
    if (hatched)
        painter.fillRect(rect, QBrush(QColor(0, 0, 0, 140), Qt::BDiagPattern));
}

bool drawCellText(QPainter& painter, const QRectF& cells, int rows, int columns,
                  const std::function<QString(int, int)>& text,
                  const std::function<QColor(int, int)>& background, const QFont& font)
{
    if (rows <= 0 || columns <= 0)
        return false;
    double widest = 0.0;
    const QFontMetricsF fm(font, painter.device());
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < columns; ++j)
            widest = std::max(widest, fm.horizontalAdvance(text(i, j)));
    const double w = cells.width() / double(columns);
    const double h = cells.height() / double(rows);
    const double scale =
        std::min(1.0, std::min(w * 0.9 / std::max(widest, 1e-6), h * 0.85 / fm.height()));
    const QFont shrunk = scaled(font, scale);
    if (font.pointSizeF() > 0 && shrunk.pointSizeF() < smallestLegiblePoints(font.pointSizeF()))
        return false;
    painter.save();
    painter.setFont(shrunk);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < columns; ++j) {
            const QColor fill = background(i, j);
            if (!fill.isValid())
                continue;
            painter.setPen(textColorOn(fill));
            painter.drawText(QRectF(cells.left() + j * w, cells.top() + i * h, w, h),
                             Qt::AlignCenter, text(i, j));
        }
    painter.restore();
    return true;
}

int labelStep(double pitch, double labelHeight)
{
    return pitch >= labelHeight * 0.95 ? 1
                                       : int(std::ceil(labelHeight * 0.95 / std::max(pitch, 1e-6)));
}

void drawRowLabels(QPainter& painter, const QRectF& cells, const QStringList& labels, int rows,
                   double width, double gap, int step, int flags)
{
    if (rows <= 0)
        return;
    const double pitch = cells.height() / rows;
    for (int i = 0; i < rows && i < labels.size(); i += std::max(1, step))
        painter.drawText(QRectF(cells.left() - width, cells.top() + i * pitch, width - gap, pitch),
                         int(Qt::AlignRight | Qt::AlignVCenter) | flags, labels[i]);
}

void drawColumnLabels(QPainter& painter, const QRectF& cells, const QStringList& labels,
                      int columns, double length, double gap, double inset, int step, int flags)
{
    if (columns <= 0)
        return;
    const double pitch = cells.width() / columns;
    for (int j = 0; j < columns && j < labels.size(); j += std::max(1, step)) {
        painter.save();
        painter.translate(cells.left() + (j + 0.5) * pitch, cells.bottom() + gap);
        painter.rotate(-90);
        painter.drawText(QRectF(-length, -pitch / 2, length - inset, pitch),
                         int(Qt::AlignRight | Qt::AlignVCenter) | flags, labels[j]);
        painter.restore();
    }
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

} // namespace paint

} // namespace attn::ui
