#pragma once

#include "ui/concepts/concept_pages.h"

class QComboBox;

namespace attn::ui {

class SceneDocument;

// Seed 001's stacked blocks (buildLayersFigure), with the number of blocks as a control: one
// attention layer, or 1 to 4 blocks of attention + feed-forward.
class LayersPage : public ConceptPage
{
    Q_OBJECT
public:
    explicit LayersPage(SceneDocument& document, QWidget* parent = nullptr);
    void setSource(const ConceptSource& source) override;
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;

private:
    SceneDocument& m_document;
    QComboBox* m_count = nullptr;
};

} // namespace attn::ui
