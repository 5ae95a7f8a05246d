#include "ui/model/matrix_panels_view.h"

#include "ui/figures/figure_widget.h"

#include <QMouseEvent>
#include <QPainter>

namespace attn::ui {

MatrixPanelsView::MatrixPanelsView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void MatrixPanelsView::setPanels(std::vector<MatrixPanel> panels, const QString& title)
{
    m_panels = std::move(panels);
    m_title = title;
    m_message.clear();
    update();
}

void MatrixPanelsView::setMessage(const QString& text)
{
    m_message = text;
    m_panels.clear();
    m_geometry = {};
    update();
}

void MatrixPanelsView::setFigureStyle(const FigureStyle& style)
{
    m_style = style;
    update();
}

QString MatrixPanelsView::describeAt(QPointF point) const
{
    const auto hit = m_geometry.hitAt(point);
    if (!hit || hit->panel >= int(m_panels.size()))
        return {};
    const MatrixPanel& panel = m_panels[std::size_t(hit->panel)];
    const QString row = hit->row < panel.rowLabels.size() ? panel.rowLabels[hit->row]
                                                          : QString::number(hit->row + 1);
    const QString column = hit->column < panel.columnLabels.size()
                               ? panel.columnLabels[hit->column]
                               : QString::number(hit->column + 1);
    return tr("%1\n%2 %3 · %4 %5: %6")
        .arg(panel.title, panel.rowAxis, row, panel.columnAxis, column)
        .arg(double(panel.matrix(hit->row, hit->column)), 0, 'g', 4);
}

bool MatrixPanelsView::event(QEvent* event)
{
    return showFigureToolTip(*this, event, [this](QPointF at) { return describeAt(at); }) ||
           QWidget::event(event);
}

void MatrixPanelsView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    if (!paintFigureBackground(painter, rect(), m_style, m_message) || m_panels.empty())
        return;
    m_geometry =
        paintMatrixPanels(painter, QRectF(rect()), m_panels, m_title, font(), m_style, false);
}

void MatrixPanelsView::mousePressEvent(QMouseEvent* event)
{
    if (const auto hit = m_geometry.hitAt(event->position());
        hit && event->button() == Qt::LeftButton)
        emit cellClicked(hit->panel, hit->row, hit->column);
}

} // namespace attn::ui
