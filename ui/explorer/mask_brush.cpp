#include "ui/explorer/mask_brush.h"

#include "ui/document/scene_document.h"
#include "ui/views/heatmap_view.h"

#include <algorithm>

namespace attn::ui {

MaskBrush::MaskBrush(SceneDocument& document, HeatmapView& view, QObject* parent)
    : QObject(parent), m_document(document)
{
    connect(&view, &HeatmapView::maskPaintStarted, this,
            [this](int row, int column) { paint(row, column, true); });
    connect(&view, &HeatmapView::maskPaintMoved, this,
            [this](int row, int column) { paint(row, column, false); });
    connect(&view, &HeatmapView::maskPaintFinished, this, [this] {
        m_document.endGesture(m_gesture);
        m_gesture = 0;
    });
}

void MaskBrush::paint(int row, int column, bool first)
{
    core::MaskSpec mask = m_document.scene().mask;
    auto& cells = mask.customCells;
    const auto found = std::find(cells.begin(), cells.end(), std::pair{row, column});
    if (first) {
        // The first cell decides: a stroke that starts on a masked cell unmasks.
        m_gesture = m_document.beginGesture();
        m_masks = found == cells.end();
    }
    if (m_masks && found == cells.end())
        cells.emplace_back(row, column);
    else if (!m_masks && found != cells.end())
        cells.erase(found);
    else
        return;
    m_document.setMask(mask);
}

} // namespace attn::ui
