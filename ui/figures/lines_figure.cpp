#include "ui/figures/lines_figure.h"

#include "ui/figures/colormap.h"
#include "ui/figures/figure_builder.h"
#include "ui/views/lines_view.h"

#include "core/error.h"

#include <qcustomplot.h>

#include <cmath>

namespace attn::ui {

namespace {

const QColor kInk(0x20, 0x20, 0x20); // FigureBuilder's text colour

// A font `points` tall at `dpi`, as FigureBuilder sets its text: pixel-sized so it scales
// with the figure, and a hair of letter spacing so that ligatures stay searchable letters.
QFont figureFont(const QFont& base, double points, double dpi, bool bold)
{
    QFont font = base;
    font.setPixelSize(std::max(1, int(std::lround(points * dpi / 72.0))));
    font.setBold(bold);
    font.setLetterSpacing(QFont::AbsoluteSpacing, 0.05);
    return font;
}

// The map's dark third (near black for greyscale): a line of any opacity reads on white.
QColor linesColor(Colormap map)
{
    return colorAt(map, map == Colormap::Gray ? 0.9 : 0.3);
}

// The lines view as a QCustomPlot layout element, so that renderFigure writes it exactly as
// it writes the heatmaps (PNG with DPI, SVG and PDF with text as text).
class LinesElement : public QCPLayoutElement
{
public:
    LinesElement(QCustomPlot* plot, const core::AttentionResult& result, int head,
                 const QFont& font, const QColor& color)
        : QCPLayoutElement(plot), m_result(result), m_head(head), m_font(font), m_color(color)
    {
    }

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override
    {
        painter->setAntialiasing(true);
    }
    void draw(QCPPainter* painter) override
    {
        painter->save();
        painter->setPen(kInk); // render() sets its text in the painter's pen colour
        LinesView::render(*painter, QRectF(mRect), m_result, m_head, m_font, m_color);
        painter->restore();
    }

private:
    const core::AttentionResult& m_result;
    int m_head;
    QFont m_font;
    QColor m_color;
};

} // namespace

void buildLinesFigure(QCustomPlot& plot, const core::AttentionResult& result,
                      const FigureSpec& spec)
{
    const double dpi = spec.dpi;
    const QString reason = LinesView::unavailableReason(result, spec.head);
    if (!reason.isEmpty())
        throw core::Error(reason.toStdString());
    plot.clearItems();
    plot.clearPlottables();
    plot.plotLayout()->clear();
    plot.setBackground(Qt::white);
    QString title = spec.title;
    if (title.isEmpty())
        title = (spec.head < 0 ? QObject::tr("Mean of heads")
                               : QObject::tr("Head %1").arg(spec.head + 1)) +
                QStringLiteral(" · ") +
                FigureBuilder::settingsSummary(*result.problem); // as the heatmap's
    auto* heading =
        new QCPTextElement(&plot, title, figureFont(plot.font(), spec.fontPoints * 1.2, dpi, true));
    heading->setTextColor(kInk);
    heading->setMargins(QMargins(0, 0, 0, int(std::lround(6 * dpi / 72.0))));
    plot.plotLayout()->addElement(0, 0, heading);
    plot.plotLayout()->addElement(
        1, 0,
        new LinesElement(&plot, result, spec.head,
                         figureFont(plot.font(), spec.fontPoints, dpi, false),
                         linesColor(spec.colormap)));
}

} // namespace attn::ui
