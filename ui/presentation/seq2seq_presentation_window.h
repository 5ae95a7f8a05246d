#pragma once

#include "ui/presentation/presentation_theme.h"
#include "ui/presentation/slide.h"

#include "core/seq2seq/seq2seq_model.h"

#include <QWidget>
#include <memory>
#include <optional>

namespace attn::ui {

// One decoding presented for a lecture (seq2seq_slides.h): the encoder, then each decoder step,
// a slide each, filling the screen. Right, Space or Page Down step on; Left, Backspace or Page
// Up back; Home and End jump; Escape or F11 closes it.
class Seq2SeqPresentationWindow : public QWidget
{
    Q_OBJECT

public:
    Seq2SeqPresentationWindow(std::shared_ptr<const core::Seq2SeqModel> model,
                              core::Seq2SeqDecoding decoding, QWidget* parent = nullptr);

    int slideIndex() const { return m_index; }
    int slideCount() const;
    void setSlide(int index); // clamped
    // The page on screen, laid out for the widget's size.
    const Slide& slide();

protected:
    void paintEvent(QPaintEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    std::shared_ptr<const core::Seq2SeqModel> m_model;
    core::Seq2SeqDecoding m_decoding;
    int m_index = 0;
    PresentationTheme m_theme = PresentationTheme::Light;
    std::optional<Slide> m_slide;
};

} // namespace attn::ui
