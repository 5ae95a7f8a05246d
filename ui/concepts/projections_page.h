#pragma once

#include "ui/concepts/concept_pages.h"
#include "ui/concepts/projections_figure.h"

class QComboBox;

namespace attn::ui {

// Seeds 002 and 004: the heads' projections as one matrix, a head's QK and OV circuits, the
// bias as a row of the weights (ProjectionsPart), for the window's head.
class ProjectionsPage : public ConceptPage
{
    Q_OBJECT
public:
    explicit ProjectionsPage(QWidget* parent = nullptr);
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;

    ProjectionsPart part() const;
    void setPart(ProjectionsPart part);
    QComboBox* partCombo() const { return m_part; }

signals:
    // The user picked another part (the window stores it in the scene's view).
    void partChosen();

private:
    QComboBox* m_part = nullptr;
};

} // namespace attn::ui
