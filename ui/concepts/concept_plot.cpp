#include "ui/concepts/concept_plot.h"

#include "ui/figures/colormap.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace attn::ui {

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

QFont figureFont(const QCustomPlot& plot, const FigureSpec& spec, double points, bool bold)
{
    QFont f = plot.font();
    f.setPixelSize(std::max(1, int(std::lround(points * spec.pixelsPerPoint()))));
    f.setBold(bold);
    // As the heatmaps: ligatures off, so text stays searchable in a PDF.
    f.setLetterSpacing(QFont::AbsoluteSpacing, 0.05);
    return f;
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

QCPColorScale* addColorScale(QCustomPlot& plot, const FigureSpec& spec, QCPLayoutGrid* grid,
                             int row, int column, Colormap map, double low, double high,
                             const QString& label)
{
    auto* scale = new QCPColorScale(&plot);
    grid->addElement(row, column, scale);
    scale->setType(QCPAxis::atRight);
    scale->setGradient(colorGradient(map));
    scale->setDataRange(QCPRange(low, high));
    scale->setBarWidth(int(std::lround(10 * spec.pixelsPerPoint())));
    scale->setRangeDrag(false);
    scale->setRangeZoom(false);
    QCPAxis* axis = scale->axis();
    axis->setTickLabelFont(figureFont(plot, spec, spec.fontPoints * 0.9));
    axis->setLabelFont(figureFont(plot, spec, spec.fontPoints * 0.9));
    axis->setLabel(label);
    axis->setTickLabelColor(spec.style.text);
    axis->setLabelColor(spec.style.text);
    axis->setBasePen(Qt::NoPen);
    axis->setTickPen(QPen(spec.style.text));
    axis->setSubTickPen(Qt::NoPen);
    axis->setNumberFormat(QStringLiteral("g"));
    return scale;
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
    top->setLabelFont(figureFont(plot, spec, spec.fontPoints, true));
    top->setLabelColor(spec.style.text);
}

void setIntegerTicks(QCPAxis* axis, int count)
{
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    const double span = axis->range().size();
    ticker->setTickStep(std::max(1.0, std::ceil(span / std::max(1, count))));
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    axis->setTicker(ticker);
}

void setTokenTicks(QCPAxis* axis, const QStringList& labels, double rotation)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    // Every label where they fit at about 7 px per character; else every n-th.
    const double pixels = axis->orientation() == Qt::Horizontal ? axis->axisRect()->width()
                                                                : axis->axisRect()->height();
    const int step =
        labels.size() <= 1 || pixels <= 0
            ? 1
            : std::max(
                  1, int(std::ceil(
                         double(labels.size()) *
                         (axis->orientation() == Qt::Horizontal && rotation == 0.0 ? 40.0 : 14.0) /
                         pixels)));
    for (int i = 0; i < labels.size(); i += step)
        ticker->addTick(i, labels[i]);
    axis->setTicker(ticker);
    axis->setTickLabelRotation(rotation);
}

} // namespace attn::ui
