#pragma once

#include <QSlider>

namespace attn::ui {

// A drag of `slider` is one undo step of `document` (its beginGesture / endGesture); clicks
// and keys on the slider stay one step each. `gesture` holds the open drag's serial.
template <typename Document> void makeDragOneStep(QSlider& slider, Document& document, int& gesture)
{
    QObject::connect(&slider, &QSlider::sliderPressed, &slider,
                     [&document, &gesture] { gesture = document.beginGesture(); });
    QObject::connect(&slider, &QSlider::sliderReleased, &slider, [&document, &gesture] {
        document.endGesture(gesture);
        gesture = 0;
    });
}

} // namespace attn::ui
