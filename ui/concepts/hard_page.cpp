#include "ui/concepts/hard_page.h"

#include "ui/concepts/hard_figure.h"

namespace attn::ui {

HardPage::HardPage(QWidget* parent) : ConceptPage(ConceptView::Hard, parent) {}

void HardPage::draw(QCustomPlot& plot, const FigureSpec& spec) const
{
    buildHardFigure(plot, m_source, spec);
}

} // namespace attn::ui
