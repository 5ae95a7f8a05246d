#pragma once

#include "ui/concepts/concept_pages.h"

namespace attn::ui {

// Seed 000: the window's head under softmax beside its argmax (buildHardFigure).
class HardPage : public ConceptPage
{
    Q_OBJECT
public:
    explicit HardPage(QWidget* parent = nullptr);
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;
};

} // namespace attn::ui
