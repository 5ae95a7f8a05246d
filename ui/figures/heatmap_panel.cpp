#include "ui/figures/heatmap_panel.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <functional>

namespace attn::ui {

QFont figureFont(const QCustomPlot& plot, const FigureSpec& spec, double points, bool bold)
{
    QFont f = plot.font();
    f.setPixelSize(std::max(1, int(std::lround(points * spec.pixelsPerPoint()))));
    f.setBold(bold);
    // A hair of letter spacing turns ligatures off (Qt keeps them where a script needs
    // them), so "off" stays o-f-f in a PDF and the labels can be searched and copied.
    f.setLetterSpacing(QFont::AbsoluteSpacing, 0.05); // (Qt keeps 1/64 px steps)
    return f;
}

double HeatmapPanel::position(double value) const
{
    if (log)
        return std::log(std::clamp(value, low, high) / low) / std::log(high / low);
    return std::clamp((value - low) / std::max(high - low, 1e-12), 0.0, 1.0);
}

QCPColorMap* addHeatmapCells(QCPAxisRect* rect, const Eigen::Ref<const core::MatrixD>& values,
                             const HeatmapPanel& how, HeatmapTicks ticks)
{
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    const int rows = int(values.rows());
    const int cols = int(values.cols());
    auto* map = new QCPColorMap(x, y);
    map->setInterpolate(false); // cells, not a blur
    map->setTightBoundary(false);
    map->data()->setSize(cols, rows);
    map->data()->setRange(QCPRange(0, std::max(0, cols - 1)), QCPRange(0, std::max(0, rows - 1)));
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            map->data()->setCell(j, i, values(i, j));
    QCPColorGradient gradient = colorGradient(how.map);
    if (how.masked.isValid())
        gradient.setNanColor(how.masked);
    map->setGradient(gradient);
    if (how.log)
        map->setDataScaleType(QCPAxis::stLogarithmic);
    map->setDataRange(QCPRange(how.low, how.high));
    map->setName(how.title);
    y->setRangeReversed(true); // row 0 at the top, as a matrix is written
    x->setRange(-0.5, cols - 0.5);
    y->setRange(-0.5, rows - 0.5);
    x->grid()->setVisible(false);
    y->grid()->setVisible(false);
    if (ticks == HeatmapTicks::Given) {
        setTickLabels(x, how.columnLabels, 1);
        setTickLabels(y, how.rowLabels, 1);
        return map;
    }
    if (how.columnLabels.isEmpty())
        setIntegerTicks(x);
    else
        setTokenTicks(x, how.columnLabels, how.columnLabels.size() > 6 ? 45.0 : 0.0);
    if (how.rowLabels.isEmpty())
        setIntegerTicks(y);
    else
        setTokenTicks(y, how.rowLabels);
    return map;
}

QCPItemText* addCellNumber(QCustomPlot& plot, QCPAxisRect* rect, int row, int column,
                           const QString& text, const QFont& font, Colormap map, double position)
{
    auto* item = new QCPItemText(&plot);
    item->setClipAxisRect(rect);
    item->setClipToAxisRect(true);
    item->position->setAxisRect(rect);
    item->position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    item->position->setType(QCPItemPosition::ptPlotCoords);
    item->position->setCoords(column, row);
    item->setPositionAlignment(Qt::AlignCenter);
    item->setFont(font);
    item->setColor(textColorOn(colorAt(map, position)));
    item->setText(text);
    return item;
}

namespace {

// Numbers are drawn in the cells up to this many cells a panel; larger ones stay colours.
constexpr int kMostNumberedCells = 160;

QString cellText(double value, const FigureSpec& spec)
{
    return QLocale().toString(value, 'g', std::max(1, spec.precision));
}

} // namespace

void numberPanels(QCustomPlot& plot, const FigureSpec& spec,
                  const std::vector<NumberedPanel>& panels)
{
    if (!spec.showValues)
        return;
    layOutPlot(plot);
    const QFont font = figureFont(plot, spec, spec.fontPoints * 0.8);
    const QFontMetricsF metrics(font);
    for (const NumberedPanel& panel : panels) {
        const core::MatrixD& values = panel.values;
        if (values.size() == 0 || values.size() > kMostNumberedCells)
            continue;
        double widest = 0.0;
        for (double v : values.reshaped())
            widest = std::max(widest, metrics.horizontalAdvance(cellText(v, spec)));
        if (widest + 2 > panel.rect->width() / double(values.cols()) ||
            metrics.height() > panel.rect->height() / double(values.rows()))
            continue;
        for (int i = 0; i < int(values.rows()); ++i)
            for (int j = 0; j < int(values.cols()); ++j)
                addCellNumber(plot, panel.rect, i, j, cellText(values(i, j), spec), font,
                              panel.how.map, panel.how.position(values(i, j)));
    }
}

QCPColorScale* addColorScale(QCustomPlot& plot, const FigureSpec& spec, QCPLayoutGrid* grid,
                             int row, int column, Colormap map, double low, double high,
                             const QString& label, bool log, const QColor& masked)
{
    auto* scale = new QCPColorScale(&plot);
    grid->addElement(row, column, scale);
    scale->setType(QCPAxis::atRight);
    QCPColorGradient gradient = colorGradient(map);
    if (masked.isValid())
        gradient.setNanColor(masked);
    scale->setGradient(gradient);
    if (log)
        scale->setDataScaleType(QCPAxis::stLogarithmic);
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
    if (log) { // 10^-4 ... 1, one tick a decade
        QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
        ticker->setSubTickCount(0);
        axis->setTicker(ticker);
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
    }
    return scale;
}

void setTickLabels(QCPAxis* axis, const QStringList& labels, int step)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (qsizetype i = 0; i < labels.size(); i += step)
        ticker->addTick(double(i), labels[i]);
    axis->setTicker(ticker);
    axis->setTickLabels(!labels.isEmpty());
}

