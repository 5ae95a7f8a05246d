#include "ui/presentation/seq2seq_presentation_window.h"

#include "ui/presentation/seq2seq_slides.h"

#include <QKeyEvent>
#include <QPainter>
#include <algorithm>

namespace attn::ui {

Seq2SeqPresentationWindow::Seq2SeqPresentationWindow(
    std::shared_ptr<const core::Seq2SeqModel> model, core::Seq2SeqDecoding decoding,
    QWidget* parent)
    : QWidget(parent), m_model(std::move(model)), m_decoding(std::move(decoding))
{
    setWindowTitle(tr("Sequence to Sequence — Presentation"));
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(320, 240);
}

int Seq2SeqPresentationWindow::slideCount() const
{
    return seq2seqSlideCount(m_decoding);
}

void Seq2SeqPresentationWindow::setSlide(int index)
{
    index = std::clamp(index, 0, slideCount() - 1);
    if (index == m_index)
        return;
    m_index = index;
    m_slide.reset();
    update();
}

const Slide& Seq2SeqPresentationWindow::slide()
{
    if (!m_slide)
        m_slide = buildSeq2SeqSlide(*m_model, m_decoding, m_index, m_theme, QSizeF(size()));
    return *m_slide;
}

void Seq2SeqPresentationWindow::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    paintSlide(painter, slide());
}

void Seq2SeqPresentationWindow::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Right:
    case Qt::Key_Space:
    case Qt::Key_PageDown:
    case Qt::Key_Down:
        setSlide(m_index + 1);
        break;
    case Qt::Key_Left:
    case Qt::Key_Backspace:
    case Qt::Key_PageUp:
    case Qt::Key_Up:
        setSlide(m_index - 1);
        break;
    case Qt::Key_Home:
        setSlide(0);
        break;
    case Qt::Key_End:
        setSlide(slideCount() - 1);
        break;
    case Qt::Key_Escape:
    case Qt::Key_F11:
        close();
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

void Seq2SeqPresentationWindow::resizeEvent(QResizeEvent* event)
{
    m_slide.reset();
    QWidget::resizeEvent(event);
}

} // namespace attn::ui
