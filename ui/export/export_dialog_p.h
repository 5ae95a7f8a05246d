#pragma once

#include "ui/export/export_dialog.h"

#include "ui/figures/figure_builder.h"
#include "ui/figures/lines_figure.h"

#include "core/error.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QImage>
#include <QPainter>
#include <QVariant>
#include <QWidget>
#include <functional>
#include <optional>

// What the figure export's files share: export_rendering.cpp (sizes, the figure's bytes),
// export_dialog.cpp (the dialog's behaviour), export_dialog_layout.cpp (its widgets) and
// matrix_export_dialog.cpp (Export Matrix). Not used elsewhere.
namespace attn::ui {

namespace export_detail {

// A figure of `pixels` at `dpi` that cannot be rendered: why, in the user's words (defined in
// export_rendering.cpp).
std::optional<QString> sizeProblem(QSize pixels, int dpi);

// Builds the figure of `settings` for a target of `size` pixels at `dpi` and hands the plot
// to `use` while the builder (which owns derived matrices) is alive.
// `valuesLeftOut`, when given, is set as FigureBuilder::valuesLeftOut.
template <class Use>
auto withFigure(const ExportSource& source, const ExportSettings& settings, QSize size, double dpi,
                Use use, bool* valuesLeftOut = nullptr)
{
    if (!source.result)
        throw core::Error("there is no result to export yet");
    QCustomPlot plot;
    plot.setAttribute(Qt::WA_DontShowOnScreen);
    plot.resize(size);
    FigureSpec spec = settings.figureSpec();
    spec.dpi = dpi;
    if (source.drawConcept) {
        plot.setViewport(QRect(QPoint(0, 0), size));
        source.drawConcept(plot, spec);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        return use(plot);
    }
    if (spec.view == FigureView::Lines) {
        buildLinesFigure(plot, *source.result, spec);
        return use(plot);
    }
    FigureBuilder builder(plot, spec);
    builder.build(*source.result, size,
                  spec.view == FigureView::Difference ? source.compare.get() : nullptr);
    if (valuesLeftOut)
        *valuesLeftOut = builder.valuesLeftOut();
    return use(plot);
}

// Defined in export_dialog.cpp.
QString sentence(QString text);
QString formatKey(FigureFormat format);
QString unitKey(SizeUnit unit);
void selectData(QComboBox* box, const QVariant& data);

} // namespace export_detail

// The page on a backdrop, centred, with a soft shadow; the error box sits in its place.
class ExportDialog::Preview : public QWidget
{
public:
    static constexpr int kMargin = 18;

    explicit Preview(QWidget* parent) : QWidget(parent)
    {
        setMinimumSize(420, 320);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }

    // Where the page may go, in device-independent pixels.
    QSizeF room() const
    {
        const QSize size = this->size().expandedTo(minimumSize());
        return QSizeF(size.width() - 2.0 * kMargin, size.height() - 2.0 * kMargin);
    }

    void setImage(const QImage& image)
    {
        m_image = image;
        update();
    }
    const QImage& image() const { return m_image; }

    std::function<void()> resized;

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        const QColor window = palette().color(QPalette::Window);
        painter.fillRect(rect(),
                         window.lightness() > 128 ? window.darker(112) : window.darker(140));
        if (m_image.isNull())
            return;
        const QSizeF size = m_image.deviceIndependentSize();
        const QRectF page(QPointF((width() - size.width()) / 2.0, (height() - size.height()) / 2.0),
                          size);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        for (int i = 4; i >= 1; --i) { // a soft shadow, deeper below than above
            painter.setBrush(QColor(0, 0, 0, 10 + 4 * (4 - i)));
            painter.drawRoundedRect(page.adjusted(-i, -i + 2, i, i + 2), i, i);
        }
        painter.setRenderHint(QPainter::Antialiasing, false);
        painter.drawImage(page, m_image);
        painter.setPen(QColor(0, 0, 0, 50));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(page.adjusted(-0.5, -0.5, 0.5, 0.5));
    }

    void resizeEvent(QResizeEvent*) override
    {
        if (resized)
            resized();
    }

private:
    QImage m_image;
};

} // namespace attn::ui
