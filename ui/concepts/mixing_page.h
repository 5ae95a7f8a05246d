#pragma once

#include "ui/concepts/concept_pages.h"

namespace attn::ui {

// Seeds 001 and 004: fixed against data-dependent mixing weights (buildMixingFigure).
class MixingPage : public ConceptPage
{
    Q_OBJECT
public:
    explicit MixingPage(QWidget* parent = nullptr);
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;
    // Another scene: its view names the second sentence again, or nothing.
    void forgetScene() override;

    // From a scene's view "mixing:SENTENCE" (a bare "mixing" keeps what the page has, so that
    // leaving the tab and coming back loses nothing).
    void setRequest(const QString& view);
    // "mixing:SENTENCE", or "mixing" when the page has none.
    QString viewName() const;

private:
    QString m_sentence;
};

} // namespace attn::ui