void layOutPlot(QCustomPlot& plot)
{
    QCPLayout* layout = plot.plotLayout();
    layout->setOuterRect(plot.viewport());
    layout->update(QCPLayoutElement::upPreparation);
    layout->update(QCPLayoutElement::upMargins);
    layout->update(QCPLayoutElement::upLayout);
}

namespace {

// The length of the axis in pixels as laid out now, and what one tick label needs of it.
double axisPixels(const QCPAxis* axis)
{
    return axis->orientation() == Qt::Horizontal ? axis->axisRect()->width()
                                                 : axis->axisRect()->height();
}

double labelNeed(const QCPAxis* axis, const QStringList& labels)
{
    const QFontMetricsF metrics(axis->tickLabelFont());
    // Upright labels side by side need their width; stacked or turned ones a line each.
    if (axis->orientation() == Qt::Vertical || axis->tickLabelRotation() != 0.0)
        return metrics.height() * 1.1;
    double widest = 0.0;
    for (const QString& label : labels)
        widest = std::max(widest, metrics.horizontalAdvance(label));
    return widest + metrics.height() * 0.5;
}

// A ticker of QCustomPlot's kind `Base`, fitted to its axis each time it makes ticks (each
// replot): a rect's size is known only once the plot is laid out, and follows the window.
template <class Base> class FittedTicker : public Base
{
public:
    explicit FittedTicker(std::function<void(Base&, const QCPRange&)> fit) : m_fit(std::move(fit))
    {
    }

    void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision,
                  QVector<double>& ticks, QVector<double>* subTicks,
                  QVector<QString>* tickLabels) override
    {
        m_fit(*this, range);
        Base::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
    }

private:
    std::function<void(Base&, const QCPRange&)> m_fit;
};

} // namespace

void setIntegerTicks(QCPAxis* axis, int count)
{
    // The axis owns the ticker, so the ticker may keep the axis.
    auto* ticker = new FittedTicker<QCPAxisTickerFixed>(
        [axis, count = std::max(1, count)](QCPAxisTickerFixed& fixed, const QCPRange& range) {
            double step = std::max(1.0, std::ceil(range.size() / count));
            const double pixels = axisPixels(axis);
            if (pixels > 0) {
                const QStringList ends{QString::number(std::floor(range.lower)),
                                       QString::number(std::ceil(range.upper))};
                step = std::max(step, std::ceil(labelNeed(axis, ends) * range.size() / pixels));
            }
            fixed.setTickStep(step);
        });
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    axis->setTicker(QSharedPointer<QCPAxisTicker>(ticker));
}

int tokenTickStep(const QCPAxis* axis, const QStringList& labels)
{
    const double pixels = axisPixels(axis);
    if (labels.size() <= 1 || pixels <= 0)
        return 1;
    return std::max(1, int(std::ceil(labelNeed(axis, labels) * double(labels.size()) / pixels)));
}

void setTokenTicks(QCPAxis* axis, const QStringList& labels, double rotation)
{
    axis->setTicker(QSharedPointer<QCPAxisTicker>(new FittedTicker<QCPAxisTickerText>(
        [axis, labels](QCPAxisTickerText& text, const QCPRange&) {
            text.clear();
            const int step = tokenTickStep(axis, labels);
            for (int i = 0; i < labels.size(); i += step)
                text.addTick(i, labels[i]);
        })));
    axis->setTickLabelRotation(rotation);
}

} // namespace attn::ui
