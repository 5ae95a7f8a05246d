#pragma once

#include "core/scene.h"

#include <QWidget>

class QCheckBox;
class QComboBox;

namespace attn::ui {

// The row above the large views: which head they show (one, the mean of the enabled heads, or
// all of them), the colours, numbers in cells, the colour scale, queries in rows or columns,
// and Fit. It wraps on a narrow window instead of widening it.
class ViewBar : public QWidget
{
    Q_OBJECT

public:
    explicit ViewBar(QWidget* parent = nullptr);

    // The head choices for a scene of `heads` heads: Head 1 … Head h, Mean of heads, All heads.
    // The choice is kept where the new count has it.
    void setHeadCount(int heads);
    // The head the large views show; -1 is the mean of the enabled heads. With All heads
    // chosen, 0: the views of one head show head 1.
    int selectedHead() const;
    bool allHeadsShown() const;
    // Chooses head `head`; -1 or a head the scene lacks chooses the mean.
    void selectHead(int head);
    // The scene's view settings -> the controls; `head` and `allHeads` as the scene's view
    // names them. Emits no edited().
    void showSettings(const core::ViewSettings& settings, int head, bool allHeads);
    // The controls -> the colour, number and orientation fields of `settings`.
    void storeSettings(core::ViewSettings& settings) const;

    // Layer 1 … Layer n of a stacked scene (core/scene_layers.h); hidden for one layer.
    void setLayerCount(int layers);
    int selectedLayer() const;

    QComboBox* headCombo() const { return m_headCombo; }
    QComboBox* layerCombo() const { return m_layerCombo; }
    QCheckBox* valuesCheck() const { return m_valuesCheck; }
    QCheckBox* dataScaleCheck() const { return m_dataScaleCheck; }

signals:
    // The user changed a control.
    void edited();
    // Fit: show the whole matrix.
    void fitRequested();

private:
    int headCount() const;

    QComboBox* m_headCombo = nullptr;
    QComboBox* m_layerCombo = nullptr;
    QWidget* m_layerField = nullptr; // the combo with its label
    QComboBox* m_colormapCombo = nullptr;
    QCheckBox* m_valuesCheck = nullptr;
    QCheckBox* m_dataScaleCheck = nullptr; // weights' colours scaled to the data, not 0 to 1
    QCheckBox* m_transposeCheck = nullptr; // weights with queries in columns (seed 001)
    bool m_showing = false;                // showSettings is setting the controls
};

} // namespace attn::ui
