#pragma once

#include "ui/concepts/concept_pages.h"

namespace attn::ui {

// Seed 000: one word in two sentences, its input and its outputs (buildContextFigure).
class ContextPage : public ConceptPage
{
    Q_OBJECT
public:
    explicit ContextPage(QWidget* parent = nullptr);
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;
    // Another scene: its view names the word and the sentence again, or nothing.
    void forgetScene() override;

    // From a scene's view "context:WORD:SENTENCE" (a bare "context" keeps what the page has,
    // so that leaving the tab and coming back loses nothing).
    void setRequest(const QString& view);
    // "context:WORD:SENTENCE", or "context" when the page has none.
    QString viewName() const;

private:
    QString m_word;
    QString m_sentence;
};

} // namespace attn::ui
