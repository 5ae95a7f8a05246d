#include "ui/concepts/mixing_page.h"

#include "ui/concepts/mixing_figure.h"

namespace attn::ui {

MixingPage::MixingPage(QWidget* parent) : ConceptPage(ConceptView::Mixing, parent) {}

void MixingPage::draw(QCustomPlot& plot, const FigureSpec& spec) const
{
    buildMixingFigure(plot, m_source, spec, m_sentence);
}

void MixingPage::forgetScene()
{
    m_sentence.clear();
    scheduleRebuild();
}

void MixingPage::setRequest(const QString& view)
{
    const QString sentence = view.section(QLatin1Char(':'), 1);
    if (sentence.isEmpty() || sentence == m_sentence)
        return;
    m_sentence = sentence;
    scheduleRebuild();
}

QString MixingPage::viewName() const
{
    const QString name = conceptViewName(ConceptView::Mixing);
    return m_sentence.isEmpty() ? name : name + QLatin1Char(':') + m_sentence;
}

} // namespace attn::ui
