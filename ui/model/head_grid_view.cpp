#include "ui/model/head_grid_view.h"

#include "ui/figures/figure_widget.h"

#include <QElapsedTimer>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStyle>
#include <QStyleOptionButton>

#include <algorithm>

namespace attn::ui {

namespace {

// Thumbnails smaller than this have no checkbox (Space and the head panel still switch).
constexpr double kMinCheckboxCell = 26.0;

} // namespace

HeadGridView::HeadGridView(QWidget* parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Layers and heads"));
    setToolTip(QString()); // per head, from event()
}

void HeadGridView::setResult(std::shared_ptr<const core::ModelResult> result)
{
    const bool shape =
        !m_result || !result || m_result->layerCount() != result->layerCount() ||
        (result->layerCount() &&
         m_result->layers.front()->heads.size() != result->layers.front()->heads.size()) ||
        HeadGridPainter::tokenLabels(*m_result) !=
            HeadGridPainter::tokenLabels(*result) || // label widths
        HeadGridPainter::keyTokenLabels(*m_result) != HeadGridPainter::keyTokenLabels(*result);
    m_result = std::move(result);
    m_message.clear();
    invalidate(true);
    if (shape)
        m_geometry.reset();
}

void HeadGridView::setOptions(const HeadGridOptions& options)
{
    const bool thumbnails = options.focusToken != m_options.focusToken ||
                            options.colormap != m_options.colormap ||
                            options.style.background != m_options.style.background;
    m_options = options;
    invalidate(thumbnails);
}

void HeadGridView::setMessage(const QString& text)
{
    m_message = text;
    update();
}

int HeadGridView::layers() const
{
    return m_result ? m_result->layerCount() : 0;
}

int HeadGridView::heads() const
{
    return m_result && m_result->layerCount() ? int(m_result->layers.front()->heads.size()) : 0;
}

const HeadGridPainter::Geometry& HeadGridView::geometry() const
{
    if (!m_geometry) {
        m_geometry = std::make_unique<HeadGridPainter::Geometry>(HeadGridPainter::layout(
            QRectF(rect()), layers(), heads(), font(), m_options, this,
            m_result ? HeadGridPainter::tokenLabels(*m_result) : QStringList()));
        if (m_result)
            m_geometry->keyTokens = HeadGridPainter::keyTokenLabels(*m_result);
    }
    return *m_geometry;
}

QRectF HeadGridView::checkboxRect(int layer, int head) const
{
    const auto& g = geometry();
    if (g.side < kMinCheckboxCell || layer < 0 || head < 0 || layer >= g.layers || head >= g.heads)
        return {};
    const QRectF cell = g.cellRect(layer, head);
    const double s = std::min(13.0, g.side * 0.28);
    return QRectF(cell.left() + 2, cell.bottom() - s - 2, s, s);
}

QString HeadGridView::describeAt(QPointF point) const
{
    if (!m_result || !m_message.isEmpty()) // a message hides the grid
        return {};
    const auto hit = geometry().hitAt(point, int(m_result->tokens.size()));
    if (!hit)
        return {};
    if (checkboxRect(hit->layer, hit->head).contains(point))
        return m_options.headsOff.count({hit->layer, hit->head})
                   ? tr("Layer %1, head %2 is off: click to switch it on")
                         .arg(hit->layer + 1)
                         .arg(hit->head + 1)
                   : tr("Click to switch layer %1, head %2 off")
                         .arg(hit->layer + 1)
                         .arg(hit->head + 1);
    return HeadGridPainter::describe(*m_result, hit->layer, hit->head,
                                     m_options.focusToken >= 0 ? m_options.focusToken : hit->query);
}

QSize HeadGridView::sizeHint() const
{
    return QSize(720, 720);
}

QSize HeadGridView::minimumSizeHint() const
{
    return QSize(200, 160);
}

void HeadGridView::invalidate(bool thumbnails)
{
    if (thumbnails)
        m_thumbnailsValid = false;
    update();
}

bool HeadGridView::event(QEvent* event)
{
    return showFigureToolTip(*this, event, [this](QPointF at) { return describeAt(at); }) ||
           QWidget::event(event);
}

void HeadGridView::paintEvent(QPaintEvent*)
{
    QElapsedTimer timer;
    timer.start();
    QPainter painter(this);
    const QString message =
        m_message.isEmpty() && !m_result ? tr("No model open: File > Open Model…") : m_message;
    if (!paintFigureBackground(painter, rect(), m_options.style, message))
        return;
    if (!m_thumbnailsValid) {
        m_thumbnails = HeadGridPainter::thumbnails(*m_result, m_options);
        m_thumbnailsValid = true;
    }
    painter.setRenderHint(QPainter::Antialiasing, false);
    HeadGridOptions options = m_options;
    HeadGridPainter::paint(painter, geometry(), *m_result, options, m_thumbnails);
    // The switches: a screen's affordance, not part of exported figures. On every head large
    // enough to hold one (a small box in its corner), so which heads are on reads at a glance
    // and any head switches with one click.
    const auto& g = geometry();
    for (int l = 0; l < g.layers; ++l)
        for (int h = 0; h < g.heads; ++h) {
            const QRectF box = checkboxRect(l, h);
            if (box.isEmpty())
                continue;
            QStyleOptionButton option;
            option.initFrom(this);
            option.rect = box.toAlignedRect();
            // The switch follows the document at once; the washed-out thumbnail follows the run.
            option.state |= m_options.headsOff.count({l, h}) ? QStyle::State_Off : QStyle::State_On;
            style()->drawPrimitive(QStyle::PE_IndicatorCheckBox, &option, &painter, this);
        }
    if (hasFocus() && m_options.selectedLayer >= 0) {
        QStyleOptionFocusRect focus;
        focus.initFrom(this);
        focus.rect = g.cellRect(m_options.selectedLayer, m_options.selectedHead)
                         .adjusted(-5, -5, 5, 5)
                         .toAlignedRect();
        style()->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, &painter, this);
    }
    m_paintMs = double(timer.nsecsElapsed()) / 1e6;
    m_painted = m_result.get();
}

