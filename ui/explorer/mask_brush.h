#pragma once

#include <QObject>

namespace attn::ui {

class HeatmapView;
class SceneDocument;

// Paints the custom mask on a heatmap: a stroke (press, drag, release, or Space on the
// keyboard's cell) masks the cells it passes, or unmasks them where it starts on a masked
// cell. One stroke is one undo step.
class MaskBrush : public QObject
{
    Q_OBJECT

public:
    MaskBrush(SceneDocument& document, HeatmapView& view, QObject* parent = nullptr);

private:
    void paint(int row, int column, bool first);

    SceneDocument& m_document;
    int m_gesture = 0;   // the stroke's undo step
    bool m_masks = true; // the stroke masks (true) or unmasks
};

} // namespace attn::ui
