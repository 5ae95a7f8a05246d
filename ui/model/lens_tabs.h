#pragma once

#include "ui/figures/figure_spec.h"
#include "ui/model/model_figures.h"

#include "core/backend.h"
#include "core/model/model_result.h"

#include <QObject>
#include <functional>
#include <memory>

class QTabWidget;
class QWidget;

namespace attn::ui {

class AttributionView;
class LensView;
class PatchingView;

// The model window's Logit lens, Patching and Attribution tabs, made and wired together: each
// is told the run shown and the selected head, a click on a head in either heatmap opens it,
// their errors go to the window's message bar, and what they computed goes into the window's
// figures (export).
class LensTabs : public QObject
{
    Q_OBJECT

public:
    using BackendMaker = std::function<std::unique_ptr<core::Backend>()>;
    struct Hooks
    {
        std::function<void(int layer, int head)> openHead;
        std::function<void(const QString& key, const QString& text)> showError; // text empty: clear
    };

    // Adds the three tabs to `tabs`.
    LensTabs(QTabWidget& tabs, Hooks hooks, QObject* parent = nullptr);

    // The prediction panel's line of the lens, made once with `parent`.
    QWidget* createTrace(QWidget* parent);
    // The window's run (null: none) and sentence.
    void setSource(std::shared_ptr<const core::ModelResult> result, BackendMaker makeBackend,
                   const QString& sentence);
    void setSelection(int layer, int head);
    void setFigureStyle(const FigureStyle& style);
    // The lens, patching and attribution computed for the run in `source`.
    void fill(ModelFigureSource& source) const;

    LensView* lens() const { return m_lens; }
    PatchingView* patching() const { return m_patching; }
    AttributionView* attribution() const { return m_attribution; }

private:
    LensView* m_lens = nullptr;
    PatchingView* m_patching = nullptr;
    AttributionView* m_attribution = nullptr;
};

} // namespace attn::ui