void HeadGridView::resizeEvent(QResizeEvent* event)
{
    m_geometry.reset();
    QWidget::resizeEvent(event);
}

void HeadGridView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        m_geometry.reset();
    QWidget::changeEvent(event);
}

void HeadGridView::mousePressEvent(QMouseEvent* event)
{
    if (!m_result || !m_message.isEmpty() || event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const auto hit = geometry().hitAt(event->position(), int(m_result->tokens.size()));
    if (!hit)
        return;
    if (checkboxRect(hit->layer, hit->head).contains(event->position())) {
        emit headToggled(hit->layer, hit->head, !m_options.headsOff.count({hit->layer, hit->head}));
        return;
    }
    emit headSelected(hit->layer, hit->head);
}

void HeadGridView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (!m_result || !m_message.isEmpty())
        return;
    if (const auto hit = geometry().hitAt(event->position(), int(m_result->tokens.size())))
        emit headActivated(hit->layer, hit->head);
}

void HeadGridView::keyPressEvent(QKeyEvent* event)
{
    const int l = layers();
    const int h = heads();
    if (l == 0 || h == 0)
        return QWidget::keyPressEvent(event);
    int layer = std::max(0, m_options.selectedLayer);
    int head = std::max(0, m_options.selectedHead);
    switch (event->key()) {
    case Qt::Key_Left:
        head = head > 0 ? head - 1 : (layer > 0 ? (--layer, h - 1) : 0);
        break;
    case Qt::Key_Right:
        head = head < h - 1 ? head + 1 : (layer < l - 1 ? (++layer, 0) : h - 1);
        break;
    case Qt::Key_Up:
        layer = std::max(0, layer - 1);
        break;
    case Qt::Key_Down:
        layer = std::min(l - 1, layer + 1);
        break;
    case Qt::Key_Home:
        head = 0;
        break;
    case Qt::Key_End:
        head = h - 1;
        break;
    case Qt::Key_PageUp:
        layer = 0;
        break;
    case Qt::Key_PageDown:
        layer = l - 1;
        break;
    case Qt::Key_Space:
        emit headToggled(layer, head, !m_options.headsOff.count({layer, head}));
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        emit headActivated(layer, head);
        return;
    default:
        return QWidget::keyPressEvent(event);
    }
    emit headSelected(layer, head);
}

} // namespace attn::ui
