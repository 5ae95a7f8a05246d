#include "ui/concepts/concept_plot.h"

#include "ui/figures/colormap.h"
#include "ui/figures/heatmap_panel.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace attn::ui {
namespace {

constexpr const char* kPanelTitle = "panelTitle";

} // namespace

void clearPlot(QCustomPlot& plot, const FigureSpec& spec)
{
    plot.clearPlottables();
    plot.clearItems();
    plot.clearGraphs();
    plot.plotLayout()->clear();
    plot.plotLayout()->simplify();
    plot.setBackground(spec.style.background);
    plot.setAutoAddPlottableToLegend(false); // each figure fills its own legend
    plot.setAntialiasedElements(QCP::aeAll);
}

QString wrapText(const QString& text, const QFont& font, double width)
{
    const QFontMetricsF metrics(font);
    if (width <= 0 || metrics.horizontalAdvance(text) <= width)
        return text;
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    lines << line;
    for (QString& each : lines) // a single word wider than the figure
        each = metrics.elidedText(each, Qt::ElideRight, width);
    return lines.join(QLatin1Char('\n'));
}

QCPTextElement* addFigureText(QCustomPlot& plot, const FigureSpec& spec, int row,
                              const QString& text, bool title)
{
    const QFont font =
        figureFont(plot, spec, title ? spec.fontPoints * 1.2 : spec.fontPoints * 0.95, title);
    const double width = plot.viewport().width() - 16 * spec.pixelsPerPoint();
    auto* element = new QCPTextElement(&plot, wrapText(text, font, width), font);
    // Notes too: they carry the figure's point (the seed quotes), so full contrast.
    element->setTextColor(spec.style.text);
    element->setMargins(QMargins(0, 0, 0, int(std::lround(4 * spec.pixelsPerPoint()))));
    plot.plotLayout()->addElement(row, 0, element);
    return element;
}

QCPAxisRect* addAxisRect(QCustomPlot& plot, const FigureSpec& spec, QCPLayoutGrid* grid, int row,
                         int column, const QString& xLabel, const QString& yLabel)
{
    auto* rect = new QCPAxisRect(&plot);
    grid->addElement(row, column, rect);
    for (QCPAxis* axis : rect->axes()) {
        axis->setBasePen(QPen(spec.style.text, spec.style.lineScale));
        axis->setTickPen(QPen(spec.style.text, spec.style.lineScale));
        axis->setSubTickPen(Qt::NoPen);
        axis->setTickLabelColor(spec.style.text);
        axis->setLabelColor(spec.style.text);
        axis->setTickLabelFont(figureFont(plot, spec, spec.fontPoints * 0.9));
        axis->setLabelFont(figureFont(plot, spec, spec.fontPoints));
        axis->grid()->setPen(QPen(spec.style.mutedText.lighter(150), 0, Qt::DotLine));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    rect->axis(QCPAxis::atBottom)->setLabel(xLabel);
    rect->axis(QCPAxis::atLeft)->setLabel(yLabel);
    return rect;
}

void setPanelTitle(QCustomPlot& plot, const FigureSpec& spec, QCPAxisRect* rect,
                   const QString& text)
{
    QCPAxis* top = rect->axis(QCPAxis::atTop);
    top->setVisible(true);
    top->setTicks(false);
    top->setTickLabels(false);
    top->setBasePen(Qt::NoPen);
    top->setLabel(text);
    top->setProperty(kPanelTitle, text); // finishFigure wraps it to the panel's width
    top->setLabelFont(figureFont(plot, spec, spec.fontPoints, true));
    top->setLabelColor(spec.style.text);
}

QRectF labelRect(const QCPItemText& label, bool padded)
{
    const QPointF at = label.position->pixelPosition();
    const QMargins pad = padded ? label.padding() : QMargins();
    const QSizeF text =
        QFontMetricsF(label.font())
            .boundingRect(QRectF(), int(Qt::TextDontClip | label.textAlignment()), label.text())
            .size();
    const QSizeF size(text.width() + pad.left() + pad.right(),
                      text.height() + pad.top() + pad.bottom());
    const Qt::Alignment align = label.positionAlignment();
    const double left = align & Qt::AlignLeft    ? at.x()
                        : align & Qt::AlignRight ? at.x() - size.width()
                                                 : at.x() - size.width() / 2;
    const double top = align & Qt::AlignTop      ? at.y()
                       : align & Qt::AlignBottom ? at.y() - size.height()
                                                 : at.y() - size.height() / 2;
    QRectF box(QPointF(left, top), size);
    return padded ? box : box.translated(pad.left(), pad.top());
}

int placeLabels(QCustomPlot& plot, QCPAxisRect* rect, const std::vector<QCPItemText*>& labels)
{
    // Greedy point-feature labelling: right and above the point first (where a reader looks
    // for it), then the other corners, then straight above and below.
    const Qt::Alignment places[] = {
        Qt::AlignLeft | Qt::AlignBottom,    Qt::AlignLeft | Qt::AlignTop,
        Qt::AlignRight | Qt::AlignBottom,   Qt::AlignRight | Qt::AlignTop,
        Qt::AlignHCenter | Qt::AlignBottom, Qt::AlignHCenter | Qt::AlignTop,
    };
    const QRectF inside = QRectF(rect->rect());
    std::vector<QRectF> taken;
    int dropped = 0;
    for (QCPItemText* label : labels) {
        bool placed = false;
        for (Qt::Alignment place : places) {
            label->setPositionAlignment(place);
            const QRectF box = labelRect(*label, true);
            if (!inside.contains(box))
                continue;
            if (std::any_of(taken.begin(), taken.end(),
                            [&](const QRectF& other) { return other.intersects(box); }))
                continue;
            taken.push_back(box);
            placed = true;
            break;
        }
        if (!placed) {
            plot.removeItem(label);
            ++dropped;
        }
    }
    return dropped;
}

void finishFigure(QCustomPlot& plot)
{
    layOutPlot(plot);
    // Panel titles broken into lines no wider than their panel, so that none runs past the
    // figure's edge or under its neighbour; then laid out again for the taller margins.
    bool wrapped = false;
    for (QCPAxisRect* rect : plot.axisRects()) {
        QCPAxis* top = rect->axis(QCPAxis::atTop);
        const QString text = top->property(kPanelTitle).toString();
        if (text.isEmpty())
            continue;
        const QString fitted = wrapText(text, top->labelFont(), rect->width());
        wrapped = wrapped || fitted != top->label();
        top->setLabel(fitted);
    }
    if (wrapped)
        layOutPlot(plot);
}

QCPLegend* addLegendRow(QCustomPlot& plot, const FigureSpec& spec, int row)
{
    auto* legend = new QCPLegend;
    plot.plotLayout()->addElement(row, 0, legend);
    legend->setLayer(QStringLiteral("legend"));
    legend->setFont(figureFont(plot, spec, spec.fontPoints * 0.85));
    legend->setTextColor(spec.style.text);
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(2);
    return legend;
}

} // namespace attn::ui
