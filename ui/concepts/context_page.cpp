#include "ui/concepts/context_page.h"

#include "ui/concepts/context_figure.h"

namespace attn::ui {

ContextPage::ContextPage(QWidget* parent) : ConceptPage(ConceptView::Context, parent) {}

void ContextPage::draw(QCustomPlot& plot, const FigureSpec& spec) const
{
    buildContextFigure(plot, m_source, spec, m_word, m_sentence);
}

void ContextPage::forgetScene()
{
    m_word.clear();
    m_sentence.clear();
    scheduleRebuild();
}

void ContextPage::setRequest(const QString& view)
{
    const QString word = view.section(QLatin1Char(':'), 1, 1);
    const QString sentence = view.section(QLatin1Char(':'), 2);
    if (word.isEmpty() || sentence.isEmpty() || (word == m_word && sentence == m_sentence))
        return;
    m_word = word;
    m_sentence = sentence;
    scheduleRebuild();
}

QString ContextPage::viewName() const
{
    const QString name = conceptViewName(ConceptView::Context);
    return m_word.isEmpty() ? name
                            : name + QLatin1Char(':') + m_word + QLatin1Char(':') + m_sentence;
}

} // namespace attn::ui
